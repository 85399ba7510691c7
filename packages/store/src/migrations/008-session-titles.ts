import type { Migration } from "./types";

/**
 * `session_titles`: the titles users give sessions in Bonsai. They live in Bonsai only — the agent's
 * file keeps its own title — and go with the session when it is removed from Bonsai.
 */
export const migration008SessionTitles: Migration = {
  version: 8,
  name: "session-titles",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS session_titles (
        session_id  TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        title       TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
