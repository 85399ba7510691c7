/**
 * Replacing a session file that an agent may be appending to, without losing a line.
 *
 * 1. Refuse when another process holds the file open for writing (Linux): after a rename its later
 *    writes would go to the old, unlinked file.
 * 2. Read the file whole through one descriptor, at a line boundary (wait briefly while a line is
 *    being written); the store absorbs what it had not read yet; the new content is rendered.
 * 3. One transaction: the store change + the journal intent (with every temporary file's name).
 * 4. Write the new content (and, before the first rewrite, the backup copy) to temporary files.
 * 5. Settle: look at the file by path. Same inode, same size, same mtime, same last bytes: ready.
 *    Grown: the appended complete lines are imported into the store and added to the temporary
 *    file; look again. Shrunk, replaced, changed in place, or still moving after SETTLE_MS: refuse
 *    with nothing changed (the temporary files are removed, the store change is undone).
 * 6. fsync; settle again; rename over the file; fsync the folder. A symlinked file is replaced at
 *    its target (realpath): the link stays a link; the temporary file is made next to the target.
 * 7. Bytes the old inode received after the last look (a writer that opened the file just before
 *    the rename) are carried over into the new file at the rename point, before what it received
 *    since (a guarded rewrite of the new file: `mendSource`).
 * 8. One transaction: the store records the new file state, the intent is cleared.
 * A process killed anywhere leaves an intent; the next open completes or rolls back (source-sync.ts).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import type { BackupPlan, Backups } from "./backup";
import { countNewlines, endsAtLineBoundary, NEWLINE, readRange, sha256, sleepSync } from "./bytes";
import type { FaultHook } from "./faults";
import { describeDrift, driftSince, IDENTITY_TAIL, identityOf, type FileIdentity } from "./file-identity";
import type { Journal } from "./journal";
import { SourceBusyError } from "../session-store";
import { TAIL_WINDOW } from "./reader";
import { openWritersOf } from "./open-writers";
import { fsyncDir, removeLegacyTemps, removeTemp, tempPathFor } from "./temp-files";

/** how long a rewrite waits for a moving file to hold still before refusing */
export const SETTLE_MS = 4000;
/** how long to wait for a line being written to end */
export const LINE_WAIT_MS = 1500;
/** bytes hashed for the store's file state (head and tail windows): the import's window */
export const STATE_WINDOW = TAIL_WINDOW;

/** The state of a file as Bonsai wrote it, for the store's incremental import. */
export interface WrittenState {
  size: number;
  mtimeMs: number;
  /** bytes consumed: the end of the last complete line */
  offset: number;
  lines: number;
  headHash: string;
  tailHash: string;
}

export interface RewriteJob {
  sessionId: string;
  file: string;
  /** why, for the journal */
  why: string;
  /** the store reads what it has not read yet of these bytes (the whole file as it is now) */
  absorb(bytes: Buffer, stat: fs.Stats): void;
  /** the new content, from the file's bytes (all absorbed) */
  render(bytes: Buffer): Buffer;
  /**
   * Complete lines appended meanwhile (at byte `offset`, after `linesBefore` lines): the store
   * imports them and records `fileAfter` (the old file up to the end of `delta`) as what it has
   * read; returns them as they go into the new file.
   */
  catchUp(delta: Buffer, offset: number, linesBefore: number, fileAfter: WrittenState): Buffer;
  /** the store change, in the transaction that records the intent */
  apply(): void;
  /** the store change undone (the file could not be replaced) */
  undo(): void;
  /** the new file is in place: the store records its state (in the transaction that clears the intent) */
  written(state: WrittenState): void;
  /** when true, a backup of the file is taken before its first rewrite (default true) */
  backup?: boolean;
}

export interface RewriteOutcome {
  /** rounds of lines taken in while settling */
  caughtUp: number;
  /** bytes the old inode received after the rename, carried over to the new file */
  carriedOver: number;
  backup: BackupPlan["kind"];
}

export interface RewriteDeps {
  db: Database.Database;
  journal: Journal;
  backups: Backups;
  fault?: FaultHook;
}

/** A file whose last line is complete: waits (bounded) while a writer finishes one. */
function readAtLineBoundary(file: string, fd: number): { stat: fs.Stats; bytes: Buffer } {
  const end = Date.now() + LINE_WAIT_MS;
  for (;;) {
    const stat = fs.fstatSync(fd);
    const bytes = readRange(fd, 0, stat.size);
    if (endsAtLineBoundary(bytes)) return { stat, bytes };
    if (Date.now() > end) throw new SourceBusyError(file, "its last line has stayed incomplete");
    sleepSync(3);
  }
}

