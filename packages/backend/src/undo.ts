/**
 * Undo and redo of the changes made in Bonsai (undo-log.ts keeps their history). Entries are
 * append-only, so neither removes one; every write goes through the store (its source/ modules).
 * - A label: a label entry with the old label (undo) or the new one again (redo) is appended at the
 *   leaf, so the tree keeps its branches: labels add nothing to any context.
 * - A compaction or branch switch: the leaf moves back (undo) or forward again (redo), and —
 *   because an agent resuming the file takes its last line as the leaf (session-format.md §6.3) — a
 *   `custom` entry "bonsai-undo" / "bonsai-redo" (core undo-markers.ts), which adds nothing to any
 *   context, is appended there so the file ends where Bonsai's leaf is. An undone compaction stays
 *   in the tree as an abandoned branch and is not counted or reported (its marker says it is undone).
 *   A Claude Code or Codex session is never written: there the leaf alone moves.
 * - A prune: every tool result it pruned is restored (undo) in one guarded rewrite, or pruned
 *   again (redo).
 * None of these changes the session's title (a title is the agent's or the user's, never a summary's).
 */
import { redoMarker, undoMarker } from "@bonsai/core";
import { IpcError, type Handlers } from "@bonsai/ipc";
import type { SessionStore, StoreJobs } from "@bonsai/store";
import { describeRedo, describeUndo, redoneMessage, undoneMessage } from "./undo-words";
import type { UndoLog, UndoRecord } from "./undo-log";

export { UndoLog, type UndoRecord } from "./undo-log";

export interface UndoDeps {
  store: SessionStore;
  jobs: StoreJobs;
  undos: UndoLog;
  /** prunes the tool outputs at the leaf as the Prune panel does (a redone prune) */
  prune(sessionId: string): Promise<{ entryIds: readonly string[] }>;
}

/**
 * Moves the leaf from `from` to `to` with a marker entry there (the file's last line is the leaf
 * again); the leaf alone for a session Bonsai never writes. Refused with nothing written
 * (StaleCommitError) when the file, read up to date first, moved on from `from`: an agent that
 * appended meanwhile keeps its turn as the place it resumes from.
 */
function moveLeafMarked(store: SessionStore, sessionId: string, from: string | null, to: string | null, body: { type: "custom"; customType: string; data: unknown }): string | null {
  const session = store.getSession(sessionId);
  if (!session || session.readOnly !== null) {
    store.setLeaf(sessionId, to);
    return null;
  }
  return store.appendEntry(sessionId, body, { parentId: to, expect: { leafId: from, exists: to === null ? [] : [to] } }).id;
}

async function undoOne(deps: UndoDeps, sessionId: string, r: UndoRecord): Promise<{ appended: string | null; restored: number }> {
  const { store } = deps;
  switch (r.kind) {
    case "label":
      // at the leaf, which is the undone label entry: a label entry moved back to r.before would fork the tree
      return { appended: store.appendLabel(sessionId, (r.label as NonNullable<UndoRecord["label"]>).targetId, r.label?.previous).id, restored: 0 };
    case "prune": {
      const ids = [...(r.prunedEntryIds ?? [])];
      const before = new Set(store.listPruned(sessionId).map((p) => p.entryId));
      await deps.jobs.call("restorePruned", sessionId, ids);
      const after = new Set(store.listPruned(sessionId).map((p) => p.entryId));
      return { appended: null, restored: ids.filter((id) => before.has(id) && !after.has(id)).length };
    }
    case "compaction":
    case "branch":
      return { appended: moveLeafMarked(store, sessionId, r.after, r.before, undoMarker(r.kind, r.entryId)), restored: 0 };
  }
}

async function redoOne(deps: UndoDeps, sessionId: string, r: UndoRecord): Promise<{ appended: string | null; again: Partial<UndoRecord> }> {
  const { store } = deps;
  switch (r.kind) {
    case "label":
      return { appended: store.appendLabel(sessionId, (r.label as NonNullable<UndoRecord["label"]>).targetId, r.label?.next).id, again: {} };
    case "prune": {
      const out = await deps.prune(sessionId);
      if (out.entryIds.length === 0) throw new IpcError("conflict", "Nothing was pruned again: no tool output at the leaf is old and large enough to prune now");
      return { appended: null, again: { prunedEntryIds: [...out.entryIds] } };
    }
    case "compaction":
    case "branch":
      return { appended: moveLeafMarked(store, sessionId, store.getLeaf(sessionId), r.after, redoMarker(r.kind, r.entryId)), again: {} };
  }
}

export function undoHandlers(deps: UndoDeps): Pick<Handlers, "getUndo" | "undo" | "redo"> {
  const { store, undos } = deps;
  const requireSession = (sessionId: string) => {
    if (!store.getSession(sessionId)) throw new IpcError("not_found", `no session ${sessionId}`);
  };
  return {
    getUndo: ({ sessionId }) => {
      requireSession(sessionId);
      const leaf = store.getLeaf(sessionId);
      const undo = undos.current(sessionId, leaf);
      const redo = undos.redoable(sessionId, leaf);
      return { undo: undo ? describeUndo(undo) : null, redo: redo ? describeRedo(redo) : null };
    },
    undo: async ({ sessionId }) => {
      requireSession(sessionId);
      const r = undos.current(sessionId, store.getLeaf(sessionId));
      if (!r) throw new IpcError("conflict", "Nothing to undo: the session changed since Bonsai's last compaction, branch switch, label or prune");
      const { appended, restored } = await undoOne(deps, sessionId, r);
      const leafId = store.getLeaf(sessionId);
      undos.undone(sessionId, r, leafId);
      return { leafId, appendedEntryId: appended, message: undoneMessage(r, appended !== null, restored) };
    },
    redo: async ({ sessionId }) => {
      requireSession(sessionId);
      const leafBefore = store.getLeaf(sessionId);
      const r = undos.redoable(sessionId, leafBefore);
      if (!r) throw new IpcError("conflict", "Nothing to redo: the session changed since Bonsai's last undo");
      const { appended, again } = await redoOne(deps, sessionId, r);
      const leafId = store.getLeaf(sessionId);
      undos.redone(sessionId, r, again, leafBefore, leafId);
      return { leafId, appendedEntryId: appended, message: redoneMessage({ ...r, ...again }, appended !== null) };
    },
  };
}
