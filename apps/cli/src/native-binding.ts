/**
 * The path of better-sqlite3's native addon, given to every store the CLI opens (nativeBinding).
 * The CLI bundle includes better-sqlite3's JavaScript (scripts/build.mjs); its own addon lookup
 * (relative to its files) cannot work from a bundle, so the addon is found once, here, in the
 * package as installed.
 */
import { installedAddonPath } from "@bonsai/store/native-addon";

let cached: string | undefined;

export function sqliteBinding(): string {
  cached ??= installedAddonPath(import.meta.url);
  return cached;
}
