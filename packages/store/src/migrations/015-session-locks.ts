import type { Migration } from "./types";

/**
 * `session_locks`: which Bonsai process (pid, its start time, and a token of the store that took
 * it) is writing a session right now (source/session-lock.ts). A row is taken and released in
 * transactions of their own; a row whose process is gone is stale and taken over.
 */
export const migration015SessionLocks: Migration = {
  version: 15,
  name: "session-locks",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS session_locks (
        session_id TEXT PRIMARY KEY,
        pid INTEGER NOT NULL,
        process_start TEXT,
        token TEXT NOT NULL,
        taken_at TEXT NOT NULL
      );
    `);
  },
};
