/**
 * Appending one line to a session file that an agent may be writing, without ever tearing a line.
 *
 * - The store first reads what the agent appended (the caller's `absorb`), then builds the line
 *   (`line()`: the entry, with the expectations of the commit checked against the store).
 * - The line is written only where a line ends: if the file does not end with "\n" (a line is
 *   being written), Bonsai waits briefly and looks again. A last line that is complete JSON and
 *   stays as it is (a writer that never adds the final newline) gets the "\n" first; one that stays
 *   incomplete is refused. Never "\n" + entry into a half-written line.
 * - One write(2) with O_APPEND, to the inode that was read (same device and inode), then fsync.
 * - Afterwards the line is found in the file: if another writer began a line between the last
 *   look and the write (ours landed inside theirs), the file is repaired with a guarded rewrite
 *   that takes our line out of theirs and puts it after it, once their line is complete.
 * - A journal intent ("append this id") is committed before the write and cleared after the store
 *   has read the line back; recovery reads the file again (the line is there or it is not).
 * - A write the disk refuses (full, input/output error) is taken back: the file is cut to its
 *   length before the write when our bytes are still its last ones (append-take-back.ts).
 */
import fs from "node:fs";
import type Database from "better-sqlite3";
import { NEWLINE, readRange, sleepSync } from "./bytes";
import type { FaultHook } from "./faults";
import type { Journal } from "./journal";
import { moveToEnd } from "./line-edit";
import { SourceBusyError } from "../session-store";
import { LINE_WAIT_MS, mendSource, type RewriteDeps } from "./safe-rewrite";
import { writeOrTakeBack } from "./append-take-back";

export interface AppendJob {
  sessionId: string;
  file: string;
  /** the store reads what it has not read yet */
  absorb(): void;
  /** the line to append (without "\n"), built after the absorb; throws to refuse the commit */
  line(): { text: string; ids: string[] };
  /** the store reads the file again (our line and whatever follows it) */
  absorbAfter(): void;
}

export interface AppendDeps extends RewriteDeps {
  journal: Journal;
  db: Database.Database;
  fault?: FaultHook;
}

/** how many times the file may move under an append before it is refused */
const APPEND_ATTEMPTS = 50;
/**
 * how long an append may keep looking for a moment when the file holds still at a line boundary:
 * against a writer that never pauses (or a machine too loaded to take its lines in between two of
 * them) every attempt finds the file moved, and the append is refused instead of retrying for minutes
 */
export const APPEND_DEADLINE_MS = 5000;

type Ending = "newline" | "complete" | "partial";

function endingOf(fd: number, size: number): Ending {
  if (size === 0) return "newline";
  if (readRange(fd, size - 1, size)[0] === NEWLINE) return "newline";
  // the last line: from the last "\n" on (looked for in a growing window, up to 16 MiB)
  for (let window = 64 * 1024; ; window *= 4) {
    const tail = readRange(fd, Math.max(0, size - window), size);
    const start = tail.lastIndexOf(NEWLINE) + 1;
    if (start === 0 && size > tail.length) {
      if (window >= 16 * 1024 * 1024) return "partial"; // a last line that long without an end
      continue;
    }
    try {
      const v: unknown = JSON.parse(tail.subarray(start).toString("utf8"));
      return typeof v === "object" && v !== null ? "complete" : "partial";
    } catch {
      return "partial";
    }
  }
}

export function appendLine(job: AppendJob, deps: AppendDeps): void {
  const { file } = job;
  const deadline = Date.now() + APPEND_DEADLINE_MS;
  for (let attempt = 0; attempt < APPEND_ATTEMPTS && (attempt === 0 || Date.now() < deadline); attempt++) {
    const fd = fs.openSync(file, "r");
    try {
      let stat = fs.fstatSync(fd);
      job.absorb();
      const { text, ids } = job.line();
      // wait for a line boundary; a complete last line must stay as it is for the whole wait
      const waitEnd = Date.now() + LINE_WAIT_MS;
      let ending = endingOf(fd, stat.size);
      let moved = false;
      while (ending !== "newline") {
        if (Date.now() > waitEnd) break;
        sleepSync(3);
        const now = fs.fstatSync(fd);
        if (now.size !== stat.size) {
          moved = true;
          break;
        }
        ending = endingOf(fd, stat.size);
      }
      if (moved) continue; // the agent wrote meanwhile: read it, build the line again
      if (ending === "partial") {
        throw new SourceBusyError(file, "its last line is incomplete (being written, or cut off by a crash); Bonsai does not append after a broken line");
      }
      const data = Buffer.from(`${ending === "complete" ? "\n" : ""}${text}\n`, "utf8");
      const intentId = deps.journal.begin({ sessionId: job.sessionId, file, kind: "append", tempPaths: [], detail: { ids, sizeBefore: stat.size } });
      deps.fault?.("append:intent");
      const out = fs.openSync(file, "a");
      let landedAt = -1;
      try {
        const target = fs.fstatSync(out);
        if (target.ino !== stat.ino || target.dev !== stat.dev) {
          deps.journal.end(intentId);
          continue; // another file is at the path now: read it from the start
        }
        const latest = fs.fstatSync(fd);
        if (latest.size !== stat.size) {
          deps.journal.end(intentId);
          continue; // grew since the look: read it, build the line again
        }
        deps.fault?.("append:before-write");
        writeOrTakeBack(out, fd, data, intentId, deps.journal, deps.fault);
        deps.fault?.("append:written");
        stat = fs.fstatSync(out);
        const region = readRange(fd, Math.max(0, latest.size - 1), stat.size);
        const found = region.indexOf(data);
        if (found === -1) throw new Error(`the line written to ${file} cannot be found in it`);
        landedAt = Math.max(0, latest.size - 1) + found;
      } finally {
        fs.closeSync(out);
      }
      const before = landedAt === 0 ? NEWLINE : readRange(fd, landedAt - 1, landedAt)[0];
      if (before !== NEWLINE) repairTornAppend(job, deps, fd, landedAt, data.length);
      job.absorbAfter();
      deps.journal.end(intentId);
      return;
    } finally {
      fs.closeSync(fd);
    }
  }
  throw new SourceBusyError(file, `it never held still at the end of a line for Bonsai to append (looked for ${APPEND_DEADLINE_MS / 1000} s)`);
}

/**
 * Our line [start, start + length) landed after the start of another writer's line. Once that
 * line is complete, the file is rewritten (guarded like any rewrite, retried while it is busy) with
 * our line moved after it.
 */
function repairTornAppend(job: AppendJob, deps: AppendDeps, fd: number, start: number, length: number): void {
  const end = Date.now() + LINE_WAIT_MS * 2;
  // wait for the other writer to finish its line (the file ends with "\n" again)
  for (;;) {
    const size = fs.fstatSync(fd).size;
    if (readRange(fd, size - 1, size)[0] === NEWLINE && size > start + length) break;
    if (Date.now() > end) break;
    sleepSync(3);
  }
  mendSource(job.sessionId, job.file, "repair of an append that landed inside another writer's line", (bytes) => moveToEnd(bytes, start, start + length), deps);
}
