/**
 * The Bonsai database for the store commands (import, ls, search, whatif --all): <--data-dir>/bonsai.db
 * when the command has the option, else BONSAI_DB when set, else the desktop app's.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BonsaiError } from "@bonsai/core/errors";
import { DB_FILE_NAME, defaultDbPath, openStore, type SqliteSessionStore } from "@bonsai/store";
import type { ParsedArgs } from "./args";
import { UserError } from "./errors";
import { sqliteBinding } from "./native-binding";

/** <--data-dir>/bonsai.db, else the desktop app's database (BONSAI_DB overrides it). */
export function cliDbPath(args: Pick<ParsedArgs, "options">): string {
  const dataDir = args.options["data-dir"] as string | undefined;
  return dataDir !== undefined ? path.join(path.resolve(dataDir), DB_FILE_NAME) : defaultDbPath();
}

/** Opens (creating when asked) the database; errors become one-line user errors. */
export function openCliStore(args: Pick<ParsedArgs, "options">, options: { create: boolean }): SqliteSessionStore {
  const file = cliDbPath(args);
  if (!options.create && !fs.existsSync(file)) {
    throw new UserError(`no Bonsai database at ${file} yet (run "bonsai import" first, or pass --data-dir)`);
  }
  try {
    // a command does not index for search as it goes: the next search does, or the app
    return openStore({ path: file, nativeBinding: sqliteBinding(), backgroundIndexing: false });
  } catch (err) {
    throw new UserError(err instanceof Error ? err.message : String(err));
  }
}

/** Runs `fn` with the store open, closing it afterwards; store lookup errors become user errors. */
export async function withCliStore<T>(args: Pick<ParsedArgs, "options">, options: { create: boolean }, fn: (store: SqliteSessionStore) => Promise<T> | T): Promise<T> {
  const store = openCliStore(args, options);
  try {
    return await fn(store);
  } catch (err) {
    if (err instanceof BonsaiError) throw new UserError(err.message);
    throw err;
  } finally {
    store.close();
  }
}
