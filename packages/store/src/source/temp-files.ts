/**
 * Names and removal of Bonsai's temporary files next to a session file. Every name is chosen (and
 * recorded in the journal) before the file is created; agents and folder scans read only *.jsonl,
 * and these are hidden dot-files ending in .tmp.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function tempPathFor(file: string, purpose: "rewrite" | "original" | "new"): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.bonsai-${purpose}-${crypto.randomBytes(6).toString("hex")}.tmp`);
}

/** Removes a temporary file if it is there; true when one was removed. */
export function removeTemp(tmp: string): boolean {
  try {
    fs.unlinkSync(tmp);
    return true;
  } catch {
    return false;
  }
}

/**
 * Temporary files older Bonsai versions left next to `file` (`.<name>.<12 hex>.tmp`, written before
 * the journal existed): removed before the next rewrite of that file.
 */
export function removeLegacyTemps(file: string): number {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(`.${base}.`) || !/\.[0-9a-f]{12}\.tmp$/.test(name)) continue;
    if (name.length !== base.length + 1 + 1 + 12 + 4) continue;
    if (removeTemp(path.join(dir, name))) removed++;
  }
  return removed;
}

/** fsync of a folder, so that a rename or link in it survives a power loss (not supported everywhere). */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Windows cannot open a folder: the rename itself is still atomic
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Writes `data` to a new file `tmp` (never an existing one) and fsyncs it. */
export function writeSyncedTemp(tmp: string, data: string | Buffer): void {
  const fd = fs.openSync(tmp, "wx", 0o644);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
