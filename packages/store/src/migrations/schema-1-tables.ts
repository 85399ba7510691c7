/**
 * Table definitions of schema 1's final layout, shared by 001 (new databases) and 002 (databases of
 * development builds). Frozen: a later change of the layout is a new migration, never an edit here.
 */

export const ENTRIES_TABLE_SQL = `
      CREATE TABLE entries (
        pk            INTEGER PRIMARY KEY,
        session_id    TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq           INTEGER NOT NULL,            -- file order, 0-based
        line          INTEGER,                     -- 1-based line in the source; NULL when not from a file
        id            TEXT NOT NULL,
        parent_id     TEXT,
        parent_seq    INTEGER,                     -- seq of the parent (last entry with that id); NULL = root/orphan
        type          TEXT NOT NULL,
        timestamp     TEXT NOT NULL DEFAULT '',
        role          TEXT,
        tokens        INTEGER NOT NULL DEFAULT 0,
        preview       TEXT NOT NULL DEFAULT '',
        tool_name     TEXT,
        custom_type   TEXT,
        stop_reason   TEXT,
        ref_id        TEXT,                        -- compaction: firstKeptEntryId; branch_summary: fromId
        tokens_before INTEGER,
        flags         INTEGER NOT NULL DEFAULT 0,  -- 1 pruned, 2 thinking, 4 fromExtension, 8 offline
        indexed       INTEGER NOT NULL DEFAULT 0,  -- 1 once the entry's text is in entries_fts
        anchor_seq    INTEGER,                     -- nearest compaction on the path to this entry (itself included)
        settings_seq  INTEGER,                     -- nearest thinking/model/mode change or ttsr injection on the path (itself included)
        UNIQUE (session_id, seq)
      );
`;

export const ENTRY_JSON_TABLE_SQL = `
      -- the entry JSON apart from the narrow rows above, so that skeleton and path queries never
      -- read it: the entry as read (its current form: the pruned text when pruned)
      CREATE TABLE entry_json (
        pk    INTEGER PRIMARY KEY REFERENCES entries(pk) ON DELETE CASCADE,
        json  TEXT NOT NULL
      );

`;

export const ENTRIES_FTS_SQL = `
      -- contentless: the text lives in entry_json only; rowid = entries.pk; filled after import
      CREATE VIRTUAL TABLE entries_fts USING fts5(
        body, tools, paths,
        content = '', contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2'
      );
`;
