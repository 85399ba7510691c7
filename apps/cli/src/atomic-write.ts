/**
 * Atomic file replacement: write a temp file in the target's directory, flush it to disk, rename it
 * over the target. A reader sees the old file or the new one, never half of one; on failure the
 * temp file is removed and the target is untouched.
 */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";

const BLOCK_CHARS = 1 << 20;

/** Writes all of `text` (write(2) may take fewer bytes than given). */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

function writeChunks(fd: number, chunks: Iterable<string>): void {
  let block = "";
  for (const chunk of chunks) {
    block += chunk;
    if (block.length >= BLOCK_CHARS) {
      writeAll(fd, block);
      block = "";
    }
  }
  if (block.length > 0) writeAll(fd, block);
}

/** Replaces `target` with `text`, given whole or as chunks (gathered into ~1 MB blocks, never one whole-file string). */
export function writeFileAtomic(target: string, text: string | Iterable<string>): void {
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", 0o644);
    if (typeof text === "string") writeAll(fd, text);
    else writeChunks(fd, text);
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
