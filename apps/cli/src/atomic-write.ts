/**
 * Atomic file replacement: write a temp file in the target's directory, flush it to disk, rename it
 * over the target. A reader sees the old file or the new one, never half of one; on failure the
 * temp file is removed and the target is untouched.
 */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";

export function writeFileAtomic(target: string, text: string): void {
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", 0o644);
    writeSync(fd, text, null, "utf8");
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // the temp file was never created or is already gone
    }
    throw err;
  }
}
