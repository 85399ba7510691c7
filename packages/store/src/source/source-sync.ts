/**
 * The one place where Bonsai touches an agent's session file. The store (sqlite-session-store.ts)
 * holds no file code: it asks this module
 * - what changed in a file since it last read it (`readChanges`: nothing, appended bytes, or the
 *   whole file to read again), for import and live follow;
 * - to append one line (`append`, safe-append.ts) or to rewrite the file (`rewrite`,
 *   safe-rewrite.ts), with its store change committed together with a journal intent;
 * - at open, to finish what a killed process left (`recover`): every abandoned intent is resolved by
 *   reading the file again (the store follows the file), and its temporary files are removed;
 * - whether a file may be written at all (`whyNotWritable`).
 * docs/RELIABILITY.md states the guarantees; test/faults/ proves them.
 */
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { type AppendedBytes, appendedFromFile, appendedFromMemory } from "./appended-bytes";
import { Backups } from "./backup";
import { bufferReader, fileReader, type ReadInto } from "./blocks";
import { readRange, sha256 } from "./bytes";
import type { FaultHook } from "./faults";
import { Journal, type Intent } from "./journal";
import { TAIL_WINDOW } from "./reader";
import { appendLine, type AppendJob } from "./safe-append";
import { finishTakeBack } from "./append-take-back";
import { asWriteFailure } from "./write-failure";
import { oversizeReason } from "./blocks";
import { rewriteSource, type RewriteJob, type RewriteOutcome, type WrittenState } from "./safe-rewrite";
import { removeTemp } from "./temp-files";
import { systemErrorCode, type ImportFailure } from "../import-failure";

/** What the store recorded of a file when it last read it. */
export interface KnownFile {
  size: number | null;
  mtimeMs: number | null;
  offset: number | null;
  headHash: string | null;
  tailHash: string | null;
}

export type FileChange =
  | { kind: "unreadable"; message: string; failure: ImportFailure }
  /** same size and mtime as recorded */
  | { kind: "unchanged"; stat: fs.Stats }
  /** what was read is intact and nothing complete follows it (the mtime or a partial line changed) */
  | { kind: "touched"; stat: fs.Stats }
  /** what was read is intact; `open` the bytes from `offset` to the end (read them, close) */
  | { kind: "appended"; stat: fs.Stats; offset: number; open: () => AppendedBytes }
  /** anything else (new file, rewritten, truncated, edited): read it all (`open` it, read, close) */
  | { kind: "whole"; stat: fs.Stats; open: () => WholeFile };

/** A file to read whole, block by block (never as one Buffer when it comes from disk). */
export interface WholeFile {
  stat: fs.Stats;
  /** a reader from the first byte (every call starts again) */
  reader(): ReadInto;
  /** the file state to record once the store holds bytes [0, end) (`lines` "\n" before end) */
  stateAt(end: number, lines: number): WrittenState;
  close(): void;
}

/** The first `max` bytes of a whole file (fewer when it is shorter). */
export function readHead(whole: WholeFile, max: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.min(max, whole.stat.size));
  const read = whole.reader();
  let filled = 0;
  while (filled < buf.length) {
    const n = read(buf, filled, buf.length - filled);
    if (n === 0) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}

/** A whole file as one Buffer (Claude Code and Codex readers take the text whole). */
export function readAll(whole: WholeFile): Buffer {
  return readHead(whole, whole.stat.size);
}

function stateOf(stat: fs.Stats, head: Buffer, tailBefore: Buffer, endOffset: number, lines: number): WrittenState {
  return {
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    offset: endOffset,
    lines,
    headHash: sha256(head.subarray(0, Math.min(TAIL_WINDOW, endOffset))),
    tailHash: sha256(tailBefore.subarray(Math.max(0, tailBefore.length - TAIL_WINDOW))),
  };
}

/** Classifies a file from its bytes `bytes` (the whole file as read with `stat`). No I/O. */
export function changeFromBytes(bytes: Buffer, stat: fs.Stats, known: KnownFile | null): FileChange {
  const offset = known?.offset ?? null;
  if (known && offset !== null && bytes.length >= offset) {
    const head = bytes.subarray(0, Math.min(TAIL_WINDOW, offset));
    const tail = bytes.subarray(Math.max(0, offset - TAIL_WINDOW), offset);
    if (sha256(head) === known.headHash && sha256(tail) === known.tailHash) {
      if (bytes.length === offset) return { kind: "touched", stat };
      return { kind: "appended", stat, offset, open: () => appendedFromMemory(bytes, offset, head, tail, (h, t, end, lines) => stateOf(stat, h, t, end, lines)) };
    }
  }
  const whole: WholeFile = {
    stat,
    reader: () => bufferReader(bytes),
    stateAt: (end, lines) => stateOf(stat, bytes, bytes.subarray(0, end), end, lines),
    close: () => undefined,
  };
  return { kind: "whole", stat, open: () => whole };
}

