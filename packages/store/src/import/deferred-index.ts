/**
 * Indexes built where it pays (a whole-file import): `entries_by_id_tier` takes each new row at a
 * random place (entry ids are random), which costs more row by row than building the index once
 * from the table, sorted, when the new session's rows are most of the table — the first import
 * into a new or small store, or a session bigger than everything stored. The other indexes of
 * `entries` take the rows in order (session, seq): kept row by row (building them costs a scan of
 * the table each). A whole-file import reads no entry by id before its writer finishes.
 *
 * Inside the import's transaction: a crash or an error leaves the index as it was (DDL is
 * transactional in SQLite); other connections see the rebuilt index with the commit.
 */
import type Database from "better-sqlite3";

/** the index rebuilt instead of kept row by row */
const DEFERRED_INDEX = "entries_by_id_tier";
/** a file smaller than this is imported with the index kept row by row (the rebuild would not pay for its schema change) */
export const DEFER_FROM_FILE_BYTES = 16 * 1024 * 1024;
/** a low guess of the bytes per entry of a session file (real ones: 1-5 KB): the guess of the entries to import errs low */
const BYTES_PER_ENTRY = 2048;

/**
 * Drops the id index when rebuilding it after the import costs less than keeping it row by row
 * (the stored rows, counted high by the largest row key, fewer than half the file's entries,
 * counted low). Returns the rebuild to run once the import's entries are written, or null.
 */
export function deferIdIndex(db: Database.Database, fileBytes: number): (() => void) | null {
  if (fileBytes < DEFER_FROM_FILE_BYTES) return null;
  const stored = (db.prepare("SELECT max(pk) FROM entries").pluck().get() as number | null) ?? 0;
  if (stored >= fileBytes / BYTES_PER_ENTRY / 2) return null;
  const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(DEFERRED_INDEX) as string | undefined;
  if (sql === undefined) return null;
  db.exec(`DROP INDEX ${DEFERRED_INDEX}`);
  return () => db.exec(sql);
}
