/**
 * `-o FILE` never replaces a session file: an agent may be appending to it, and a plain replace
 * would cut its later lines off. Bonsai writes into session files only through the store's guarded
 * write-through (packages/store/src/source/); exports and migrations go to new files.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { UserError } from "./errors";

const PROBE_BYTES = 64 * 1024;

/** True when `file` exists and its first JSON line is a session header. */
export function isSessionFile(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return false;
  }
  try {
    const buf = Buffer.alloc(PROBE_BYTES);
    const n = readSync(fd, buf, 0, PROBE_BYTES, 0);
    for (const line of buf.subarray(0, n).toString("utf8").replace(/^\uFEFF/, "").split("\n")) {
      if (line.trim() === "") continue;
      try {
        const v = JSON.parse(line) as { type?: unknown };
        return typeof v === "object" && v !== null && v.type === "session";
      } catch {
        return false;
      }
    }
    return false;
  } finally {
    closeSync(fd);
  }
}

/** Refuses an output path that names an existing session file. */
export function refuseSessionFileOutput(out: string): void {
  if (!isSessionFile(out)) return;
  throw new UserError(
    `${out} is an existing session file (an agent may be writing to it): Bonsai does not replace session files with -o; write to a new file, or move ${out} away first`,
  );
}