/** Opens `file` to be read whole (from its first byte to its size when opened). */
function openWhole(file: string): WholeFile {
  const fd = fs.openSync(file, "r");
  try {
    const stat = fs.fstatSync(fd);
    return {
      stat,
      reader: () => fileReader(fd, 0, stat.size),
      stateAt: (end, lines) => stateOf(stat, readRange(fd, 0, Math.min(TAIL_WINDOW, end)), readRange(fd, Math.max(0, end - TAIL_WINDOW), end), end, lines),
      close: () => fs.closeSync(fd),
    };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

export interface SourceSyncOptions {
  /** false: nothing is ever written to a source file (BONSAI_NO_WRITE_THROUGH) */
  writeThrough: boolean;
  /** the fault suite's hook (kill at a named point); none in production */
  fault?: FaultHook;
  /** an error for a session whose file must never be written (Claude Code, Codex), else null */
  refuse?: (sessionId: string) => Error | null;
}

export interface RecoveryReport {
  /** intents of dead processes that were resolved */
  resolved: number;
  /** temporary files removed */
  tempsRemoved: number;
  /** sessions whose file could not be read again (their intent is kept for the next open) */
  failed: { sessionId: string; message: string }[];
}

/** A file that could not be opened or read, with the system's error code. */
function unreadable(file: string, err: unknown): FileChange {
  return { kind: "unreadable", message: `cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`, failure: { kind: "unreadable", code: systemErrorCode(err) } };
}

export class SourceSync {
  readonly journal: Journal;
  readonly backups: Backups;

  constructor(
    private readonly db: Database.Database,
    private readonly options: SourceSyncOptions,
  ) {
    this.journal = new Journal(db);
    this.backups = new Backups(db);
  }

  /**
   * What changed in `file` since `known`. When it only grew, the appended bytes are read when the
   * caller reads them (its `open()` keeps the file open until `close()`), block by block.
   */
  readChanges(file: string, known: KnownFile | null): FileChange {
    let fd: number;
    let stat: fs.Stats;
    try {
      fd = fs.openSync(file, "r");
    } catch (err) {
      return unreadable(file, err);
    }
    let keepOpen = false;
    try {
      stat = fs.fstatSync(fd);
      if (!stat.isFile()) return { kind: "unreadable", message: `cannot read ${file}: not a regular file`, failure: { kind: "unreadable", code: null } };
      const oversize = oversizeReason(stat.size);
      if (oversize !== null) return { kind: "unreadable", message: `${file} is ${oversize}`, failure: { kind: "too-large" } };
      if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return { kind: "unchanged", stat };
      const offset = known?.offset ?? null;
      if (known && offset !== null && stat.size >= offset) {
        const head = readRange(fd, 0, Math.min(TAIL_WINDOW, offset));
        const tail = readRange(fd, Math.max(0, offset - TAIL_WINDOW), offset);
        if (sha256(head) === known.headHash && sha256(tail) === known.tailHash) {
          if (stat.size === offset) return { kind: "touched", stat };
          const open = fd;
          keepOpen = true;
          return { kind: "appended", stat, offset, open: () => appendedFromFile(open, stat, offset, head, tail, (h, t, end, lines) => stateOf(stat, h, t, end, lines), () => fs.closeSync(open)) };
        }
      }
      return { kind: "whole", stat, open: () => openWhole(file) };
    } catch (err) {
      return unreadable(file, err);
    } finally {
      if (!keepOpen) fs.closeSync(fd);
    }
  }

  #refuse(sessionId: string): void {
    const err = this.options.refuse?.(sessionId);
    if (err) throw err;
  }

  /** Why `file` must not be written (mode bits, not access(2), which says yes to root), or null. */
  whyNotWritable(file: string): string | null {
    if (!this.options.writeThrough) return "write-through is turned off (BONSAI_NO_WRITE_THROUGH); export to write the changes to a file";
    if ((fs.statSync(file).mode & 0o222) === 0) return "the source file is read-only; export to write the changes to a file";
    if ((fs.statSync(path.dirname(file)).mode & 0o222) === 0) return "the folder of the source file is read-only; export to write the changes to a file";
    return null;
  }

  append(job: AppendJob): void {
    this.#refuse(job.sessionId);
    try {
      appendLine(job, { db: this.db, journal: this.journal, backups: this.backups, fault: this.options.fault });
    } catch (err) {
      throw asWriteFailure(err);
    }
  }

  /** A disk that refuses a write (the temporary file, the backup copy) leaves the file as it was: its one sentence. */
  rewrite(job: RewriteJob): RewriteOutcome {
    this.#refuse(job.sessionId);
    try {
      return rewriteSource(job, { db: this.db, journal: this.journal, backups: this.backups, fault: this.options.fault });
    } catch (err) {
      throw asWriteFailure(err);
    }
  }

  /**
   * Resolves the intents that processes which died left behind: temporary files are removed, and
   * the session is read again from its file (`reread(sessionId, file, whole)`: whole = a rewrite
   * may or may not have happened, so the store takes the file as it is now; otherwise an ordinary
   * incremental read picks up an appended line if it is there). A backup linked into place just
   * before the process died is recorded if it is whole.
   */
  recover(reread: (intent: Intent, whole: boolean) => void): RecoveryReport {
    const report: RecoveryReport = { resolved: 0, tempsRemoved: 0, failed: [] };
    for (const intent of this.journal.pending()) {
      if (!this.journal.isAbandoned(intent)) continue;
      for (const tmp of intent.tempPaths) if (removeTemp(tmp)) report.tempsRemoved++;
      const backup = intent.detail.backup as { size?: unknown; sha256?: unknown } | undefined;
      if (intent.kind === "rewrite" && typeof backup?.size === "number" && typeof backup.sha256 === "string") {
        this.backups.adoptIfWhole(intent.file, backup.size, backup.sha256);
      }
      try {
        finishTakeBack(intent, this.options.fault);
        reread(intent, intent.kind === "rewrite");
      } catch (err) {
        report.failed.push({ sessionId: intent.sessionId, message: err instanceof Error ? err.message : String(err) });
        continue;
      }
      this.journal.end(intent.id);
      report.resolved++;
    }
    return report;
  }
}
