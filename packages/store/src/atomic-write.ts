/**
 * Atomic replacement of an export file (never a session source: those go through source/): write a
 * temp file in the same folder, fsync it, rename it over the target, fsync the folder. A crash
 * leaves either the old file or the new one, never half of one; a disk that refuses the write (full,
 * input/output error) leaves no temp file and gives its one sentence (write-failure.ts).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fsyncDir, writeSyncedTemp } from "./source/temp-files";
import { asWriteFailure } from "./source/write-failure";

export function atomicWriteFileSync(file: string, data: string | Buffer): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${crypto.randomBytes(6).toString("hex")}.tmp`);
  try {
    writeSyncedTemp(tmp, data);
    try {
      // keep the permissions of the file being replaced
      fs.chmodSync(tmp, fs.statSync(file).mode & 0o7777);
    } catch {
      // new file: default mode
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw asWriteFailure(err);
  }
  fsyncDir(dir);
}
