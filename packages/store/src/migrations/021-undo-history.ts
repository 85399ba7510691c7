import type { Migration } from "./types";

/**
 * `undo_history`: each session's history of the changes Bonsai made to it (core undo-history.ts:
 * what can be undone and redone, at most UNDO_HISTORY_LIMIT of each), as JSON, so that Undo
 * survives a restart. Removed with the session, and emptied when its entries are read again whole
 * (the file changed other than by appending: modules/entries.ts clearEntries).
 */
export const migration021UndoHistory: Migration = {
  version: 21,
  name: "undo-history",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS undo_history (
        session_id    TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        history_json  TEXT NOT NULL
      );
    `);
  },
};
