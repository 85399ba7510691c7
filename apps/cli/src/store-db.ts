/**
 * The Bonsai database for the store commands (import, ls, export, search) and for stored session
 * ids in the read commands: BONSAI_DB when set, else <data dir>/bonsai.db (the desktop app's).
 */
import * as fs from "node:fs";
import { defaultDbPath, openStore, SessionLookupError, StoreError, type SqliteSessionStore } from "@bonsai/store";
import { UserError } from "./errors";
import { sqliteBinding } from "./native-binding";

export function cliDbPath(): string {
  return defaultDbPath();
}

/** Opens (creating when asked) the database; errors become one-line user errors. */
export function openCliStore(options: { create: boolean }): SqliteSessionStore {
  const file = cliDbPath();
  if (!options.create && !fs.existsSync(file)) {
    throw new UserError(`no Bonsai database at ${file} yet (run "bonsai import" first, or set BONSAI_DB)`);
  }
  try {
    // a command does not index for search as it goes: the next search does, or the app
    return openStore({ path: file, nativeBinding: sqliteBinding(), backgroundIndexing: false });
  } catch (err) {
    throw new UserError(err instanceof Error ? err.message : String(err));
  }
}

/** Runs `fn` with the store open, closing it afterwards; store lookup errors become user errors. */
export async function withCliStore<T>(options: { create: boolean }, fn: (store: SqliteSessionStore) => Promise<T> | T): Promise<T> {
  const store = openCliStore(options);
  try {
    return await fn(store);
  } catch (err) {
    if (err instanceof SessionLookupError || err instanceof StoreError) throw new UserError(err.message);
    throw err;
  } finally {
    store.close();
  }
}
