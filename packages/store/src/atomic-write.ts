/**
 * Atomic file replacement: write a temp file in the same folder, fsync it, rename it over the
 * target, fsync the folder. A crash leaves either the old file or the new one, never half of one
 * (at worst a stray `.<name>.<random>.tmp`, which readers ignore).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function atomicWriteFileSync(file: string, data: string | Buffer): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${crypto.randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, "wx", 0o644);
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    try {
      // keep the permissions of the file being replaced
      fs.chmodSync(tmp, fs.statSync(file).mode & 0o7777);
    } catch {
      // new file: default mode
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dir);
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // not supported everywhere (Windows): the rename itself is still atomic
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Appends bytes with one write (O_APPEND) and fsyncs them. */
export function appendSync(file: string, data: string): void {
  const fd = fs.openSync(file, "a");
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
