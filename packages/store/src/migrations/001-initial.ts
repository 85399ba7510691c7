import { ENTRIES_FTS_SQL, ENTRIES_TABLE_SQL, ENTRY_JSON_TABLE_SQL } from "./schema-1-tables";
import type { Migration } from "./types";

/**
 * The first schema: sessions, entries (JSON as read + derived columns), labels (derived index of
 * label entries), pruned originals, import reports, settings, and the FTS5 index (contentless,
 * indexed in the background after an import so that opening a session never waits for it).
 */
export const migration001Initial: Migration = {
  version: 1,
  name: "initial",
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        id              TEXT PRIMARY KEY,          -- Bonsai's id: the header id, suffixed only when two files share it
        header_id       TEXT NOT NULL,             -- the session id written in the file's header
        title           TEXT,
        cwd             TEXT NOT NULL DEFAULT '',
        header_json     TEXT NOT NULL,             -- header as it is written on export (current format)
        source_path     TEXT UNIQUE,               -- absolute path of the JSONL source; NULL for store-only sessions
        source_format   TEXT NOT NULL,             -- 'pi-jsonl' or 'bonsai'
        source_version  INTEGER NOT NULL,          -- format version of the source as read (1, 2, 3)
        leaf_id         TEXT,                      -- current leaf; NULL = before the first entry
        created_at      TEXT NOT NULL,             -- header timestamp
        updated_at      TEXT NOT NULL,             -- last change seen (entry timestamp or write)
        imported_at     TEXT,
        entry_count     INTEGER NOT NULL DEFAULT 0,
        message_count   INTEGER NOT NULL DEFAULT 0,
        first_message   TEXT NOT NULL DEFAULT '',
        file_size       INTEGER,                   -- size of the source when last read
        file_offset     INTEGER,                   -- bytes consumed (end of the last complete line)
        file_lines      INTEGER,                   -- lines consumed
        file_mtime_ms   REAL,
        head_hash       TEXT,                      -- sha256 of the first line (the header) as read
        tail_hash       TEXT,                      -- sha256 of the last <= 64 KiB before file_offset
        generation      INTEGER NOT NULL DEFAULT 1, -- bumped when the source is re-imported whole
        irregular       INTEGER NOT NULL DEFAULT 0  -- 1 when duplicate ids or forward parent links make anchor_seq/settings_seq unreliable
      );
      CREATE INDEX sessions_header_id ON sessions(header_id);

      ${ENTRIES_TABLE_SQL}
      CREATE INDEX entries_by_id ON entries(session_id, id);
      -- covers the path walk (parent links in file order) without touching the table rows
      CREATE INDEX entries_path ON entries(session_id, seq, parent_seq, type, role);
      CREATE INDEX entries_unindexed ON entries(pk) WHERE indexed = 0;

      ${ENTRY_JSON_TABLE_SQL}
      CREATE TABLE labels (
        session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        target_id   TEXT NOT NULL,
        label       TEXT,                          -- NULL = cleared
        entry_seq   INTEGER NOT NULL,              -- the label entry that set it (last one wins)
        PRIMARY KEY (session_id, target_id)
      ) WITHOUT ROWID;

      CREATE TABLE pruned_outputs (
        session_id     TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        entry_id       TEXT NOT NULL,
        original_json  TEXT NOT NULL,              -- the entry before pruning
        pruned_json    TEXT NOT NULL,              -- the entry as pruning wrote it
        pruned_at      INTEGER NOT NULL,
        PRIMARY KEY (session_id, entry_id)
      ) WITHOUT ROWID;

      CREATE TABLE import_reports (
        id             INTEGER PRIMARY KEY,
        source_path    TEXT NOT NULL,
        session_id     TEXT,
        status         TEXT NOT NULL,              -- imported | appended | unchanged | reimported | not-a-session | failed
        started_at     TEXT NOT NULL,
        bytes_read     INTEGER NOT NULL DEFAULT 0,
        entries_added  INTEGER NOT NULL DEFAULT 0,
        issues_json    TEXT NOT NULL DEFAULT '[]', -- [{line, kind, message, text?}]
        message        TEXT
      );
      CREATE INDEX import_reports_by_path ON import_reports(source_path, id);

      CREATE TABLE settings (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL                       -- JSON
      ) WITHOUT ROWID;

      ${ENTRIES_FTS_SQL}
    `);
  },
};
