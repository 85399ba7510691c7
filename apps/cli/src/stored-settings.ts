/**
 * The settings Bonsai runs with, for commands that compute with them without running the engine
 * (whatif): those saved in the Bonsai database (--data-dir, BONSAI_DB or the desktop app's) over the defaults,
 * or the defaults when there is no database. Invalid saved fields fall back to their defaults, as
 * in the engine, with a warning.
 */
import * as fs from "node:fs";
import { DEFAULT_SETTINGS, loadSettings, type BonsaiSettings } from "@bonsai/core";
import type { ParsedArgs } from "./args";
import { sqliteBinding } from "./native-binding";
import { cliDbPath } from "./store-db";
import { warn, type Io } from "./output";

export async function storedSettings(args: Pick<ParsedArgs, "options">, io: Io): Promise<BonsaiSettings> {
  const dbPath = cliDbPath(args);
  if (!fs.existsSync(dbPath)) return DEFAULT_SETTINGS;
  const { openStore } = await import("@bonsai/store");
  // the addon's path, as every store the CLI opens: its own lookup cannot work from the bundle
  const store = openStore({ path: dbPath, nativeBinding: sqliteBinding(), backgroundIndexing: false });
  let saved: unknown;
  try {
    saved = store.getSettingsJson();
  } finally {
    store.close();
  }
  const { settings, errors } = loadSettings(saved);
  for (const e of errors) warn(io, `saved setting ignored: ${e.message}`);
  return settings;
}
