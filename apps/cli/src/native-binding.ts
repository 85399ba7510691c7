/**
 * The path of better-sqlite3's native addon, given to every store the CLI opens (nativeBinding).
 * The CLI bundle includes better-sqlite3's JavaScript (scripts/build.mjs); its own addon lookup
 * (the `bindings` package, which searches paths relative to the calling module) cannot work from a
 * bundle, so the addon is resolved once, here, from the package as installed.
 */
import { createRequire } from "node:module";

let cached: string | undefined;

export function sqliteBinding(): string {
  cached ??= createRequire(import.meta.url).resolve("better-sqlite3/build/Release/better_sqlite3.node");
  return cached;
}
