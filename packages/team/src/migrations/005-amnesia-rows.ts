import type { ArchiveMigration } from "./types";

/**
 * The amnesia report over many sessions (amnesia-overview.ts): `entries_amnesia_points`, a partial
 * index of the entries that make a session worth reading for it (a compaction, or a message whose
 * JSON holds a pruned output's `"prunedAt":`), so that the sessions with something to report are
 * found by one query without reading the others; and `amnesia_rows`, each such session's row of
 * the report (core's AmnesiaSessionRow as JSON text, "null" when it has nothing to report), kept
 * for the entry count it was made from. Derived data only, as opened_sessions (003): a row for
 * another entry count is never used, and deleting rows loses nothing. The index reads every entry
 * once when it is made.
 */
export const migration005AmnesiaRows: ArchiveMigration = {
  version: 5,
  name: "amnesia-rows",
  async up(client) {
    await client.query(`
      CREATE INDEX entries_amnesia_points ON entries (session_pk)
        WHERE type = 'compaction' OR (type = 'message' AND strpos(entry, '"prunedAt":') > 0);

      CREATE TABLE amnesia_rows (
        session_pk BIGINT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        entry_count INTEGER NOT NULL,
        row_json TEXT NOT NULL,
        made_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `);
  },
};
