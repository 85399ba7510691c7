import type { Migration } from "./types";

/**
 * The source-file journal and backups (src/source/):
 * - `source_intents`: a file operation Bonsai is about to do on an agent's session file, committed
 *   in the same transaction as the store change it belongs to and cleared after the file operation;
 *   an intent left behind by a process that died is completed or rolled back at the next open, and
 *   the temporary files it names are removed.
 * - `source_backups`: the `.bonsai-original` copy of each source file taken before its first
 *   rewrite, with the size and hash it must have; `rewritten` = the source has been rewritten since
 *   (the backup is then the only copy of the agent's original).
 */
export const migration004SourceJournal: Migration = {
  version: 4,
  name: "source-journal",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS source_intents (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        file TEXT NOT NULL,
        kind TEXT NOT NULL,
        temp_paths TEXT NOT NULL,
        detail TEXT NOT NULL,
        pid INTEGER NOT NULL,
        process_start TEXT,
        created_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS source_backups (
        source_path TEXT PRIMARY KEY,
        backup_path TEXT NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        rewritten INTEGER NOT NULL DEFAULT 0
      );
    `);
  },
};
