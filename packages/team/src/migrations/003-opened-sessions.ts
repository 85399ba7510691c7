import type { ArchiveMigration } from "./types";

/**
 * The page's answer to opening a session (its summary and packed tree skeleton, as JSON text), kept
 * for the entry count it was made from, so that a server process that has no copy of a big session
 * yet answers the open from here at once and makes its copy behind it. Derived data only: any
 * process makes it again from the entries, an answer for another entry count is never used, and
 * deleting a row (or the whole table's content) loses nothing.
 */
export const migration003OpenedSessions: ArchiveMigration = {
  version: 3,
  name: "opened-sessions",
  async up(client) {
    await client.query(`
      CREATE TABLE opened_sessions (
        session_pk BIGINT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        entry_count INTEGER NOT NULL,
        answer TEXT NOT NULL,
        made_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `);
  },
};
