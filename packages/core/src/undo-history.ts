/**
 * The history of the changes Bonsai made to one session (label, branch switch, compaction, prune),
 * as pure values: undone one by one, newest first, and redone in the order they were undone. The
 * store keeps it per session (so Undo survives a restart); the backend applies these functions.
 *
 * A change is offered for undo only while the session's leaf is where that change (or the undo or
 * redo after it) left it; any other change that moves the leaf (a prompt, the agent appending)
 * breaks the chain, and a new change drops what was undone (as in any editor).
 */
import type { UndoableKind } from "./undo-markers";

export interface UndoRecord {
  kind: UndoableKind;
  /** the entry the change appended (compaction, branch summary, label entry); null for a plain branch switch or a prune */
  entryId: string | null;
  /** the leaf before the change, and after it (or the equivalent place an undo or redo left since) */
  before: string | null;
  after: string | null;
  /** a label change: its target, the label it had before and the one it set (undefined = none) */
  label?: { targetId: string; previous: string | undefined; next: string | undefined };
  /** a prune: the tool results it pruned */
  prunedEntryIds?: readonly string[];
}

/** an undone change, and the leaf where redoing it is offered */
export interface UndoneRecord {
  record: UndoRecord;
  at: string | null;
}

export interface UndoHistory {
  /** the changes that can be undone, oldest first */
  done: readonly UndoRecord[];
  /** the changes undone, the next to redo last */
  undone: readonly UndoneRecord[];
}

/** changes remembered per session, of each list (older ones are forgotten) */
export const UNDO_HISTORY_LIMIT = 50;

export const EMPTY_UNDO_HISTORY: UndoHistory = { done: [], undone: [] };

/** whether two records are the same change (records are plain values: compared by their fields) */
function sameRecord(a: UndoRecord | undefined, b: UndoRecord): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** a new change: it follows the last one when it starts where that one left the leaf, else starts a new history */
export function recordChange(history: UndoHistory, record: UndoRecord): UndoHistory {
  if (record.kind !== "prune" && record.before === record.after) return history;
  const last = history.done[history.done.length - 1];
  const done = last !== undefined && last.after === record.before ? [...history.done, record].slice(-UNDO_HISTORY_LIMIT) : [record];
  return { done, undone: [] };
}

/** the change to undo, while the leaf is still where it left it */
export function undoOffered(history: UndoHistory, leafNow: string | null): UndoRecord | null {
  const top = history.done[history.done.length - 1];
  return top && top.after === leafNow ? top : null;
}

/** the change to redo, while the leaf is still where its undo left it */
export function redoOffered(history: UndoHistory, leafNow: string | null): UndoRecord | null {
  const top = history.undone[history.undone.length - 1];
  return top && top.at === leafNow ? top.record : null;
}

/** `record` (the one offered) was undone, leaving the leaf at `leafNow` (the place of the change before it) */
export function afterUndo(history: UndoHistory, record: UndoRecord, leafNow: string | null): UndoHistory {
  if (!sameRecord(history.done[history.done.length - 1], record)) return history;
  const done = history.done.slice(0, -1);
  const previous = done[done.length - 1];
  if (previous) done[done.length - 1] = { ...previous, after: leafNow };
  return { done, undone: [...history.undone, { record, at: leafNow }].slice(-UNDO_HISTORY_LIMIT) };
}

/** `record` (the one to redo) was done again from `leafBefore` (`again`: what differs this time), leaving the leaf at `leafNow` */
export function afterRedo(history: UndoHistory, record: UndoRecord, again: Partial<UndoRecord>, leafBefore: string | null, leafNow: string | null): UndoHistory {
  if (!sameRecord(history.undone[history.undone.length - 1]?.record, record)) return history;
  const undone = history.undone.slice(0, -1);
  const next = undone[undone.length - 1];
  if (next) undone[undone.length - 1] = { ...next, at: leafNow };
  return { done: [...history.done, { ...record, ...again, before: leafBefore, after: leafNow }].slice(-UNDO_HISTORY_LIMIT), undone };
}

const KINDS: ReadonlySet<unknown> = new Set<UndoableKind>(["compaction", "branch", "label", "prune"]);

const idOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";
const textOrAbsent = (v: unknown): v is string | undefined => v === undefined || typeof v === "string";

/** one stored record typed, or null when it is not one */
function recordOf(value: unknown): UndoRecord | null {
  const r = value as Record<string, unknown> | null;
  if (!r || typeof r !== "object" || !KINDS.has(r.kind) || !idOrNull(r.entryId) || !idOrNull(r.before) || !idOrNull(r.after)) return null;
  const record: UndoRecord = { kind: r.kind as UndoableKind, entryId: r.entryId, before: r.before, after: r.after };
  if (r.label !== undefined) {
    const l = r.label as Record<string, unknown> | null;
    if (!l || typeof l !== "object" || typeof l.targetId !== "string" || !textOrAbsent(l.previous) || !textOrAbsent(l.next)) return null;
    record.label = { targetId: l.targetId, previous: l.previous, next: l.next };
  }
  if (r.prunedEntryIds !== undefined) {
    if (!Array.isArray(r.prunedEntryIds) || !r.prunedEntryIds.every((id) => typeof id === "string")) return null;
    record.prunedEntryIds = [...(r.prunedEntryIds as string[])];
  }
  if (record.kind === "label" && !record.label) return null;
  return record;
}

/**
 * A stored history typed as read (its JSON parsed): a value that is not one in every part (a
 * database another version wrote, or damaged) is no history, so nothing wrong is ever undone.
 */
export function undoHistoryOf(value: unknown): UndoHistory {
  const h = value as { done?: unknown; undone?: unknown } | null;
  if (!h || typeof h !== "object" || !Array.isArray(h.done) || !Array.isArray(h.undone)) return EMPTY_UNDO_HISTORY;
  const done: UndoRecord[] = [];
  for (const item of h.done.slice(-UNDO_HISTORY_LIMIT)) {
    const record = recordOf(item);
    if (!record) return EMPTY_UNDO_HISTORY;
    done.push(record);
  }
  const undone: UndoneRecord[] = [];
  for (const item of h.undone.slice(-UNDO_HISTORY_LIMIT)) {
    const u = item as { record?: unknown; at?: unknown } | null;
    const record = u && typeof u === "object" ? recordOf(u.record) : null;
    if (!record || !idOrNull(u?.at)) return EMPTY_UNDO_HISTORY;
    undone.push({ record, at: u.at });
  }
  return { done, undone };
}
