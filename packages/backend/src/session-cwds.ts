/**
 * The working folders of the session files in the agents' session folders (before any import: what
 * the first-run screen looks at for repositories with Entire checkpoints): the `cwd` of each file's
 * first lines (a pi header, Claude Code's lines, Codex's session_meta payload), with how many files
 * name it. Bounded: the first MAX_FILES files, the first HEAD_BYTES of each.
 */
import * as fs from "node:fs";
import { scanPaths } from "@bonsai/store";

const MAX_FILES = 5000;
const HEAD_BYTES = 16 * 1024;
const HEAD_LINES = 8;

/** The `cwd` named in a file's first lines, or null. */
export function cwdOfHead(head: string): string | null {
  for (const line of head.split("\n").slice(0, HEAD_LINES)) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    const v = value as { cwd?: unknown; payload?: { cwd?: unknown } };
    const cwd = typeof v.cwd === "string" ? v.cwd : typeof v.payload?.cwd === "string" ? v.payload.cwd : null;
    if (cwd && cwd.startsWith("/")) return cwd;
    if (cwd && /^[A-Za-z]:[\\/]/.test(cwd)) return cwd;
  }
  return null;
}

function headOf(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/** cwd -> how many session files in `folders` name it. */
export function sessionFileCwds(folders: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of scanPaths(folders).files.slice(0, MAX_FILES)) {
    let cwd: string | null;
    try {
      cwd = cwdOfHead(headOf(f.path));
    } catch {
      continue;
    }
    if (cwd) out.set(cwd, (out.get(cwd) ?? 0) + 1);
  }
  return out;
}
