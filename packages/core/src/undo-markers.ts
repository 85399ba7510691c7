/**
 * The entries Bonsai appends when it undoes or redoes one of its changes to a session: `custom`
 * entries (which add nothing to any context) of type "bonsai-undo" / "bonsai-redo", naming the
 * kind of change and the entry it appended. They make an undone compaction not count: it stays in
 * the file as an abandoned branch, and these markers say which compactions are undone now.
 */
import type { SessionEntry } from "./entries";

export const UNDO_MARKER_TYPE = "bonsai-undo";
export const REDO_MARKER_TYPE = "bonsai-redo";

/** the changes Bonsai undoes and redoes */
export type UndoableKind = "compaction" | "branch" | "label" | "prune";

export interface UndoMarkerData {
  undid: UndoableKind;
  entryId: string | null;
}
export interface RedoMarkerData {
  redid: UndoableKind;
  entryId: string | null;
}

/** the entry body appended when a change is undone (the leaf's place in the file) */
export function undoMarker(kind: UndoableKind, entryId: string | null): { type: "custom"; customType: string; data: UndoMarkerData } {
  return { type: "custom", customType: UNDO_MARKER_TYPE, data: { undid: kind, entryId } };
}

/** the entry body appended when an undone change is done again */
export function redoMarker(kind: UndoableKind, entryId: string | null): { type: "custom"; customType: string; data: RedoMarkerData } {
  return { type: "custom", customType: REDO_MARKER_TYPE, data: { redid: kind, entryId } };
}

/** the compaction a marker entry undid (-1) or redid (+1), or null when the entry is no such marker */
function compactionMarker(entry: SessionEntry): { compactionId: string; step: -1 | 1 } | null {
  if (entry.type !== "custom") return null;
  const e = entry as { customType?: unknown; data?: unknown };
  if (e.customType !== UNDO_MARKER_TYPE && e.customType !== REDO_MARKER_TYPE) return null;
  const data = e.data as { undid?: unknown; redid?: unknown; entryId?: unknown } | null | undefined;
  if (!data || typeof data.entryId !== "string") return null;
  if (e.customType === UNDO_MARKER_TYPE && data.undid === "compaction") return { compactionId: data.entryId, step: -1 };
  if (e.customType === REDO_MARKER_TYPE && data.redid === "compaction") return { compactionId: data.entryId, step: 1 };
  return null;
}

/** how an entry changes a session's count of compactions: +1 a compaction, -1 its undo, +1 its redo */
export function compactionCountStep(entry: SessionEntry): number {
  if (entry.type === "compaction") return 1;
  return compactionMarker(entry)?.step ?? 0;
}

/** the compactions of `entries` that are undone now (their last marker, in file order, is an undo) */
export function undoneCompactionIds(entries: readonly SessionEntry[]): Set<string> {
  const compactions = new Set<string>();
  const undone = new Set<string>();
  for (const entry of entries) {
    if (entry.type === "compaction") compactions.add(entry.id);
    const marker = compactionMarker(entry);
    if (!marker || !compactions.has(marker.compactionId)) continue;
    if (marker.step === -1) undone.add(marker.compactionId);
    else undone.delete(marker.compactionId);
  }
  return undone;
}
