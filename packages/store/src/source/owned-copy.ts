/**
 * Transcript copies Bonsai owns (a git blob read from a checkpoint branch, written under the data
 * folder as the source of its session): brought to the new content with the smallest change the
 * store can follow. When the new content starts with the copy's bytes, only the rest is appended
 * (the store then reads just the appended bytes); otherwise a synced temp file is renamed over it
 * (the store reads it again whole). A crash leaves the old copy or the new one; a full disk leaves
 * the old one and throws WriteFailedError.
 */
import fs from "node:fs";
import path from "node:path";
import { fsyncDir, removeTemp, tempPathFor, writeSyncedTemp } from "./temp-files";
import { asWriteFailure } from "./write-failure";

export type CopyChange = "created" | "appended" | "replaced" | "unchanged";

export function writeOwnedCopy(file: string, bytes: Buffer): CopyChange {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let old: Buffer | null = null;
  try {
    old = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  if (old && old.length <= bytes.length && bytes.subarray(0, old.length).equals(old)) {
    if (old.length === bytes.length) return "unchanged";
    appendSynced(file, old.length, bytes.subarray(old.length));
    return "appended";
  }
  const tmp = tempPathFor(file, "new");
  try {
    writeSyncedTemp(tmp, bytes);
    fs.renameSync(tmp, file);
  } catch (err) {
    removeTemp(tmp);
    throw asWriteFailure(err);
  }
  fsyncDir(path.dirname(file));
  return old ? "replaced" : "created";
}

/** Appends `tail` at `at` (the copy's length); a refused write is cut back so the copy stays whole. */
function appendSynced(file: string, at: number, tail: Buffer): void {
  const fd = fs.openSync(file, "r+");
  try {
    try {
      fs.writeSync(fd, tail, 0, tail.length, at);
      fs.fsyncSync(fd);
    } catch (err) {
      fs.ftruncateSync(fd, at);
      throw asWriteFailure(err);
    }
  } finally {
    fs.closeSync(fd);
  }
}
