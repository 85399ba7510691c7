/**
 * Where better-sqlite3's native addon is, for a host that loads it by path (a bundle, in which the
 * package's own lookup relative to its files cannot work): the addon compiled in the package
 * (build/Release, when one was built from source) or else the prebuilt one for this platform that
 * better-sqlite3 ships (prebuilds/<platform>-<arch>.node; Node-API, so one build serves every Node).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

/** The addon of the better-sqlite3 that `from` (a module's URL or path) resolves. */
export function installedAddonPath(from: string | URL): string {
  return addonInPackage(path.dirname(createRequire(from).resolve("better-sqlite3/package.json")));
}

/** The addon of the better-sqlite3 package in `dir` (its folder, as installed). */
export function addonInPackage(dir: string): string {
  const built = path.join(dir, "build", "Release", "better_sqlite3.node");
  if (existsSync(built)) return built;
  return path.join(dir, "prebuilds", `${platformName()}-${process.arch}.node`);
}

/** better-sqlite3's name for this platform: Linux on musl (Alpine) is linuxmusl */
function platformName(): string {
  if (process.platform !== "linux") return process.platform;
  try {
    return /\/ld-musl-[^/\s]*\.so/.test(readFileSync("/proc/self/maps", "latin1")) ? "linuxmusl" : "linux";
  } catch {
    return "linux";
  }
}
