import type Database from "better-sqlite3";
import { ENTRIES_FTS_SQL, ENTRIES_TABLE_SQL, ENTRY_JSON_TABLE_SQL } from "./schema-1-tables";
import type { Migration } from "./types";

function columns(db: Database.Database, table: string): Set<string> {
  return new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
}

/**
 * Brings databases written by development builds of schema 1 to its final layout: the entry JSON
 * moved from `entries.json` to its own table `entry_json`, the FTS table became contentless and is
 * filled after imports (`entries.indexed`), and entries gained the path shortcuts `anchor_seq` /
 * `settings_seq` (sessions: `irregular`). Databases created with the final schema 1 need nothing.
 * Converted sessions are marked irregular (their contexts are built from the whole path, which is
 * always correct) and their entries are indexed for search again.
 */
export const migration002SplitEntryJson: Migration = {
  version: 2,
  name: "split-entry-json",
  up(db) {
    const entryColumns = columns(db, "entries");
    if (!columns(db, "sessions").has("irregular")) {
      db.exec("ALTER TABLE sessions ADD COLUMN irregular INTEGER NOT NULL DEFAULT 0");
    }
    if (entryColumns.has("json")) {
      db.exec(`
        DROP TABLE IF EXISTS entries_fts;
        DROP INDEX IF EXISTS entries_by_id;
        DROP INDEX IF EXISTS entries_unindexed;
        DROP INDEX IF EXISTS entries_path;
        ALTER TABLE entries RENAME TO entries_old;
        ${ENTRIES_TABLE_SQL}
        ${ENTRY_JSON_TABLE_SQL}
        INSERT INTO entries (pk, session_id, seq, line, id, parent_id, parent_seq, type, timestamp, role, tokens, preview,
                             tool_name, custom_type, stop_reason, ref_id, tokens_before, flags)
          SELECT pk, session_id, seq, line, id, parent_id, parent_seq, type, timestamp, role, tokens, preview,
                 tool_name, custom_type, stop_reason, ref_id, tokens_before, flags FROM entries_old;
        INSERT INTO entry_json (pk, json) SELECT pk, json FROM entries_old;
        DROP TABLE entries_old;
        ${ENTRIES_FTS_SQL}
        UPDATE sessions SET irregular = 1;
      `);
    } else {
      if (!entryColumns.has("indexed")) db.exec("ALTER TABLE entries ADD COLUMN indexed INTEGER NOT NULL DEFAULT 0");
      if (!entryColumns.has("anchor_seq")) {
        db.exec(`
          ALTER TABLE entries ADD COLUMN anchor_seq INTEGER;
          ALTER TABLE entries ADD COLUMN settings_seq INTEGER;
          UPDATE sessions SET irregular = 1;
        `);
      }
    }
    db.exec(`
      CREATE INDEX IF NOT EXISTS entries_by_id ON entries(session_id, id);
      CREATE INDEX IF NOT EXISTS entries_path ON entries(session_id, seq, parent_seq, type, role);
      CREATE INDEX IF NOT EXISTS entries_unindexed ON entries(pk) WHERE indexed = 0;
    `);
  },
};
