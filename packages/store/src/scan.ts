/** Finding session files: a file as given, a folder scanned recursively for *.jsonl. */
import fs from "node:fs";
import path from "node:path";
import { systemErrorCode } from "./import-failure";

export interface FoundFile {
  path: string;
  size: number;
}

export interface ScanResult {
  files: FoundFile[];
  /** paths given that do not exist or cannot be read */
  /** paths that could not be read, with the system's error code (null: none given) */
  missing: { path: string; message: string; code: string | null }[];
}

/** Expands files and folders into session files (absolute, sorted, unique). Symlinked folders are not followed twice. */
export function scanPaths(paths: readonly string[]): ScanResult {
  const files = new Map<string, FoundFile>();
  const missing: ScanResult["missing"] = [];
  const visitedDirs = new Set<string>();
  const walk = (dir: string): void => {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      return;
    }
    if (visitedDirs.has(real)) return;
    visitedDirs.add(real);
    let items: fs.Dirent[];
    try {
      items = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      missing.push({ path: dir, message: err instanceof Error ? err.message : String(err), code: systemErrorCode(err) });
      return;
    }
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const item of items) {
      const full = path.join(dir, item.name);
      if (item.isDirectory() || (item.isSymbolicLink() && isDir(full))) walk(full);
      else if (item.name.endsWith(".jsonl") && !item.name.startsWith(".")) add(full);
    }
  };
  const add = (file: string): void => {
    try {
      const st = fs.statSync(file);
      if (st.isFile()) files.set(file, { path: file, size: st.size });
    } catch (err) {
      missing.push({ path: file, message: err instanceof Error ? err.message : String(err), code: systemErrorCode(err) });
    }
  };
  for (const p of paths) {
    const abs = path.resolve(p);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch (err) {
      missing.push({ path: abs, message: systemErrorCode(err) === "ENOENT" ? "no such file or folder" : String(err), code: systemErrorCode(err) });
      continue;
    }
    if (st.isDirectory()) walk(abs);
    else add(abs);
  }
  return { files: [...files.values()], missing };
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
