/**
 * What a file was when Bonsai read it (device, inode, size, mtime and a hash of its last bytes), and
 * how it differs now: the check made immediately before a rewrite is renamed into place.
 */
import fs from "node:fs";
import { readRange, sha256 } from "./bytes";

/** bytes hashed at the end of what was read */
export const IDENTITY_TAIL = 16 * 1024;

export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** sha256 of the last IDENTITY_TAIL bytes before `size` */
  tailHash: string;
}

export function identityOf(stat: fs.Stats, bytes: Buffer): FileIdentity {
  return {
    dev: stat.dev,
    ino: stat.ino,
    size: bytes.length,
    mtimeMs: stat.mtimeMs,
    tailHash: sha256(bytes.subarray(Math.max(0, bytes.length - IDENTITY_TAIL))),
  };
}

export type Drift =
  /** exactly what was read */
  | { kind: "same"; stat: fs.Stats }
  /** the same file, grown: bytes were appended after `size` (what was read is unchanged) */
  | { kind: "grew"; stat: fs.Stats }
  /** another file is at the path now (rename over it, delete and create) */
  | { kind: "replaced" }
  | { kind: "missing" }
  | { kind: "shrank"; stat: fs.Stats }
  /** same size or longer, but what was read has changed (an edit in place) */
  | { kind: "modified"; stat: fs.Stats };

/**
 * Compares the file at `file` (looked up by path, as a writer opening it would find it) with what
 * was read through `fd` (the inode read, still open).
 */
export function driftSince(file: string, fd: number, was: FileIdentity): Drift {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return { kind: "missing" };
  }
  if (stat.dev !== was.dev || stat.ino !== was.ino) return { kind: "replaced" };
  if (stat.size < was.size) return { kind: "shrank", stat };
  if (stat.size === was.size && stat.mtimeMs !== was.mtimeMs) return { kind: "modified", stat };
  const tail = readRange(fd, Math.max(0, was.size - IDENTITY_TAIL), was.size);
  if (sha256(tail) !== was.tailHash) return { kind: "modified", stat };
  return stat.size === was.size ? { kind: "same", stat } : { kind: "grew", stat };
}

/** One sentence for a drift that forbids the rewrite. */
export function describeDrift(d: Drift): string {
  switch (d.kind) {
    case "replaced":
      return "another file was put in its place while Bonsai was working";
    case "missing":
      return "it was deleted or moved while Bonsai was working";
    case "shrank":
      return "it became shorter while Bonsai was working (truncated or rewritten)";
    case "modified":
      return "it was changed in place while Bonsai was working";
    default:
      return "it kept changing while Bonsai was working";
  }
}