/**
 * The state of a byte stream as it is written (head and tail windows, size, lines): what the store
 * records of a file it has read (see WrittenState), kept up to date without holding the bytes.
 */
class StreamState {
  #head: Buffer = Buffer.alloc(0);
  #tail: Buffer = Buffer.alloc(0);
  size = 0;
  lines = 0;
  push(b: Buffer): void {
    if (this.#head.length < STATE_WINDOW) this.#head = Buffer.concat([this.#head, b.subarray(0, STATE_WINDOW - this.#head.length)]);
    this.#tail = b.length >= STATE_WINDOW ? Buffer.from(b.subarray(b.length - STATE_WINDOW)) : Buffer.concat([this.#tail, b]).subarray(-STATE_WINDOW);
    this.size += b.length;
    this.lines += countNewlines(b);
  }
  /** the last bytes (at most STATE_WINDOW) */
  get tail(): Buffer {
    return this.#tail;
  }
  state(mtimeMs: number): WrittenState {
    return { size: this.size, mtimeMs, offset: this.size, lines: this.lines, headHash: sha256(this.#head), tailHash: sha256(this.#tail) };
  }
}

function writeAll(fd: number, data: Buffer): void {
  let done = 0;
  while (done < data.length) done += fs.writeSync(fd, data, done, data.length - done);
}

export function rewriteSource(job: RewriteJob, deps: RewriteDeps): RewriteOutcome {
  const { file } = job;
  // a symlinked session file is rewritten through its link: the new content replaces the target
  // (the link stays a link, and the agent writing through it keeps reaching the same file)
  const real = fs.realpathSync(file);
  const writers = openWritersOf(real);
  if (writers.length > 0) {
    const who = writers.map((w) => `${w.command} (pid ${w.pid})`).join(", ");
    throw new SourceBusyError(file, `${who} keeps it open for writing; a rewrite would cut its later lines off`);
  }
  removeLegacyTemps(file);
  const fd = fs.openSync(file, "r");
  try {
    const { stat, bytes } = readAtLineBoundary(file, fd);
    job.absorb(bytes, stat);
    const content = job.render(bytes);
    const plan: BackupPlan = job.backup === false ? { kind: "keep" } : deps.backups.plan(file, bytes);
    const tmp = tempPathFor(real, "rewrite");
    const backupTmp = plan.kind === "create" || plan.kind === "replace" ? tempPathFor(file, "original") : null;
    const intentId = deps.db
      .transaction(() => {
        const id = deps.journal.begin({
          sessionId: job.sessionId,
          file,
          kind: "rewrite",
          tempPaths: backupTmp ? [tmp, backupTmp] : [tmp],
          detail: { why: job.why, before: { size: bytes.length, sha256: sha256(bytes) }, target: { size: content.length, sha256: sha256(content) }, backupTemp: backupTmp },
        });
        job.apply();
        return id;
      })
      .immediate();
    let renamed = false;
    try {
      deps.fault?.("rewrite:intent");
      return writeAndSwap();
    } catch (err) {
      removeTemp(tmp);
      if (backupTmp) removeTemp(backupTmp);
      if (!renamed) {
        deps.db
          .transaction(() => {
            job.undo();
            deps.journal.end(intentId);
          })
          .immediate();
      }
      throw err;
    }

    function writeAndSwap(): RewriteOutcome {
      const mode = stat.mode & 0o7777;
      const out = fs.openSync(tmp, "wx", mode);
      let outClosed = false;
      let bout: number | null = null;
      try {
        writeAll(out, content);
        const next = new StreamState(); // the new file
        next.push(content);
        const old = new StreamState(); // the old file, as far as it was read
        old.push(bytes);
        if (backupTmp) {
          bout = fs.openSync(backupTmp, "wx", mode);
          writeAll(bout, bytes);
        }
        const backupHash = crypto.createHash("sha256").update(bytes);
        deps.fault?.("rewrite:temp-written");
        let was: FileIdentity = identityOf(stat, bytes);
        let caughtUp = 0;
        const deadline = Date.now() + SETTLE_MS;
        /** Looks at the file until it holds still, taking in what was appended. True when it moved. */
        const settle = (): boolean => {
          let moved = false;
          for (;;) {
            const d = driftSince(file, fd, was);
            if (d.kind === "same") return moved;
            if (d.kind !== "grew") throw new SourceBusyError(file, describeDrift(d));
            if (Date.now() > deadline) throw new SourceBusyError(file, "it kept growing while Bonsai was working");
            const more = readRange(fd, was.size, d.stat.size);
            const complete = more.lastIndexOf(NEWLINE) + 1;
            if (complete === 0) {
              sleepSync(2); // a line is being written: wait for its end
              continue;
            }
            const delta = more.subarray(0, complete);
            const linesBefore = old.lines;
            old.push(delta);
            const rendered = job.catchUp(delta, was.size, linesBefore, old.state(d.stat.mtimeMs));
            writeAll(out, rendered);
            next.push(rendered);
            if (bout !== null) {
              writeAll(bout, delta);
              backupHash.update(delta);
            }
            was = { dev: was.dev, ino: was.ino, size: old.size, mtimeMs: d.stat.mtimeMs, tailHash: sha256(old.tail.subarray(-IDENTITY_TAIL)) };
            caughtUp++;
            moved = true;
          }
        };
        settle();
        fs.fsyncSync(out);
        if (bout !== null && backupTmp !== null) {
          fs.fsyncSync(bout);
          fs.closeSync(bout);
          bout = null;
          const hash = backupHash.digest("hex");
          deps.journal.note(intentId, { backup: { size: old.size, sha256: hash } });
          deps.fault?.("rewrite:backup-written");
          deps.backups.install(file, plan, backupTmp, old.size, hash);
          deps.fault?.("rewrite:backup-linked");
        } else if (plan.kind === "adopt") {
          deps.backups.install(file, plan, null, plan.size, plan.sha256);
        }
        // the last bytes taken in reach the disk before the rename: settle until nothing moves
        while (settle()) fs.fsyncSync(out);
        const mtimeMs = fs.fstatSync(out).mtimeMs;
        fs.closeSync(out);
        outClosed = true;
        deps.fault?.("rewrite:before-rename");
        fs.renameSync(tmp, real);
        renamed = true;
        fsyncDir(path.dirname(real));
        deps.fault?.("rewrite:after-rename");
        const carriedOver = carryOver(job, deps, fd, was.size, next.size);
        deps.db
          .transaction(() => {
            job.written(next.state(mtimeMs));
            deps.backups.markRewritten(file);
            deps.journal.end(intentId);
          })
          .immediate();
        return { caughtUp, carriedOver, backup: plan.kind };
      } finally {
        if (!outClosed) fs.closeSync(out);
        if (bout !== null) fs.closeSync(bout);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * How long a mending rewrite keeps trying while the file is busy (a writer holding it open, or
 * never letting it hold still): it mends bytes that are already out of place, so giving up is the
 * worse outcome.
 */
const MEND_DEADLINE_MS = 60_000;

/**
 * A rewrite that only moves bytes already in the file (`render`), with no store change of its own:
 * the repair of a torn append, the carry-over after a rename. A refusal changed nothing, so the
 * same offsets still hold: it is tried again until MEND_DEADLINE_MS.
 */
export function mendSource(sessionId: string, file: string, why: string, render: (bytes: Buffer) => Buffer, deps: RewriteDeps): void {
  const noop = (): undefined => undefined;
  const deadline = Date.now() + MEND_DEADLINE_MS;
  for (;;) {
    try {
      rewriteSource({ sessionId, file, why, backup: false, absorb: noop, render, catchUp: (delta) => delta, apply: noop, undo: noop, written: noop }, deps);
      return;
    } catch (err) {
      if (!(err instanceof SourceBusyError) || Date.now() > deadline) throw err;
      sleepSync(50);
    }
  }
}

/**
 * After the rename: bytes written to the old inode after `size` (a writer that had opened the file
 * before the rename) are put into the new file at the rename point (`renamedSize`, its size when it
 * took the name), before anything it received since: that is when they were written. A line a
 * writer began on the old inode and finished on the new file (one line in two writes, the second
 * opening the path again) is whole again that way; appending the late bytes at the end would break
 * two lines. Returns how many bytes were carried over.
 */
function carryOver(job: RewriteJob, deps: RewriteDeps, oldFd: number, size: number, renamedSize: number): number {
  let now = fs.fstatSync(oldFd).size;
  if (now <= size) return 0;
  // a writer still writing through the old descriptor: let it end its line there
  const end = Date.now() + LINE_WAIT_MS;
  let late = readRange(oldFd, size, now);
  while (late[late.length - 1] !== NEWLINE && Date.now() < end) {
    sleepSync(3);
    now = fs.fstatSync(oldFd).size;
    late = readRange(oldFd, size, now);
  }
  const insert = Buffer.from(late);
  mendSource(job.sessionId, job.file, "carry-over of bytes written to the replaced file", (bytes) => {
    if (bytes.length < renamedSize) throw new SourceBusyError(job.file, "it shrank right after Bonsai replaced it");
    return Buffer.concat([bytes.subarray(0, renamedSize), insert, bytes.subarray(renamedSize)]);
  }, deps);
  return insert.length;
}
