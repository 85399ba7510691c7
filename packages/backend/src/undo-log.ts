/**
 * The history of the changes Bonsai made to each session (label, branch switch, compaction,
 * prune), kept in the store (migration 021) so that Undo survives a restart: each step reads the
 * session's history, applies core's rule (undo-history.ts) and saves it. The rules: a change is
 * offered for undo only while the session's leaf is where that change (or the undo or redo after
 * it) left it; anything else that moves the leaf (a prompt, the agent appending) breaks the chain,
 * and a new change drops what was undone. A file read again whole forgets the history (the store).
 */
import { afterRedo, afterUndo, recordChange, redoOffered, undoOffered, type UndoHistory, type UndoRecord } from "@bonsai/core";
import type { StoreUndoHistory } from "@bonsai/store";

export type { UndoRecord } from "@bonsai/core";

export class UndoLog {
  constructor(private readonly store: StoreUndoHistory) {}

  private change(sessionId: string, step: (history: UndoHistory) => UndoHistory): void {
    const history = this.store.getUndoHistory(sessionId);
    const next = step(history);
    if (next !== history) this.store.saveUndoHistory(sessionId, next);
  }

  /** a new change: it follows the last one when it starts where that one left the leaf, else starts a new history */
  record(sessionId: string, record: UndoRecord): void {
    this.change(sessionId, (history) => recordChange(history, record));
  }

  /** the change to undo, while the leaf is still where it left it */
  current(sessionId: string, leafNow: string | null): UndoRecord | null {
    return undoOffered(this.store.getUndoHistory(sessionId), leafNow);
  }

  /** the change to redo, while the leaf is still where its undo left it */
  redoable(sessionId: string, leafNow: string | null): UndoRecord | null {
    return redoOffered(this.store.getUndoHistory(sessionId), leafNow);
  }

  /** `record` (the current one) was undone, leaving the leaf at `leafNow` (the place of the change before it) */
  undone(sessionId: string, record: UndoRecord, leafNow: string | null): void {
    this.change(sessionId, (history) => afterUndo(history, record, leafNow));
  }

  /** `record` (the one to redo) was done again from `leafBefore`, leaving the leaf at `leafNow` */
  redone(sessionId: string, record: UndoRecord, again: Partial<UndoRecord>, leafBefore: string | null, leafNow: string | null): void {
    this.change(sessionId, (history) => afterRedo(history, record, again, leafBefore, leafNow));
  }
}
