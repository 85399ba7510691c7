/**
 * Undo of the last compaction, branch switch or label made in Bonsai. Entries are append-only, so
 * undo never removes one.
 * - A label: a label entry with the old label is appended right after the undone label entry (the
 *   leaf), so the tree keeps its branches: labels add nothing to any context, and the leaf stays on
 *   the same line of the conversation.
 * - A compaction or branch switch: the leaf moves back to where it was, and — because an agent
 *   resuming the file takes its last line as the leaf (session-format.md §6.3) — a `custom` entry of
 *   type "bonsai-undo", which adds nothing to any context, is appended there so the file ends where
 *   Bonsai's leaf is. The undone compaction stays in the tree as an abandoned branch.
 * None of these changes the session's title (a title is the agent's or the user's, never a summary's).
 *
 * Bonsai remembers one change per session, in memory, and offers it only while the session's leaf
 * is still where that change left it.
 */
import { IpcError, type Handlers, type UndoDto } from "@bonsai/ipc";
import type { SessionStore } from "@bonsai/store";

export interface UndoRecord {
  kind: UndoDto["kind"];
  /** the entry the change appended (compaction, branch summary, label entry); null for a plain branch switch */
  entryId: string | null;
  /** the leaf before the change, and after it */
  before: string | null;
  after: string | null;
  /** a label change: its target and the label it had before (undefined = none) */
  label?: { targetId: string; previous: string | undefined };
}

export const UNDO_MARKER_TYPE = "bonsai-undo";

export class UndoLog {
  readonly #last = new Map<string, UndoRecord>();
  record(sessionId: string, record: UndoRecord): void {
    if (record.before === record.after) return;
    this.#last.set(sessionId, record);
  }
  /** the change to undo, while the leaf is still where it left it */
  current(sessionId: string, leafNow: string | null): UndoRecord | null {
    const r = this.#last.get(sessionId);
    return r && r.after === leafNow ? r : null;
  }
  clear(sessionId: string): void {
    this.#last.delete(sessionId);
  }
}

const short = (id: string | null) => (id === null ? "the start of the session" : id);

function describe(r: UndoRecord): UndoDto {
  switch (r.kind) {
    case "compaction":
      return {
        kind: r.kind,
        entryId: r.entryId,
        title: "Undo compaction",
        detail: `Moves the leaf back to ${short(r.before)}; the compaction stays in the file as an abandoned branch, and an undo entry after ${short(r.before)} makes the agent resume there too.`,
      };
    case "branch":
      return {
        kind: r.kind,
        entryId: r.entryId,
        title: "Undo branch switch",
        detail: `Moves the leaf back to ${short(r.before)}${r.entryId ? "; the branch summary stays in the file as an abandoned branch" : ""}, so the agent resumes there too.`,
      };
    case "label":
      return {
        kind: r.kind,
        entryId: r.entryId,
        title: r.label?.previous === undefined ? "Undo label" : "Undo label change",
        detail: `Puts back ${r.label?.previous === undefined ? "no label" : `the label “${r.label.previous}”`} on ${r.label?.targetId ?? "the entry"} with a new label entry right after the undone one; no branch is added.`,
      };
  }
}

/** What undo did, in one sentence for the user (the agent's side included). */
function undoneMessage(r: UndoRecord, appended: boolean): string {
  const resume = appended && r.kind !== "label" ? `, where an undo entry makes the agent resume too` : "";
  switch (r.kind) {
    case "compaction":
      return `The compaction is undone: the leaf is back at ${short(r.before)}${resume}; the compaction stays in the file as an abandoned branch.`;
    case "branch":
      return `The branch switch is undone: the leaf is back at ${short(r.before)}${resume}${r.entryId ? "; the branch summary stays in the file as an abandoned branch" : ""}.`;
    case "label":
      return `The label is undone: ${r.label?.targetId ?? "the entry"} has ${r.label?.previous === undefined ? "no label" : `the label “${r.label.previous}”`} again.`;
  }
}

export function undoHandlers(store: SessionStore, undos: UndoLog): Pick<Handlers, "getUndo" | "undo"> {
  const requireSession = (sessionId: string) => {
    if (!store.getSession(sessionId)) throw new IpcError("not_found", `no session ${sessionId}`);
  };
  return {
    getUndo: ({ sessionId }) => {
      requireSession(sessionId);
      const r = undos.current(sessionId, store.getLeaf(sessionId));
      return { undo: r ? describe(r) : null };
    },
    undo: ({ sessionId }) => {
      requireSession(sessionId);
      const r = undos.current(sessionId, store.getLeaf(sessionId));
      if (!r) throw new IpcError("conflict", "Nothing to undo: the session changed since Bonsai's last compaction, branch switch or label");
      undos.clear(sessionId);
      let appended: string | null = null;
      if (r.kind === "label" && r.label) {
        // at the leaf, which is the undone label entry: a label entry moved back to r.before would fork the tree
        appended = store.appendLabel(sessionId, r.label.targetId, r.label.previous).id;
      } else {
        store.setLeaf(sessionId, r.before);
        // the agent resumes from the file's last line: make it the leaf's place again
        const last = store.lastEntryId(sessionId);
        if (last !== r.before) appended = store.appendEntry(sessionId, { type: "custom", customType: UNDO_MARKER_TYPE, data: { undid: r.kind, entryId: r.entryId } }).id;
      }
      return { leafId: store.getLeaf(sessionId), appendedEntryId: appended, message: undoneMessage(r, appended !== null) };
    },
  };
}
