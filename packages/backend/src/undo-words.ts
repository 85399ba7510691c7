/** What Undo and Redo say: the button's title and detail, and the sentence after it ran (the agent's side included). */
import type { UndoDto } from "@bonsai/ipc";
import type { UndoRecord } from "./undo-log";

const place = (id: string | null) => (id === null ? "the start of the session" : id);
const labelText = (label: string | undefined) => (label === undefined ? "no label" : `the label “${label}”`);
const outputs = (n: number) => `${n} tool output${n === 1 ? "" : "s"}`;

export function describeUndo(r: UndoRecord): UndoDto {
  const base = { kind: r.kind, entryId: r.entryId };
  switch (r.kind) {
    case "compaction":
      return { ...base, title: "Undo compaction", detail: `Moves the leaf back to ${place(r.before)}; the compaction stays in the file as an abandoned branch (not counted), and an undo entry after ${place(r.before)} makes the agent resume there too.` };
    case "branch":
      return { ...base, title: "Undo branch switch", detail: `Moves the leaf back to ${place(r.before)}${r.entryId ? "; the branch summary stays in the file as an abandoned branch" : ""}, so the agent resumes there too.` };
    case "label":
      return { ...base, title: r.label?.previous === undefined ? "Undo label" : "Undo label change", detail: `Puts back ${labelText(r.label?.previous)} on ${r.label?.targetId ?? "the entry"} with a new label entry; no branch is added.` };
    case "prune":
      return { ...base, title: "Undo prune", detail: `Restores the ${outputs(r.prunedEntryIds?.length ?? 0)} the prune replaced, in the file too.` };
  }
}

export function describeRedo(r: UndoRecord): UndoDto {
  const base = { kind: r.kind, entryId: r.entryId };
  switch (r.kind) {
    case "compaction":
      return { ...base, title: "Redo compaction", detail: `Moves the leaf to the compaction ${r.entryId ?? ""} again, with a redo entry after it so the agent resumes there too.` };
    case "branch":
      return { ...base, title: "Redo branch switch", detail: `Moves the leaf to ${place(r.after)} again, so the agent resumes there too.` };
    case "label":
      return { ...base, title: r.label?.next === undefined ? "Redo label removal" : "Redo label", detail: `Sets ${labelText(r.label?.next)} on ${r.label?.targetId ?? "the entry"} again with a new label entry.` };
    case "prune":
      return { ...base, title: "Redo prune", detail: "Prunes the old tool outputs at the leaf again, in the file too." };
  }
}

export function undoneMessage(r: UndoRecord, appended: boolean, restored: number): string {
  const resume = appended ? ", where an undo entry makes the agent resume too" : "";
  switch (r.kind) {
    case "compaction":
      return `The compaction is undone: the leaf is back at ${place(r.before)}${resume}; the compaction stays in the file as an abandoned branch and is no longer counted.`;
    case "branch":
      return `The branch switch is undone: the leaf is back at ${place(r.before)}${resume}${r.entryId ? "; the branch summary stays in the file as an abandoned branch" : ""}.`;
    case "label":
      return `The label is undone: ${r.label?.targetId ?? "the entry"} has ${labelText(r.label?.previous)} again.`;
    case "prune":
      return `The prune is undone: ${outputs(restored)} restored${restored === (r.prunedEntryIds?.length ?? 0) ? "" : ` of the ${r.prunedEntryIds?.length ?? 0} it pruned (the others were restored before)`}.`;
  }
}

export function redoneMessage(r: UndoRecord, appended: boolean): string {
  const resume = appended ? ", where a redo entry makes the agent resume too" : "";
  switch (r.kind) {
    case "compaction":
      return `The compaction is redone: the leaf is after it again${resume}.`;
    case "branch":
      return `The branch switch is redone: the leaf is at the branch again${resume}.`;
    case "label":
      return `The label is redone: ${r.label?.targetId ?? "the entry"} has ${labelText(r.label?.next)} again.`;
    case "prune":
      return `The prune is redone: ${outputs(r.prunedEntryIds?.length ?? 0)} pruned again.`;
  }
}
