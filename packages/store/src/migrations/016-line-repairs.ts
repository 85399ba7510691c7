import type { Migration } from "./types";

/**
 * Duplicate rows a past version left: a commit and the live follower (on two connections) could
 * both store the same appended lines of a file (two rows for one line of the source). This step
 * lists the sessions that hold such rows in `line_repairs`; the store reads each of them whole
 * from its file at its next open (SqliteSessionStore.repairDuplicateLines) and removes it from the
 * list. The index on (session, line) keeps that look cheap.
 */
export const migration016LineRepairs: Migration = {
  version: 16,
  name: "line-repairs",
  up(db) {
    db.exec(`
      CREATE INDEX IF NOT EXISTS entries_by_line ON entries(session_id, line) WHERE line IS NOT NULL;
      CREATE TABLE IF NOT EXISTS line_repairs (
        session_id  TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO line_repairs (session_id)
        SELECT DISTINCT session_id FROM entries WHERE line IS NOT NULL GROUP BY session_id, line HAVING count(*) > 1;
    `);
  },
};
