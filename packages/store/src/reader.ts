/**
 * "@bonsai/store/reader": the read half of the store (store-reader.ts) opened without the file-side
 * code when nothing needs it (the CLI's read commands), else the whole store loaded on demand.
 */
import { openCurrentDatabase } from "./database";
import { StoreReader, type StoredSessionReads } from "./store-reader";

export { defaultDbPath, DB_FILE_NAME } from "./paths";
export { SessionLookupError } from "./session-store";
export { StoreReader, type StoredSessionReads } from "./store-reader";
export type { SessionCommit } from "./entire/git-rows";

/**
 * The database opened to read it without migrating, recovering or being able to write, when nothing
 * needs that: the schema is this build's and no file operation of a dead process waits in the
 * journal. Null otherwise (open it with openStoreForReading, which loads the whole store for that).
 * What a caller that must stay small uses (the CLI's stored reads, which fall back to their usual
 * path on null).
 */
export function openCurrentReader(options: { path: string; nativeBinding?: string }): StoreReader | null {
  const db = openCurrentDatabase(options);
  if (db && db.prepare("SELECT 1 FROM source_intents LIMIT 1").get() === undefined) return new StoreReader(db);
  db?.close();
  return null;
}

/**
 * Opens the database to read it: openCurrentReader when nothing needs more; otherwise the whole
 * store is loaded and opened as openStore opens it (migrated, recovered), so the guarantees of
 * docs/RELIABILITY.md hold for every open.
 */
export async function openStoreForReading(options: { path: string; nativeBinding?: string }): Promise<StoredSessionReads> {
  const reader = openCurrentReader(options);
  if (reader) return reader;
  const { openStore } = await import("./sqlite-session-store");
  return openStore(options);
}
