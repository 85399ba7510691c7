/**
 * The history of the changes Bonsai made to each session (label, branch switch, compaction,
 * prune), in memory: undone one by one, newest first, and redone in the order they were undone.
 *
 * A change is offered for undo only while the session's leaf is where that change (or the undo or
 * redo after it) left it; any other change that moves the leaf (a prompt, the agent appending)
 * breaks the chain, and a new change drops what was undone (as in any editor).
 */
import type { UndoableKind } from "@bonsai/core";

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
interface Undone {
  record: UndoRecord;
  at: string | null;
}

/** changes remembered per session (older ones are forgotten) */
export const HISTORY_LIMIT = 100;

export class UndoLog {
  readonly #done = new Map<string, UndoRecord[]>();
  readonly #undone = new Map<string, Undone[]>();

  /** a new change: it follows the last one when it starts where that one left the leaf, else starts a new history */
  record(sessionId: string, record: UndoRecord): void {
    if (record.kind !== "prune" && record.before === record.after) return;
    const done = this.#done.get(sessionId) ?? [];
    const chained = done.length > 0 && done[done.length - 1]?.after === record.before;
    const next = chained ? [...done, record].slice(-HISTORY_LIMIT) : [record];
    this.#done.set(sessionId, next);
    this.#undone.delete(sessionId);
  }

  /** the change to undo, while the leaf is still where it left it */
  current(sessionId: string, leafNow: string | null): UndoRecord | null {
    const done = this.#done.get(sessionId);
    const top = done?.[done.length - 1];
    return top && top.after === leafNow ? top : null;
  }

  /** the change to redo, while the leaf is still where its undo left it */
  redoable(sessionId: string, leafNow: string | null): UndoRecord | null {
    const undone = this.#undone.get(sessionId);
    const top = undone?.[undone.length - 1];
    return top && top.at === leafNow ? top.record : null;
  }

  /** `record` (the current one) was undone, leaving the leaf at `leafNow` (the place of the change before it) */
  undone(sessionId: string, record: UndoRecord, leafNow: string | null): void {
    const done = this.#done.get(sessionId) ?? [];
    if (done[done.length - 1] !== record) return;
    done.pop();
    const previous = done[done.length - 1];
    if (previous) previous.after = leafNow;
    const undone = this.#undone.get(sessionId) ?? [];
    undone.push({ record, at: leafNow });
    this.#undone.set(sessionId, undone.slice(-HISTORY_LIMIT));
  }

  /** `record` (the one to redo) was done again from `leafBefore`, leaving the leaf at `leafNow` */
  redone(sessionId: string, record: UndoRecord, again: Partial<UndoRecord>, leafBefore: string | null, leafNow: string | null): void {
    const undone = this.#undone.get(sessionId) ?? [];
    if (undone[undone.length - 1]?.record !== record) return;
    undone.pop();
    const next = undone[undone.length - 1];
    if (next) next.at = leafNow;
    const done = this.#done.get(sessionId) ?? [];
    done.push({ ...record, ...again, before: leafBefore, after: leafNow });
    this.#done.set(sessionId, done.slice(-HISTORY_LIMIT));
  }
}
