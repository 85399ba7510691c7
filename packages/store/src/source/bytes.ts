/**
 * Small byte-level helpers for reading session files through a file descriptor: ranges, whole
 * files, hashes, line boundaries, and a short synchronous wait (the store's write API is
 * synchronous; waits are a few milliseconds while a writer finishes a line).
 */
import crypto from "node:crypto";
import fs from "node:fs";

export const NEWLINE = 0x0a;

export function sha256(data: Buffer | string): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

/** Bytes [start, end) of the open file (shorter when the file ends first). */
export function readRange(fd: number, start: number, end: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, end - start));
  let done = 0;
  while (done < buf.length) {
    const n = fs.readSync(fd, buf, done, buf.length - done, start + done);
    if (n === 0) break;
    done += n;
  }
  return done === buf.length ? buf : buf.subarray(0, done);
}

/** Blocks the thread for `ms` milliseconds. */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
}

/**
 * True when `bytes` ends where a line ends: empty, a final "\n", or a last line that is complete
 * JSON (a file whose writer never adds the final newline). A cut-off line is not complete JSON:
 * a JSON object only closes at its last byte.
 */
export function endsAtLineBoundary(bytes: Buffer): boolean {
  if (bytes.length === 0 || bytes[bytes.length - 1] === NEWLINE) return true;
  const start = bytes.lastIndexOf(NEWLINE) + 1;
  try {
    const value: unknown = JSON.parse(bytes.subarray(start).toString("utf8"));
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}

/** Number of "\n" in bytes [start, end). */
export function countNewlines(buf: Buffer, start = 0, end = buf.length): number {
  let n = 0;
  let i = buf.indexOf(NEWLINE, start);
  while (i !== -1 && i < end) {
    n++;
    i = buf.indexOf(NEWLINE, i + 1);
  }
  return n;
}
