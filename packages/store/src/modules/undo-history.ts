/**
 * Each session's undo history (migration 021): read typed (core undoHistoryOf: a row that is not
 * one reads as no history), and saved whole; an empty history removes the row.
 */
import { EMPTY_UNDO_HISTORY, undoHistoryOf, type UndoHistory } from "@bonsai/core";
import { sql, type StoreContext } from "./context";

export function readUndoHistory(ctx: StoreContext, sessionId: string): UndoHistory {
  const row = sql(ctx, "SELECT history_json FROM undo_history WHERE session_id = ?").get(sessionId) as { history_json: string } | undefined;
  if (!row) return EMPTY_UNDO_HISTORY;
  try {
    return undoHistoryOf(JSON.parse(row.history_json));
  } catch {
    return EMPTY_UNDO_HISTORY;
  }
}

export function saveUndoHistory(ctx: StoreContext, sessionId: string, history: UndoHistory): void {
  ctx.sessions.require(sessionId);
  if (history.done.length === 0 && history.undone.length === 0) clearUndoHistory(ctx, sessionId);
  else sql(ctx, "INSERT INTO undo_history (session_id, history_json) VALUES (?, ?) ON CONFLICT (session_id) DO UPDATE SET history_json = excluded.history_json").run(sessionId, JSON.stringify(undoHistoryOf(history)));
}

/** forgets the session's history (its entries are read again whole, or it is removed) */
export function clearUndoHistory(ctx: StoreContext, sessionId: string): void {
  sql(ctx, "DELETE FROM undo_history WHERE session_id = ?").run(sessionId);
}
