/**
 * The path of better-sqlite3's native addon, given to every store the CLI opens (nativeBinding).
 * The CLI bundle includes better-sqlite3's JavaScript (scripts/build.mjs); its own addon lookup
 * (relative to its files) cannot work from a bundle, so the addon is found here, in the package as
 * installed: in the folder the build found it in (BONSAI_SQLITE_PACKAGE_DIR, set by scripts/build.mjs;
 * resolving the package on every start cost ~1.5 ms of a stored read), else by resolving it.
 */
import { existsSync } from "node:fs";
import { addonInPackage, installedAddonPath } from "@bonsai/store/native-addon";

/** better-sqlite3's folder when the bundle was built (absent when the sources run) */
declare const BONSAI_SQLITE_PACKAGE_DIR: string | undefined;

let cached: string | undefined;

export function sqliteBinding(): string {
  cached ??= builtFor() ?? installedAddonPath(import.meta.url);
  return cached;
}

/** the addon in the folder the build found better-sqlite3 in, while it is there */
function builtFor(): string | undefined {
  if (typeof BONSAI_SQLITE_PACKAGE_DIR !== "string") return undefined;
  const addon = addonInPackage(BONSAI_SQLITE_PACKAGE_DIR);
  return existsSync(addon) ? addon : undefined;
}
