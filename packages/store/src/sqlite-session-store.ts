/**
 * SessionStore on better-sqlite3: the only place with SQL. See session-store.ts for the contract
 * and ../README.md for import, write-through and follow semantics.
 */
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import {
  CURRENT_SESSION_VERSION,
  EntryIdGenerator,
  defaultRandomSource,
  generateSessionId,
  packSkeleton,
  type RandomSource,
  type PackedSkeleton,
  type SessionEntry,
  type SessionHeader,
  type SkeletonNode,
  type TreeSkeleton,
} from "@bonsai/core";
import { atomicWriteFileSync } from "./atomic-write";
import { writeFailureSentence } from "./source/write-failure";
import { openDatabase } from "./database";
import { newStoreState, StoreEventBus, type StoreContext } from "./modules/context";
import { indexSearch, quietIndexing, scheduleIndexing, search, startBackgroundIndexing, unindexedCount } from "./modules/search";
import { deriveColumns, FLAG_FROM_EXTENSION, FLAG_OFFLINE, FLAG_PRUNED, FLAG_THINKING, oneLine } from "./derive";
import { startFollower } from "./source/follow";
import { renderMarkdown } from "./markdown";
import { defaultSessionDirs } from "./paths";
import { scanPaths } from "./scan";
import {
  StaleCommitError,
  StoreError,
  type AppendOptions,
  type CommitExpectation,
  type ExportOptions,
  type Follower,
  type FollowOptions,
  type ImportIssue,
  type ImportOptions,
  type ImportPathsResult,
  type ImportReport,
  type ImportStatus,
  type NewEntry,
  type PrunedOriginal,
  type PruneOptions,
  type SearchHit,
  type SearchOptions,
  type SessionStore,
  type SessionSummary,
  type StoreEventName,
  type StoreEvents,
  type StoreListener,
} from "./session-store";
import { BACKUP_SUFFIX } from "./source/backup";
import { sha256 } from "./source/bytes";
import type { FaultHook } from "./source/faults";
import { headerLineOf, replaceLines, type LineReplacement } from "./source/line-edit";
import { SessionLocks } from "./source/session-lock";
import { readAppended, streamAppended, streamWhole, type ReadEntry, type ReadResult } from "./source/reader";
import type { WrittenState } from "./source/safe-rewrite";
import { type AppendedBytes, appendedDuringRewrite } from "./source/appended-bytes";
import { changeFromBytes, SourceSync, type FileChange, type KnownFile, type RecoveryReport, readAll, readHead, type WholeFile } from "./source/source-sync";
import { deferIdIndex } from "./import/deferred-index";
import { EntryWriter, type PendingEntry, type WriterResult } from "./import/entry-writer";
import { readPackedSkeleton } from "./reads/packed-skeleton";
import { packedSkeletonJson, type SkeletonJson } from "./reads/skeleton-cache";
import type { SessionRow } from "./reads/sessions";
import { StoreReader } from "./reader";
// Claude Code and Codex files (read-only sources): src/foreign/, hooked in below where marked "foreign:"
import { originalText, type ReadSession } from "@bonsai/formats";
import { AgentTally, continueInPi, detectSourceOf, ForeignSources, isForeignFormat, ReadOnlySessionError, storedReadSession } from "./foreign/index";
import type { PiCopy, PiCopyOptions } from "./session-store";
import { countSessionShape, readSessionTitles, writeSessionTitle } from "./session-meta";
import { lastWithId, settleRecentIds } from "./id-tiers";

/** the last stored entry with an id: where it is */
interface StoredId {
  seq: number;
  line: number | null;
}

/** reads of stored entries by id, each id read once (one import's) */
interface StoredIdLookups {
  get(id: string): StoredId | undefined;
}

export interface OpenStoreOptions {
  /** database file (":memory:" for a throwaway store) */
  path: string;
  /** better_sqlite3.node built for the host (Electron passes its own) */
  nativeBinding?: string;
  /** ids and clock (tests) */
  random?: RandomSource;
  /**
   * Write changes through to the sessions' source files (default: true unless the environment has
   * BONSAI_NO_WRITE_THROUGH=1). When false, every change stays in the store and the session is
   * marked detached from its source.
   */
  writeThrough?: boolean;
  /** the fault suite's hook: called at named points of the file protocols (tests only) */
  fault?: FaultHook;
  /** how long a write waits for another Bonsai process writing the same session before it refuses (default SESSION_LOCK_WAIT_MS) */
  sessionLockWaitMs?: number;
  /**
   * Index what is stored for search in the background of this thread, a batch per turn of its
   * event loop, after each write (default: true). A short-lived command passes false (`bonsai
   * import` of a folder would otherwise index and checkpoint between its files): a search indexes
   * what it needs, and the app indexes the rest in its store worker.
   */
  backgroundIndexing?: boolean;
}

/** true unless BONSAI_NO_WRITE_THROUGH is set to a true value ("1", "true", "yes") */
export function writeThroughFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = (env.BONSAI_NO_WRITE_THROUGH ?? "").trim().toLowerCase();
  return !(v === "1" || v === "true" || v === "yes");
}

/**
 * Opens (and migrates) the database, then finishes what a process killed during a file operation
 * left behind (SqliteSessionStore.recoverSources), so that every session agrees with its file.
 */
export function openStore(options: OpenStoreOptions): SqliteSessionStore {
  const db = openDatabase({ path: options.path, nativeBinding: options.nativeBinding });
  const store = new SqliteSessionStore(db, options.random ?? defaultRandomSource, {
    writeThrough: options.writeThrough ?? writeThroughFromEnv(),
    fault: options.fault,
    backgroundIndexing: options.backgroundIndexing,
    sessionLockWaitMs: options.sessionLockWaitMs,
  });
  store.recoverSources();
  store.repairDuplicateLines();
  return store;
}

// ---------------------------------------------------------------- row shapes (SQL side)

interface ReportRow {
  id: number;
  source_path: string;
  session_id: string | null;
  status: ImportStatus;
  started_at: string;
  bytes_read: number;
  entries_added: number;
  issues_json: string;
  message: string | null;
}

/** what the store records of a source file it has read (sessions.file_*) */
type FileState = WrittenState;

/** an original kept in pruned_outputs */
interface KeptOriginal {
  originalJson: string;
  prunedJson: string;
  prunedAt: number;
}

/** one entry's JSON change (pruning, restore) */
interface EntryEdit {
  entryId: string;
  seq: number;
  /** its line in the source file */
  line: number | null;
  /** the JSON now (and the line's text in the file) */
  before: string;
  after: string;
  prunedAt: number;
  kept: KeptOriginal | undefined;
}

/** a rewrite's store side: the lines to replace (given the file's bytes), the store change and its undo */
interface EntriesChange {
  edits(bytes: Buffer): Map<number, LineReplacement>;
  apply(): void;
  undo(): void;
  written(): void;
}

const SKELETON_COLUMNS = "id, parent_id, type, role, timestamp, tokens, preview, tool_name, custom_type, stop_reason, ref_id, tokens_before, flags";
type SkeletonRow = [
  string,
  string | null,
  string,
  string | null,
  string,
  number,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  number | null,
  number,
];

/** entry types whose effect on the context comes from anywhere on the path (context-building.md §1.4) */
/** skeletons kept in memory (the sessions most recently drawn) */
const SKELETON_CACHE = 3;


function nowIso(): string {
  return new Date().toISOString();
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** How one file is brought up to date. */
interface SyncOptions {
  signal?: AbortSignal;
  /** read it whole whatever the recorded state says (recovery after a killed file operation) */
  whole?: boolean;
  /** the bytes read so far of a file read whole, after each block */
  onBytes?: (bytesDone: number) => void;
}

/** The store's record of a session's file (what readChanges compares the file with). */
function knownFileOf(row: SessionRow): KnownFile {
  return { size: row.file_size, mtimeMs: row.file_mtime_ms, offset: row.file_offset, headHash: row.head_hash, tailHash: row.tail_hash };
}

/**
 * The header of a session as stored (the file's own, kept as read for a rewrite), typed: a field a
 * file gives another type (a `cwd` that is a number or an object) reads as the row's typed value.
 */
function storedHeader(row: SessionRow): SessionHeader {
  const header = JSON.parse(row.header_json) as Record<string, unknown>;
  return { ...header, type: "session", id: typeof header.id === "string" ? header.id : row.header_id, timestamp: typeof header.timestamp === "string" ? header.timestamp : row.created_at, cwd: row.cwd };
}

/** Whether the store still holds what `before` recorded of its file (nobody stored more since). */
function sameFileState(before: SessionRow, now: SessionRow | undefined): boolean {
  return (
    now !== undefined &&
    now.generation === before.generation &&
    now.file_offset === before.file_offset &&
    now.file_lines === before.file_lines &&
    now.tail_hash === before.tail_hash
  );
}

function describeJsonValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "text";
  return `a ${typeof v}`;
}

/** A header Bonsai cannot read as a session (a version that is not a number): why, else null. */
function headerFieldProblem(header: SessionHeader): string | null {
  const v: unknown = (header as { version?: unknown }).version;
  if (v === undefined || (typeof v === "number" && Number.isInteger(v) && v >= 1)) return null;
  return `not a session Bonsai can read: the header's "version" is ${describeJsonValue(v)}, not a whole number (pi and oh-my-pi write 1, 2 or 3)`;
}

/** Header fields of the wrong type that Bonsai reads as empty: one warning each. */
function headerFieldWarnings(header: SessionHeader): ImportIssue[] {
  const out: ImportIssue[] = [];
  for (const field of ["cwd", "timestamp", "title"] as const) {
    const v: unknown = (header as Record<string, unknown>)[field];
    if (v === undefined || typeof v === "string") continue;
    out.push({ line: 1, kind: "invalid-header", message: `the header's "${field}" is ${describeJsonValue(v)}, not text: shown as empty` });
  }
  return out;
}

/** Why a file is not a session, in words that never quote the file (it may hold anything). */
function notASessionMessage(issues: readonly ImportIssue[]): string {
  const kind = issues.find((i) => i.kind === "missing-header" || i.kind === "invalid-header" || i.kind === "empty")?.kind;
  if (kind === "empty") return "not a session file: it has no JSON lines (pi and oh-my-pi sessions are JSON Lines starting with a session header)";
  if (kind === "invalid-header") return "not a session file: its session header has no valid id";
  return "not a session file: its first line is not a pi / oh-my-pi session header";
}

function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === "AbortError";
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const err = new Error("import aborted");
    err.name = "AbortError";
    throw err;
  }
}

export { BACKUP_SUFFIX };

export class SqliteSessionStore extends StoreReader implements SessionStore {
  /** what the store's modules (src/modules/) work over */
  private readonly ctx: StoreContext;
  /** foreign: Claude Code and Codex files, and every session's agent (src/foreign/) */
  private readonly foreign: ForeignSources;

  constructor(
    db: Database.Database,
    random: RandomSource = defaultRandomSource,
    options: { writeThrough?: boolean; fault?: FaultHook; backgroundIndexing?: boolean; sessionLockWaitMs?: number } = {},
  ) {
    super(db);
    const files = new SourceSync(db, {
      writeThrough: options.writeThrough ?? true,
      fault: options.fault,
      // foreign: a second lock on the files Bonsai never writes (prepareWrite refuses first)
      refuse: (sessionId) => {
        const row = this.sessionRow(sessionId);
        return row && isForeignFormat(row.source_format) ? new ReadOnlySessionError(row.id, row.source_format) : null;
      },
    });
    this.ctx = {
      db,
      statements: this.statements,
      sessions: this.sessions,
      agents: this.agents,
      reader: this,
      random,
      events: new StoreEventBus(),
      files,
      locks: new SessionLocks(db, options.sessionLockWaitMs),
      fault: options.fault,
      backgroundIndexing: options.backgroundIndexing ?? true,
      state: newStoreState(),
    };
    startBackgroundIndexing(this.ctx);
    this.foreign = new ForeignSources({
      db,
      sessionRow: (id) => this.sessionRow(id),
      newSessionIdFor: (headerId, file) => this.newSessionIdFor(headerId, file),
      clearEntries: (id) => this.clearEntries(id),
      insertEntries: (id, pending) => {
        this.writeEntries(id, pending);
        return pending.map((p) => p.entry);
      },
      replaceEntryJson: (id, seq, entry, json) => this.replaceEntryJson(id, seq, entry, json),
      refreshSessionMeta: (id, leafId) => this.recountSessionMeta(id, leafId),
      saveFileState: (id, state) => this.saveFileState(id, state),
      storeReport: (r) => this.storeReport(r),
      emit: (event, payload) => this.ctx.events.emit(event, payload),
      scheduleIndexing: () => this.ctx.events.entriesWritten(),
      readWhole: (file) => this.ctx.files.readChanges(file, null),
    });
  }

  // ================================================================ statements

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  private sessionRow(id: string): SessionRow | undefined {
    return this.sessions.row(id);
  }

  private requireSession(id: string): SessionRow {
    return this.sessions.require(id);
  }

  private sessionBySource(file: string): SessionRow | undefined {
    return this.sql("SELECT * FROM sessions WHERE source_path = ?").get(file) as SessionRow | undefined;
  }

  // ================================================================ events

  on<K extends StoreEventName>(event: K, listener: StoreListener<K>): () => void {
    return this.ctx.events.on(event, listener);
  }

  off<K extends StoreEventName>(event: K, listener: StoreListener<K>): void {
    this.ctx.events.off(event, listener);
  }

  relay<K extends StoreEventName>(event: K, payload: StoreEvents[K]): void {
    this.ctx.events.emit(event, payload);
  }

  // ================================================================ import

  async importFile(file: string, options: ImportOptions = {}): Promise<ImportReport> {
    throwIfAborted(options.signal);
    await Promise.resolve();
    const resolved = path.resolve(file);
    const onProgress = options.onProgress;
    let size = 0;
    if (onProgress) {
      try {
        size = fs.statSync(resolved).size;
      } catch {
        // reported by the import itself
      }
    }
    // a big file reports its progress block by block
    const onBytes = onProgress ? (bytesDone: number) => onProgress({ filesDone: 0, filesTotal: 1, bytesDone, bytesTotal: size, currentFile: resolved }) : undefined;
    return this.syncFile(resolved, "import", { signal: options.signal, onBytes });
  }

  async importPaths(paths?: readonly string[], options: ImportOptions = {}): Promise<ImportPathsResult> {
    const targets = paths && paths.length > 0 ? paths : defaultSessionDirs(this.settingsSessionDirs()).filter((d) => fs.existsSync(d));
    const scan = scanPaths(targets);
    const reports: ImportReport[] = [];
    for (const m of scan.missing) {
      reports.push(this.storeReport({ sourcePath: m.path, sessionId: null, status: "failed", bytesRead: 0, entriesAdded: 0, issues: [], message: m.message }));
    }
    const bytesTotal = scan.files.reduce((n, f) => n + f.size, 0);
    const progress = { filesDone: 0, filesTotal: scan.files.length, bytesDone: 0, bytesTotal };
    const report = (currentFile?: string): void => {
      const p = currentFile ? { ...progress, currentFile } : { ...progress };
      options.onProgress?.(p);
      this.ctx.events.emit("import-progress", p);
    };
    report();
    let aborted = false;
    for (const f of scan.files) {
      if (options.signal?.aborted) {
        aborted = true;
        break;
      }
      report(f.path);
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        const onBytes = (bytes: number): void => {
          const p = { ...progress, bytesDone: progress.bytesDone + Math.min(bytes, f.size), currentFile: f.path };
          options.onProgress?.(p);
          this.ctx.events.emit("import-progress", p);
        };
        reports.push(this.syncFile(f.path, "import", { signal: options.signal, onBytes }));
      } catch (err) {
        if (!isAbortError(err)) throw err;
        aborted = true;
        break;
      }
      progress.filesDone++;
      progress.bytesDone += f.size;
      report();
    }
    return { reports, filesTotal: scan.files.length, bytesTotal, aborted };
  }

  private settingsSessionDirs(): string[] {
    const s = this.getSettingsJson();
    const dirs = typeof s === "object" && s !== null ? (s as { sessionDirs?: unknown }).sessionDirs : undefined;
    return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === "string") : [];
  }

  getImportReports(sessionIdOrPath: string, limit = 20): ImportReport[] {
    const rows = this.sql("SELECT * FROM import_reports WHERE session_id = ? OR source_path = ? ORDER BY id DESC LIMIT ?").all(
      sessionIdOrPath,
      path.isAbsolute(sessionIdOrPath) ? sessionIdOrPath : path.resolve(sessionIdOrPath),
      limit,
    ) as ReportRow[];
    return rows.map((r) => ({
      reportId: r.id,
      sourcePath: r.source_path,
      sessionId: r.session_id,
      status: r.status,
      bytesRead: r.bytes_read,
      entriesAdded: r.entries_added,
      issues: JSON.parse(r.issues_json) as ImportIssue[],
      message: r.message ?? "",
      startedAt: r.started_at,
    }));
  }

  private storeReport(r: Omit<ImportReport, "reportId" | "startedAt">): ImportReport {
    const startedAt = nowIso();
    let info: { lastInsertRowid: number | bigint };
    try {
      info = this.sql(
        "INSERT INTO import_reports (source_path, session_id, status, started_at, bytes_read, entries_added, issues_json, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      ).run(r.sourcePath, r.sessionId, r.status, startedAt, r.bytesRead, r.entriesAdded, JSON.stringify(r.issues), r.message);
    } catch (err) {
      // a disk too full to keep the report: the report is still given (id 0: not kept)
      if (writeFailureSentence(err) === null) throw err;
      info = { lastInsertRowid: 0 };
    }
    return { ...r, reportId: Number(info.lastInsertRowid), startedAt };
  }

  /**
   * Brings the store up to date with one file: no-op when unchanged, the appended bytes when it
   * only grew, everything again (same session, new generation) when it changed otherwise.
   * Synchronous; one transaction for the data change. `whole` reads the file whole whatever the
   * recorded state says (recovery after a killed file operation).
   */
  private syncFile(file: string, source: "import" | "follow" | "append", options: SyncOptions = {}): ImportReport {
    // a known session's rows are written holding its lock (a new one has no other writer yet)
    const id = this.sessionBySource(file)?.id;
    return id === undefined ? this.syncFileHeld(file, source, options) : this.ctx.locks.run(id, () => this.syncFileHeld(file, source, options));
  }

  private syncFileHeld(file: string, source: "import" | "follow" | "append", options: SyncOptions): ImportReport {
    const existing = this.sessionBySource(file);
    if (existing?.detached != null) return this.unchanged(existing, file, `not read: the session is detached from its source (${existing.detached})`);
    const known = options.whole || !existing ? null : knownFileOf(existing);
    return this.applyChange(file, existing, this.ctx.files.readChanges(file, known), source, options, options.whole ? "recovered" : "rewritten");
  }

  /** Stores what readChanges (or a rewrite's read) found in the file. */
  private applyChange(
    file: string,
    existing: SessionRow | undefined,
    change: FileChange,
    source: "import" | "follow" | "append",
    options: SyncOptions,
    wholeReason: "rewritten" | "recovered",
  ): ImportReport {
    const signal = options.signal;
    if (change.kind === "unreadable") return this.failedReport(file, existing, change.message);
    try {
      throwIfAborted(signal);
      if (existing && change.kind === "unchanged") return this.unchanged(existing, file);
      if (existing && change.kind === "touched") {
        this.sql("UPDATE sessions SET file_size = ?, file_mtime_ms = ? WHERE id = ?").run(change.stat.size, change.stat.mtimeMs, existing.id);
        return this.unchanged(existing, file);
      }
      if (existing && change.kind === "appended") {
        const appended = change.open();
        try {
          // foreign: appends to a Claude Code or Codex file go through its incremental reader
          if (isForeignFormat(existing.source_format)) {
            return this.foreign.importAppended(existing, change.offset, appended.all(), (end, lines) => appended.stateAt(end, lines), source, () => this.syncFile(file, source, { signal, whole: true }));
          }
          return this.importAppended(existing, appended, change.offset, source, signal);
        } finally {
          appended.close();
        }
      }
      if (change.kind === "whole") {
        const whole = change.open();
        try {
          // foreign: the format is detected from the content (its first lines)
          const detected = detectSourceOf((bytes) => readHead(whole, bytes));
          if (detected.kind === "foreign") return this.foreign.importWhole(file, readAll(whole), (end, lines) => whole.stateAt(end, lines), existing, detected.reader, wholeReason);
          if (existing && isForeignFormat(existing.source_format)) this.becamePiFile(existing.id);
          return this.importWhole(file, whole, existing, options, wholeReason, detected.unknownReason);
        } finally {
          whole.close();
        }
      }
      return this.failedReport(file, existing, `import of ${file} failed: the store has no record of it`);
    } catch (err) {
      if (isAbortError(err)) throw err;
      // nothing was changed (the data change is one transaction): say why, keep going with other files
      const code = (err as { code?: unknown }).code;
      if (code === "ERR_STRING_TOO_LONG") return this.failedReport(file, existing, `${file} is too large to import (more than about 512 MB of text)`);
      // the disk refused a write (SQLite's "database or disk is full"): the transaction was rolled back
      const diskFull = writeFailureSentence(err);
      if (diskFull !== null) return this.failedReport(file, existing, `${file} was not imported: ${diskFull}`);
      // the file could not be read (opening it, or a block of it)
      if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return this.failedReport(file, existing, `cannot read ${file}: ${errorMessage(err)}`);
      return this.failedReport(file, existing, `import of ${file} failed: ${errorMessage(err)}`);
    }
  }

  private failedReport(file: string, existing: SessionRow | undefined, message: string): ImportReport {
    return this.storeReport({
      sourcePath: file,
      sessionId: existing?.id ?? null,
      status: "failed",
      bytesRead: 0,
      entriesAdded: 0,
      issues: [{ line: 0, kind: "io-error", message }],
      message,
    });
  }

  private unchanged(row: SessionRow, file: string, message = "unchanged since the last import"): ImportReport {
    return {
      reportId: 0,
      sourcePath: file,
      sessionId: row.id,
      status: "unchanged",
      bytesRead: 0,
      entriesAdded: 0,
      issues: [],
      message,
      startedAt: nowIso(),
    };
  }

  /**
   * Stores the entries of `appended` (the file's bytes from `offset`), and the file state it gives
   * for the consumed end. One transaction. Returns the report; the entries added are emitted.
   */
  private importAppended(row: SessionRow, appended: AppendedBytes, offset: number, source: "import" | "follow" | "append", signal?: AbortSignal): ImportReport {
    const fileLines = row.file_lines ?? 0;
    // a legacy file's lines are migrated all at once before the transaction; a current one's are
    // read block by block inside it, each piece checked and stored as it comes (none kept alive)
    const legacy = row.source_version < CURRENT_SESSION_VERSION ? readAppended(appended.all(), offset, fileLines, row.header_json, row.source_version, this.ctx.random) : null;
    throwIfAborted(signal);
    const checkIssues = { missingIds: [] as ImportIssue[], tree: [] as ImportIssue[] };
    // the entries for the entries-added event: kept only when something listens
    const keep = this.ctx.events.listens("entries-added");
    const added: SessionEntry[] = [];
    let issues: ImportIssue[] = [];
    this.ctx.fault?.("sync:before-store");
    const report = this.db
      .transaction(() => {
        // another connection (the follower's worker, a commit, another process) stored these
        // bytes after `row` was read: store nothing; the caller reads on from the new offset
        if (!sameFileState(row, this.sessionRow(row.id))) return null;
        const lookups = this.storedIdLookups(row.id);
        const check = this.appendedChecks(row, checkIssues, lookups);
        const writer = this.entryAppender(row.id, lookups);
        const store = (entries: readonly ReadEntry[]): void => {
          throwIfAborted(signal);
          const pending = check(entries);
          writer.add(pending);
          if (keep) for (const p of pending) added.push(p.entry);
        };
        let read: ReadResult;
        if (legacy) {
          read = legacy;
          store(legacy.entries);
        } else {
          read = streamAppended(appended, offset, fileLines, row.header_json, row.source_version, store);
        }
        const written = writer.finish();
        issues = [...read.issues, ...checkIssues.missingIds, ...checkIssues.tree];
        this.refreshSessionMeta(row, written.lastId ?? undefined, written, false);
        this.saveFileState(row.id, appended.stateAt(read.endOffset, read.endLines));
        const report: Omit<ImportReport, "reportId" | "startedAt"> = {
          sourcePath: row.source_path ?? "",
          sessionId: row.id,
          status: "appended",
          bytesRead: appended.length,
          entriesAdded: written.added,
          issues,
          message: `${written.added} new entries${issues.length > 0 ? `, ${issues.length} issues` : ""}`,
        };
        // appends are frequent under live follow: a report row is kept only when there is something to report
        return issues.length > 0 ? this.storeReport(report) : { ...report, reportId: 0, startedAt: nowIso() };
      })
      .immediate();
    if (report === null) return this.syncFile(row.source_path ?? "", source, { signal });
    this.ctx.events.entriesWritten();
    if (added.length > 0) this.ctx.events.emit("entries-added", { sessionId: row.id, entries: added, source });
    return report;
  }

  /**
   * Reads a whole file into the store as it is read (block by block: neither the file nor its
   * entries are ever held whole), one transaction. `existing`: the file's session, read again as a
   * new generation.
   */
  private importWhole(
    file: string,
    whole: WholeFile,
    existing: SessionRow | undefined,
    options: SyncOptions,
    reason: "rewritten" | "recovered",
    unknownReason: string | null = null,
  ): ImportReport {
    const signal = options.signal;
    let headerProblem: string | null = null;
    let sessionId = "";
    let writer: EntryWriter | undefined;
    let rebuildIndex: (() => void) | null = null;
    const missingIds: ImportIssue[] = [];
    const tally = new AgentTally(); // foreign: agent and compaction counts, written once
    const report = this.db
      .transaction(() => {
        const read = streamWhole(
          () => whole.reader(),
          {
            header: (header, fromVersion) => {
              headerProblem = headerFieldProblem(header);
              if (headerProblem !== null) return false;
              sessionId = this.startWholeImport(file, header, fromVersion, existing);
              rebuildIndex = deferIdIndex(this.db, whole.stat.size);
              writer = new EntryWriter(this.db, sessionId, { seq: 0, stored: false, checkTree: true });
              return true;
            },
            entries: (batch) => {
              if (!writer) return;
              const pending = this.withIds(batch, missingIds);
              writer.add(pending);
              tally.add(pending.map((p) => p.entry));
            },
            progress: (bytes) => {
              throwIfAborted(signal);
              options.onBytes?.(bytes);
            },
          },
          this.ctx.random,
        );
        throwIfAborted(signal);
        if (!read.header || !writer) {
          // not a session: say so without echoing the file's content (it may be anything)
          const message = headerProblem ?? unknownReason ?? notASessionMessage(read.issues);
          return this.storeReport({
            sourcePath: file,
            sessionId: existing?.id ?? null,
            status: "not-a-session",
            bytesRead: whole.stat.size,
            entriesAdded: 0,
            issues: [{ line: read.issues[0]?.line ?? 0, kind: read.issues[0]?.kind ?? "missing-header", message }],
            message,
          });
        }
        const written = writer.finish();
        rebuildIndex?.();
        this.foreign.agents.noteTally(sessionId, tally);
        if (written.irregular) this.sql("UPDATE sessions SET irregular = 1 WHERE id = ?").run(sessionId);
        const issues = [...read.issues, ...headerFieldWarnings(read.header), ...missingIds, ...written.issues];
        if (existing) {
          issues.unshift({
            line: 0,
            kind: "rewritten",
            message:
              reason === "recovered"
                ? "read again whole: a Bonsai process was stopped during a change to this file, and the store now holds exactly what the file holds; pruned originals of entries that are still pruned were kept"
                : "the file changed other than by appending (rewritten, truncated or edited): it was read again as a new generation of the session; pruned originals of entries that are still pruned were kept",
          });
          this.dropStalePrunedOriginals(sessionId);
        }
        this.refreshSessionMeta(this.requireSession(sessionId), written.lastId, written, true);
        this.saveFileState(sessionId, whole.stateAt(read.endOffset, read.endLines));
        return this.storeReport({
          sourcePath: file,
          sessionId,
          status: existing ? "reimported" : "imported",
          bytesRead: whole.stat.size,
          entriesAdded: written.added,
          issues,
          message: `${written.added} entries (format v${read.fromVersion}${read.fromVersion < CURRENT_SESSION_VERSION ? `, migrated to v${CURRENT_SESSION_VERSION} in the store only` : ""})${issues.length > 0 ? `, ${issues.length} issues` : ""}`,
        });
      })
      .immediate();
    if (report.status === "not-a-session") return report;
    this.ctx.events.entriesWritten();
    this.ctx.events.emit("session-updated", { sessionId, reason: existing ? "reimported" : "imported" });
    return report;
  }

  /** The session row of a whole read: a new session, or `existing` emptied for its next generation. Returns its id. */
  private startWholeImport(file: string, header: SessionHeader, fromVersion: number, existing: SessionRow | undefined): string {
    const cwd = typeof header.cwd === "string" ? header.cwd : "";
    const created = typeof header.timestamp === "string" ? header.timestamp : "";
    if (existing) {
      this.clearEntries(existing.id);
      this.sql("UPDATE sessions SET header_id = ?, header_json = ?, cwd = ?, source_version = ?, created_at = ?, generation = generation + 1 WHERE id = ?").run(
        header.id,
        JSON.stringify(header),
        cwd,
        fromVersion,
        created,
        existing.id,
      );
      return existing.id;
    }
    const sessionId = this.newSessionIdFor(header.id, file);
    this.sql(
      `INSERT INTO sessions (id, header_id, cwd, header_json, source_path, source_format, source_version, created_at, updated_at, imported_at)
       VALUES (?, ?, ?, ?, ?, 'pi-jsonl', ?, ?, ?, ?)`,
    ).run(sessionId, header.id, cwd, JSON.stringify(header), file, fromVersion, created, created, nowIso());
    return sessionId;
  }

  /** The header id, unless another file already brought a session with that id. */
  private newSessionIdFor(headerId: string, file: string): string {
    if (!this.sessionRow(headerId)) return headerId;
    const suffix = sha256(file).slice(0, 8);
    let id = `${headerId}-${suffix}`;
    for (let n = 2; this.sessionRow(id); n++) id = `${headerId}-${suffix}-${n}`;
    return id;
  }

  /** foreign: a file read as Claude Code or Codex before is a pi file now (it was rewritten). */
  private becamePiFile(sessionId: string): void {
    this.sql("UPDATE sessions SET source_format = 'pi-jsonl' WHERE id = ?").run(sessionId);
    this.foreign.agents.clearForeign(sessionId);
    this.foreign.forget(sessionId);
  }

  private clearEntries(sessionId: string): void {
    this.ctx.state.entryWrites++;
    this.foreign.agents.noteCleared(sessionId); // foreign: agent and compaction counts
    this.sql("DELETE FROM entries_fts WHERE rowid IN (SELECT pk FROM entries WHERE session_id = ? AND indexed = 1)").run(sessionId);
    this.sql("DELETE FROM entry_json WHERE pk IN (SELECT pk FROM entries WHERE session_id = ?)").run(sessionId);
    this.sql("DELETE FROM entries WHERE session_id = ?").run(sessionId);
    this.sql("DELETE FROM labels WHERE session_id = ?").run(sessionId);
    this.sql("UPDATE sessions SET irregular = 0 WHERE id = ?").run(sessionId);
  }

  private dropStalePrunedOriginals(sessionId: string): void {
    // keep an original only while its entry exists and is still pruned
    this.sql(
      `DELETE FROM pruned_outputs WHERE session_id = ? AND entry_id NOT IN
         (SELECT id FROM entries WHERE session_id = ? AND (flags & ${FLAG_PRUNED}) != 0)`,
    ).run(sessionId, sessionId);
  }

  // ---------------------------------------------------------------- tree checks

  /**
   * The appended entries with ids, and their issues against the stored ones and each other
   * (duplicate ids, missing parents, cycles); `lookups` remembers what it read of the stored
   * entries, for the writer to use instead of reading it again.
   */
  private appendedChecks(row: SessionRow, issues: { missingIds: ImportIssue[]; tree: ImportIssue[] }, lookups: StoredIdLookups): (entries: readonly ReadEntry[]) => PendingEntry[] {
    // a v1 file's lines have no ids of their own: the first appended one is linked to the last stored entry
    const linksFirstLine = row.source_version < 2;
    const inChunk = new Map<string, number | null>();
    let first = true;
    return (entries) => {
      const pending = this.withIds(entries, issues.missingIds);
      pending.forEach((p, i) => this.checkAppendedEntry(p, linksFirstLine && first && i === 0, inChunk, issues.tree, lookups));
      if (linksFirstLine && first) this.linkFirstLegacyLine(row.id, pending);
      if (pending.length > 0) first = false;
      return pending;
    };
  }

  /** `linked`: the first line of a v1 file's appended lines (linkFirstLegacyLine gives it its parent). */
  private checkAppendedEntry(p: PendingEntry, linked: boolean, inChunk: Map<string, number | null>, issues: ImportIssue[], lookups: StoredIdLookups): void {
    const id = p.entry.id;
    const earlier = inChunk.has(id) ? inChunk.get(id) : lookups.get(id)?.line;
    if (earlier !== undefined) {
      issues.push({ line: p.line ?? 0, kind: "duplicate-id", entryId: id, message: `duplicate entry id ${id} (first on line ${earlier ?? "?"}): both are kept, lookups by id find this later one` });
    }
    inChunk.set(id, p.line);
    const parent = p.entry.parentId;
    if (linked) return;
    if (parent === null || parent === undefined || parent === "") return;
    if (!inChunk.has(parent) && lookups.get(parent) === undefined) {
      issues.push({ line: p.line ?? 0, kind: "missing-parent", entryId: id, message: `entry ${id}: parent ${String(parent)} is not in the file; the entry is treated as a root` });
    } else if (parent === id) {
      issues.push({ line: p.line ?? 0, kind: "parent-cycle", entryId: id, message: `entry ${id} is its own parent: paths stop there` });
    }
  }

  /** Reads of "the last stored entry with this id" (seq and line), each id read once. */
  private storedIdLookups(sessionId: string): StoredIdLookups {
    const statement = this.sql(lastWithId("seq, line"));
    const read = new Map<string, StoredId | undefined>();
    return {
      get: (id) => {
        if (read.has(id)) return read.get(id);
        const found = statement.get(sessionId, id, sessionId, id) as StoredId | undefined;
        read.set(id, found);
        return found;
      },
    };
  }

  private withIds(entries: readonly ReadEntry[], issues: ImportIssue[]): PendingEntry[] {
    const out: PendingEntry[] = [];
    for (const e of entries) {
      const id = (e.entry as { id?: unknown }).id;
      if (typeof id !== "string" || id === "") {
        issues.push({ line: e.line, kind: "missing-id", message: "entry without an id: not loaded (kept in this report)", text: e.json });
        continue;
      }
      out.push({ entry: e.entry, json: e.json, bytes: e.bytes, line: e.line });
    }
    return out;
  }

  // ---------------------------------------------------------------- inserting

  /** Writes entries after the session's stored ones (file order). Caller holds the transaction. */
  private writeEntries(sessionId: string, pending: readonly PendingEntry[]): WriterResult {
    const writer = this.entryAppender(sessionId, this.storedIdLookups(sessionId));
    writer.add(pending);
    return writer.finish();
  }

  /**
   * Writes entries after the session's stored ones (file order), batch by batch; `finish` once after
   * the last. Caller holds the transaction. `lookups`: the append's reads of stored ids (shared with
   * its checks, so that no id is read twice).
   */
  private entryAppender(sessionId: string, lookups: StoredIdLookups): { add(pending: readonly PendingEntry[]): void; finish(): WriterResult } {
    this.ctx.state.entryWrites++;
    const last = this.sql("SELECT seq FROM entries WHERE session_id = ? ORDER BY seq DESC LIMIT 1").pluck().get(sessionId) as number | undefined;
    const count = last === undefined ? 0 : last + 1;
    const writer = new EntryWriter(this.db, sessionId, { seq: count, stored: count > 0 ? (id) => lookups.get(id)?.seq : false, checkTree: false });
    const tally = new AgentTally(); // foreign: agent and compaction counts, written once
    return {
      add: (pending) => {
        writer.add(pending);
        tally.add(pending.map((p) => p.entry));
      },
      finish: () => {
        const written = writer.finish();
        if (written.irregular) this.sql("UPDATE sessions SET irregular = 1 WHERE id = ?").run(sessionId);
        if (count > 0) settleRecentIds(this.db, sessionId);
        this.foreign.agents.noteTally(sessionId, tally);
        return written;
      },
    };
  }

  /** A v1 file's appended lines have no ids: core's migration chained them from null; the first hangs off the last stored entry. */
  private linkFirstLegacyLine(sessionId: string, pending: PendingEntry[]): void {
    const first = pending[0];
    if (!first) return;
    const last = this.sql("SELECT id FROM entries WHERE session_id = ? ORDER BY seq DESC LIMIT 1").pluck().get(sessionId) as string | undefined;
    first.entry.parentId = last ?? null;
    first.json = JSON.stringify(first.entry);
  }

  /**
   * Counts, title, first message, updated time after `written` was stored (`whole`: the session's
   * entries are exactly those); the leaf moves to `leafId` when given. Appends cost what they add:
   * counts are added up, and the title and first message are looked up only when they can change.
   */
  private refreshSessionMeta(row: SessionRow, leafId: string | null | undefined, written: WriterResult, whole: boolean): void {
    const sessionId = row.id;
    const entryCount = whole ? written.added : written.startSeq + written.added;
    const messageCount = whole ? written.messages : row.message_count + written.messages;
    let firstMessage = row.first_message;
    if (whole || (firstMessage === "" && written.types.has("message"))) {
      const firstUser = this.sql(
        "SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.type = 'message' AND e.role = 'user' ORDER BY e.seq LIMIT 1",
      ).pluck().get(sessionId) as string | undefined;
      firstMessage = oneLine(firstUser ? (deriveColumns(JSON.parse(firstUser) as SessionEntry).userText ?? "") : "", 500);
    }
    const title = whole || written.types.has("session_info") || written.types.has("compaction") ? this.resolveTitle(row) : row.title;
    const updated = written.latestTimestamp > row.updated_at ? written.latestTimestamp : row.updated_at;
    this.sql("UPDATE sessions SET entry_count = ?, message_count = ?, first_message = ?, title = ?, updated_at = ? WHERE id = ?").run(
      entryCount,
      messageCount,
      firstMessage,
      title,
      updated,
      sessionId,
    );
    if (leafId !== undefined) this.sql("UPDATE sessions SET leaf_id = ? WHERE id = ?").run(leafId, sessionId);
  }

  /** foreign: counts, title, first message and leaf of a session from what is stored (a foreign reader's changes). */
  private recountSessionMeta(sessionId: string, leafId?: string | null): void {
    const counts = this.sql("SELECT count(*) AS n, coalesce(sum(type = 'message'), 0) AS m, coalesce(max(timestamp), '') AS latest FROM entries WHERE session_id = ?").get(sessionId) as {
      n: number;
      m: number;
      latest: string;
    };
    const written: WriterResult = { startSeq: 0, added: counts.n, types: new Set(), messages: counts.m, latestTimestamp: counts.latest, lastId: null, irregular: false, issues: [] };
    this.refreshSessionMeta(this.requireSession(sessionId), leafId, written, true);
  }

  /** header title, else the latest session_info's name, else the latest compaction's shortSummary */
  private resolveTitle(row: SessionRow): string | null {
    const header = storedHeader(row);
    if (typeof header.title === "string" && header.title !== "") return header.title;
    const info = this.sql("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.type = 'session_info' ORDER BY e.seq DESC LIMIT 1").pluck().get(row.id) as
      | string
      | undefined;
    const name = info ? (JSON.parse(info) as { name?: unknown }).name : undefined;
    if (typeof name === "string" && name !== "") return name;
    const short = this.sql(
      "SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.type = 'compaction' AND j.json LIKE '%\"shortSummary\"%' ORDER BY e.seq DESC LIMIT 1",
    ).pluck().get(row.id) as string | undefined;
    const s = short ? (JSON.parse(short) as { shortSummary?: unknown }).shortSummary : undefined;
    return typeof s === "string" && s !== "" ? s : null;
  }

  private saveFileState(sessionId: string, s: FileState): void {
    this.sql(
      "UPDATE sessions SET file_size = ?, file_mtime_ms = ?, file_offset = ?, file_lines = ?, head_hash = ?, tail_hash = ?, imported_at = ? WHERE id = ?",
    ).run(s.size, s.mtimeMs, s.offset, s.lines, s.headHash, s.tailHash, nowIso(), sessionId);
  }

  // ================================================================ sessions

  createSession(init: { cwd?: string; title?: string; id?: string } = {}): SessionSummary {
    const id = init.id ?? generateSessionId(this.ctx.random);
    if (this.sessionRow(id)) throw new StoreError(`a session ${id} already exists`);
    const timestamp = nowIso();
    const header: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id, timestamp, cwd: init.cwd ?? "" };
    if (init.title) header.title = init.title;
    this.sql(
      `INSERT INTO sessions (id, header_id, title, cwd, header_json, source_format, source_version, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'bonsai', ?, ?, ?)`,
    ).run(id, id, init.title ?? null, header.cwd, JSON.stringify(header), CURRENT_SESSION_VERSION, timestamp, timestamp);
    return this.getSession(id) as SessionSummary;
  }

  deleteSession(sessionId: string): void {
    this.requireSession(sessionId);
    this.ctx.locks.run(sessionId, () =>
      this.db.transaction(() => {
        this.clearEntries(sessionId);
        this.sql("DELETE FROM pruned_outputs WHERE session_id = ?").run(sessionId);
        this.sql("DELETE FROM sessions WHERE id = ?").run(sessionId);
      })(),
    );
    this.foreign.forget(sessionId);
    this.ctx.events.emit("session-updated", { sessionId, reason: "removed" });
  }

  getSessionTitles(): Map<string, string> {
    return readSessionTitles(this.db);
  }

  setSessionTitle(sessionId: string, title: string | null): void {
    this.requireSession(sessionId);
    writeSessionTitle(this.db, sessionId, title);
  }

  countSessionShape(sessionId: string): { compactions: number; branches: number } {
    this.requireSession(sessionId);
    return countSessionShape(this.db, sessionId);
  }

  // ================================================================ entries


  /** Changes when entries change here or another connection (CLI, worker) commits to the file. */
  private skeletonStamp(): string {
    return `${String(this.db.pragma("data_version", { simple: true }))}:${this.ctx.state.entryWrites}`;
  }

  getSkeleton(sessionId: string): TreeSkeleton {
    const row = this.requireSession(sessionId);
    const stamp = this.skeletonStamp();
    const cached = this.ctx.state.skeletons.get(sessionId);
    if (cached && cached.stamp === stamp) return { sessionId, leafId: row.leaf_id, nodes: [...cached.nodes] };
    const nodes = this.readSkeletonNodes(sessionId);
    this.ctx.state.skeletons.delete(sessionId);
    this.ctx.state.skeletons.set(sessionId, { stamp, nodes });
    while (this.ctx.state.skeletons.size > SKELETON_CACHE) this.ctx.state.skeletons.delete(this.ctx.state.skeletons.keys().next().value as string);
    return { sessionId, leafId: row.leaf_id, nodes: [...nodes] };
  }

  getPackedSkeleton(sessionId: string): PackedSkeleton {
    const row = this.requireSession(sessionId);
    return readPackedSkeleton(this.statements, sessionId, row.leaf_id, () => packSkeleton(this.getSkeleton(sessionId), { previews: "heads" }));
  }

  /**
   * getPackedSkeleton as JSON text, for a store job to send: a big session's is kept in the
   * database between starts and read again only when the session changed (reads/skeleton-cache.ts);
   * `keep` stores one just read (run it after answering).
   */
  getPackedSkeletonJson(sessionId: string): SkeletonJson {
    return packedSkeletonJson(this.statements, sessionId, () => this.getPackedSkeleton(sessionId));
  }

  getSkeletonTail(sessionId: string, from: number): SkeletonNode[] {
    this.requireSession(sessionId);
    return this.readSkeletonNodes(sessionId, Math.max(0, Math.floor(from)));
  }

  private readSkeletonNodes(sessionId: string, from = 0): SkeletonNode[] {
    const labels = new Map<string, string>();
    for (const l of this.sql("SELECT target_id, label FROM labels WHERE session_id = ? AND label IS NOT NULL").raw().all(sessionId) as [string, string][]) {
      labels.set(l[0], l[1]);
    }
    // one pass over the rows as they come (no array of 100,000 row arrays to collect afterwards)
    const nodes: SkeletonNode[] = [];
    const rows = this.sql(`SELECT ${SKELETON_COLUMNS} FROM entries WHERE session_id = ? ORDER BY seq LIMIT -1 OFFSET ?`)
      .raw()
      .iterate(sessionId, from) as IterableIterator<SkeletonRow>;
    for (const r of rows) {
      const [id, parentId, type, role, timestamp, tokens, preview, toolName, customType, stopReason, refId, tokensBefore, flags] = r;
      const node: SkeletonNode = { id, parentId, type, role, timestamp, tokens, preview };
      const label = labels.get(id);
      if (label !== undefined) node.label = label;
      if (toolName !== null) node.toolName = toolName;
      if (flags & FLAG_PRUNED) node.pruned = true;
      if (flags & FLAG_THINKING) node.thinking = true;
      if (flags & FLAG_FROM_EXTENSION) node.fromExtension = true;
      if (flags & FLAG_OFFLINE) node.offline = true;
      if (stopReason !== null) node.stopReason = stopReason;
      if (customType !== null) node.customType = customType;
      if (refId !== null) {
        if (type === "compaction") node.firstKeptEntryId = refId;
        else node.fromId = refId;
      }
      if (tokensBefore !== null) node.tokensBefore = tokensBefore;
      nodes.push(node);
    }
    return nodes;
  }

  setLeaf(sessionId: string, leafId: string | null): void {
    this.ctx.locks.run(sessionId, () => this.setLeafHeld(sessionId, leafId));
  }

  private setLeafHeld(sessionId: string, leafId: string | null): void {
    this.requireSession(sessionId);
    if (leafId !== null && !this.getEntryInfo(sessionId, leafId)) throw new StoreError(`Entry ${leafId} not found`);
    this.sql("UPDATE sessions SET leaf_id = ? WHERE id = ?").run(leafId, sessionId);
    this.ctx.events.emit("session-updated", { sessionId, reason: "leaf" });
  }

  // ================================================================ writes

  /**
   * Resolves what killed processes left in the journal (called by openStore): each abandoned file
   * operation's temporary files are removed and its session is read again from the file, so the
   * store and the file agree. Safe to call any time; operations of live processes are left alone.
   */
  recoverSources(): RecoveryReport {
    return this.ctx.files.recover((intent, whole) => this.ctx.locks.run(intent.sessionId, () => {
      const row = this.sessionRow(intent.sessionId);
      if (!row || row.source_path !== intent.file || row.detached !== null || !fs.existsSync(intent.file)) return;
      const report = this.syncFile(intent.file, "follow", { whole });
      if (report.status === "failed") throw new StoreError(report.message);
    }));
  }

  /**
   * Reads again, whole, each session a past version left with two rows for one line of its file
   * (migration 016 lists them), so that the store and an export hold exactly the file's lines. A
   * session whose file cannot be read now stays listed for the next open.
   */
  repairDuplicateLines(): number {
    let repaired = 0;
    for (const { session_id: id } of this.sql("SELECT session_id FROM line_repairs").all() as { session_id: string }[]) {
      const row = this.sessionRow(id);
      if (row?.source_path && row.detached === null && fs.existsSync(row.source_path)) {
        const report = this.syncFile(row.source_path, "follow", { whole: true });
        if (report.status === "failed" || report.status === "not-a-session") continue;
        repaired++;
      } else if (row?.source_path && row.detached === null) {
        continue;
      }
      this.sql("DELETE FROM line_repairs WHERE session_id = ?").run(id);
    }
    return repaired;
  }

  /** Before a write into the source file: the session must still have one, and it must be writable. */
  private prepareWrite(row: SessionRow): SessionRow {
    // foreign: Claude Code and Codex sessions are never written (not even in the store: a pi copy takes changes)
    if (isForeignFormat(row.source_format)) throw new ReadOnlySessionError(row.id, row.source_format);
    if (row.source_path === null || row.detached !== null) return row;
    if (!fs.existsSync(row.source_path)) {
      throw new StoreError(`the source file ${row.source_path} of session ${row.id} is missing; export the session to keep working on it`);
    }
    return this.detachIfNotWritable(row);
  }

  /** Reads the source file up to date before a write; refuses when it cannot be read. */
  private syncForWrite(row: SessionRow): void {
    const file = this.writtenSource(row);
    if (file === null) return;
    const report = this.syncFile(file, "follow");
    if (report.status === "failed" || report.status === "not-a-session") {
      throw new StoreError(`cannot write session ${row.id}: its source file cannot be read (${report.message})`);
    }
  }

  /** A session whose source must not be written keeps its changes in the store from now on (detached). */
  private detachIfNotWritable(row: SessionRow): SessionRow {
    if (row.source_path === null || row.detached !== null) return row;
    const reason = this.ctx.files.whyNotWritable(row.source_path);
    if (reason === null) return row;
    this.sql("UPDATE sessions SET detached = ? WHERE id = ?").run(reason, row.id);
    this.ctx.events.emit("session-updated", { sessionId: row.id, reason: "detached" });
    return this.requireSession(row.id);
  }

  /** the file a change is written to: null for store-only and detached sessions */
  private writtenSource(row: SessionRow): string | null {
    return row.detached === null ? row.source_path : null;
  }

  /**
   * Refuses a commit whose plan no longer holds (the store is up to date with the file when this
   * runs). `parentId` = where the new entry goes (null: a new root).
   */
  private checkExpectation(sessionId: string, expect: CommitExpectation | undefined, parentId: string | null): void {
    if (!expect) return;
    if (expect.leafId !== undefined) {
      const leaf = this.requireSession(sessionId).leaf_id;
      if (leaf !== expect.leafId) {
        const planned = expect.leafId ?? "the root";
        const gone = expect.leafId !== null && !this.getEntryInfo(sessionId, expect.leafId);
        const now = leaf === null ? "the session has no leaf now" : `the leaf is now ${leaf}`;
        throw new StaleCommitError(
          `the session changed since this was planned: it was planned from ${planned}, ${gone ? "which is no longer in the session (the file was rewritten)" : "and the agent or another window moved on"}; ${now}. Nothing was written; plan it again`,
        );
      }
    }
    for (const id of expect.exists ?? []) {
      if (!this.getEntryInfo(sessionId, id)) {
        throw new StaleCommitError(`the session changed since this was planned: entry ${id} is no longer in it (the file was rewritten). Nothing was written; plan it again`);
      }
    }
    if (expect.onPath && expect.onPath.length > 0) {
      for (const id of expect.onPath) {
        if (parentId === null || !this.isOnPath(sessionId, id, parentId)) {
          throw new StaleCommitError(
            `the session changed since this was planned: entry ${id} is no longer on the path to ${parentId ?? "the root"}. Nothing was written; plan it again`,
          );
        }
      }
    }
  }


  /** The stored JSON of entries by line, for lines [from, to] (line numbers of the source file). */
  private storedLines(sessionId: string, from: number, to: number): Map<number, string> {
    const out = new Map<number, string>();
    const rows = this.sql("SELECT e.line, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.line BETWEEN ? AND ? ORDER BY e.seq")
      .raw()
      .iterate(sessionId, from, to) as IterableIterator<[number, string]>;
    for (const [l, json] of rows) out.set(l, json);
    return out;
  }

  /**
   * A legacy (v1/v2) file in the store's v3 form: the header line and every entry line as the store
   * holds them (migrated, with the ids generated at import); other lines kept as they are.
   * `firstLine` = the line number of bytes[0] in the file.
   */
  private renderMigrated(row: SessionRow, bytes: Buffer, firstLine: number): Buffer {
    const lines = bytes.reduce((n, b) => (b === 0x0a ? n + 1 : n), 0) + 1;
    const edits = new Map<number, LineReplacement>();
    for (const [l, json] of this.storedLines(row.id, firstLine, firstLine + lines - 1)) edits.set(l - firstLine + 1, { text: json, expect: null });
    if (firstLine === 1) {
      const headerLine = headerLineOf(bytes);
      if (headerLine > 0) edits.set(headerLine, { text: row.header_json, expect: null });
    }
    return replaceLines(bytes, edits);
  }

  /**
   * A guarded rewrite of the session's source file (source/safe-rewrite.ts): `edits(bytes)` gives
   * the lines to replace once the store has read the file up to date; `apply`/`undo` change the
   * store (apply commits with the journal intent); `written` runs with the intent's clearing.
   */
  private rewriteSource(row: SessionRow, why: string, change: EntriesChange): void {
    const file = this.writtenSource(row);
    if (file === null) throw new StoreError(`session ${row.id} has no source file to rewrite`);
    try {
      this.runRewrite(row, file, why, change);
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw new StoreError(`could not write ${file}: ${errorMessage(err)}; the store was left unchanged`);
    }
  }

  private runRewrite(row: SessionRow, file: string, why: string, change: EntriesChange): void {
    let migrating = false;
    this.ctx.files.rewrite({
      sessionId: row.id,
      file,
      why,
      absorb: (bytes, stat) => {
        const report = this.applyChange(file, this.requireSession(row.id), changeFromBytes(bytes, stat, knownFileOf(this.requireSession(row.id))), "follow", {}, "rewritten");
        if (report.status === "failed" || report.status === "not-a-session") {
          throw new StoreError(`cannot write session ${row.id}: its source file cannot be read (${report.message})`);
        }
        migrating = this.requireSession(row.id).source_version < CURRENT_SESSION_VERSION;
      },
      render: (bytes) => {
        const base = migrating ? this.renderMigrated(this.requireSession(row.id), bytes, 1) : bytes;
        return replaceLines(base, change.edits(bytes));
      },
      catchUp: (delta, offset, linesBefore, fileAfter) => {
        const current = this.requireSession(row.id);
        this.importAppended(current, appendedDuringRewrite(delta, fileAfter), offset, "follow");
        return migrating ? this.renderMigrated(current, delta, linesBefore + 1) : delta;
      },
      apply: change.apply,
      undo: change.undo,
      written: (state) => {
        this.saveFileState(row.id, state);
        if (migrating) this.sql("UPDATE sessions SET source_version = ? WHERE id = ?").run(CURRENT_SESSION_VERSION, row.id);
        change.written();
      },
    });
  }

  /** A legacy (v1/v2) source is rewritten in the current format before the first append to it. */
  private upgradeSourceFormat(row: SessionRow): SessionRow {
    if (this.writtenSource(row) === null || row.source_version >= CURRENT_SESSION_VERSION) return row;
    const noEdits = new Map<number, LineReplacement>();
    this.rewriteSource(row, "format upgrade to v3", { edits: () => noEdits, apply: () => undefined, undo: () => undefined, written: () => undefined });
    return this.requireSession(row.id);
  }

  appendEntry(sessionId: string, body: NewEntry, options: AppendOptions = {}): SessionEntry {
    return this.ctx.locks.run(sessionId, () => this.appendEntryHeld(sessionId, body, options));
  }

  private appendEntryHeld(sessionId: string, body: NewEntry, options: AppendOptions): SessionEntry {
    const row = this.prepareWrite(this.requireSession(sessionId));
    // the commit's checks (expected state, parent): run before any write, and again on the line's build
    const checkedParent = (): string | null => {
      const current = this.requireSession(sessionId);
      const parentId = options.parentId === undefined ? current.leaf_id : options.parentId;
      this.checkExpectation(sessionId, options.expect, parentId);
      if (parentId !== null && !this.getEntryInfo(sessionId, parentId)) throw new StoreError(`Entry ${parentId} not found`);
      return parentId;
    };
    const build = (): SessionEntry => {
      const parentId = checkedParent();
      const stored = this.storedIdLookups(sessionId);
      const taken = { has: (id: string): boolean => stored.get(id) !== undefined };
      const id = new EntryIdGenerator(this.ctx.random).next(taken);
      return this.shapeEntry(body, id, parentId, new Date(this.ctx.random.now()).toISOString());
    };
    const file = this.writtenSource(row);
    if (file === null) {
      const entry = build();
      const added = this.db
        .transaction(() => {
          const out = [entry];
          const written = this.writeEntries(sessionId, [{ entry, json: JSON.stringify(entry), line: null }]);
          this.refreshSessionMeta(this.requireSession(sessionId), entry.id, written, false);
          this.sql("UPDATE sessions SET updated_at = ? WHERE id = ?").run(nowIso(), sessionId);
          return out;
        })
        .immediate();
      this.ctx.events.entriesWritten();
      this.ctx.events.emit("entries-added", { sessionId, entries: added, source: "append" });
      return entry;
    }
    // the file first (source/safe-append.ts); the store then reads the line back like any appended line
    this.syncForWrite(row);
    // a refused commit (stale, unknown parent) writes nothing: no format upgrade, no backup
    checkedParent();
    this.upgradeSourceFormat(this.requireSession(sessionId));
    let entry: SessionEntry | undefined;
    this.ctx.files.append({
      sessionId,
      file,
      absorb: () => this.syncForWrite(this.requireSession(sessionId)),
      line: () => {
        entry = build();
        return { text: JSON.stringify(entry), ids: [entry.id] };
      },
      absorbAfter: () => {
        this.syncFile(file, "append");
      },
    });
    const id = (entry as SessionEntry).id;
    const stored = this.getEntryInfo(sessionId, id);
    if (!stored) throw new StoreError(`the entry was written to ${file} but could not be read back`);
    this.sql("UPDATE sessions SET leaf_id = ? WHERE id = ?").run(id, sessionId);
    this.ctx.events.emit("session-updated", { sessionId, reason: "appended" });
    return stored.entry;
  }

  /** omp key order: type, id, parentId, timestamp, body — custom/custom_message put their body first. */
  private shapeEntry(body: NewEntry, id: string, parentId: string | null, timestamp: string): SessionEntry {
    const { type, id: _i, parentId: _p, timestamp: _t, ...rest } = body;
    if (type === "custom" || type === "custom_message") return { type, ...rest, id, parentId, timestamp } as SessionEntry;
    return { type, id, parentId, timestamp, ...rest } as SessionEntry;
  }

  appendLabel(sessionId: string, targetId: string, label: string | undefined): SessionEntry {
    if (!this.getEntryInfo(sessionId, targetId)) throw new StoreError(`Entry ${targetId} not found`);
    const body: NewEntry = { type: "label", targetId };
    if (label !== undefined && label !== "") body.label = label;
    // the target is checked again once the file has been read up to date
    return this.appendEntry(sessionId, body, { expect: { exists: [targetId] } });
  }

  // ================================================================ pruning

  applyPruning(sessionId: string, results: readonly { entryId: string; message: unknown }[], options: PruneOptions = {}): number {
    return this.ctx.locks.run(sessionId, () => this.applyPruningHeld(sessionId, results, options));
  }

  private applyPruningHeld(sessionId: string, results: readonly { entryId: string; message: unknown }[], options: PruneOptions): number {
    const byId = new Map(results.map((r) => [r.entryId, r]));
    if (byId.size === 0) return 0;
    const row = this.prepareWrite(this.requireSession(sessionId));
    /** each entry's JSON now and pruned, and its kept original row (a second pruning keeps the first original) */
    const plan = (): EntryEdit[] => {
      this.checkExpectation(sessionId, options.expect, this.requireSession(sessionId).leaf_id);
      return [...byId.values()].map((r) => {
        const info = this.getEntryInfo(sessionId, r.entryId);
        if (!info || info.entry.type !== "message") throw new StoreError(`cannot prune ${r.entryId}: no such tool result in session ${sessionId}`);
        const before = this.sql("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.seq = ?").pluck().get(sessionId, info.seq) as string;
        const after = JSON.stringify({ ...info.entry, message: r.message });
        const prunedAt = (r.message as { prunedAt?: unknown }).prunedAt;
        return { entryId: r.entryId, seq: info.seq, line: info.line, before, after, prunedAt: typeof prunedAt === "number" ? prunedAt : Date.now(), kept: this.keptOriginal(sessionId, r.entryId) };
      });
    };
    const apply = (edits: readonly EntryEdit[]): void => {
      for (const e of edits) {
        this.sql(
          `INSERT INTO pruned_outputs (session_id, entry_id, original_json, pruned_json, pruned_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (session_id, entry_id) DO UPDATE SET pruned_json = excluded.pruned_json, pruned_at = excluded.pruned_at`,
        ).run(sessionId, e.entryId, e.before, e.after, e.prunedAt);
        this.replaceEntryJson(sessionId, e.seq, JSON.parse(e.after) as SessionEntry, e.after);
      }
      this.sql("UPDATE sessions SET updated_at = ? WHERE id = ?").run(nowIso(), sessionId);
    };
    const undo = (edits: readonly EntryEdit[]): void => {
      for (const e of edits) {
        this.replaceEntryJson(sessionId, e.seq, JSON.parse(e.before) as SessionEntry, e.before);
        if (e.kept === undefined) this.sql("DELETE FROM pruned_outputs WHERE session_id = ? AND entry_id = ?").run(sessionId, e.entryId);
        else this.sql("UPDATE pruned_outputs SET pruned_json = ?, pruned_at = ? WHERE session_id = ? AND entry_id = ?").run(e.kept.prunedJson, e.kept.prunedAt, sessionId, e.entryId);
      }
    };
    const count = this.changeEntries(row, "prune", plan, apply, undo, () => undefined);
    this.ctx.events.emit("session-updated", { sessionId, reason: "pruned" });
    return count;
  }

  restorePruned(sessionId: string, entryIds?: readonly string[]): number {
    return this.ctx.locks.run(sessionId, () => this.restorePrunedHeld(sessionId, entryIds));
  }

  private restorePrunedHeld(sessionId: string, entryIds: readonly string[] | undefined): number {
    const row = this.prepareWrite(this.requireSession(sessionId));
    const wanted = (): string[] => entryIds ? [...new Set(entryIds)] : (this.sql("SELECT entry_id FROM pruned_outputs WHERE session_id = ?").pluck().all(sessionId) as string[]);
    const plan = (): EntryEdit[] => {
      const edits: EntryEdit[] = [];
      for (const id of wanted()) {
        const kept = this.keptOriginal(sessionId, id);
        const info = kept === undefined ? undefined : this.getEntryInfo(sessionId, id);
        if (kept === undefined || !info) continue;
        const before = this.sql("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.seq = ?").pluck().get(sessionId, info.seq) as string;
        edits.push({ entryId: id, seq: info.seq, line: info.line, before, after: kept.originalJson, prunedAt: kept.prunedAt, kept });
      }
      return edits;
    };
    const apply = (edits: readonly EntryEdit[]): void => {
      for (const e of edits) this.replaceEntryJson(sessionId, e.seq, JSON.parse(e.after) as SessionEntry, e.after);
    };
    const undo = (edits: readonly EntryEdit[]): void => {
      for (const e of edits) this.replaceEntryJson(sessionId, e.seq, JSON.parse(e.before) as SessionEntry, e.before);
    };
    // originals are forgotten only once the file holds them again (a killed rewrite keeps them)
    const forget = (edits: readonly EntryEdit[]): void => {
      for (const e of edits) this.sql("DELETE FROM pruned_outputs WHERE session_id = ? AND entry_id = ?").run(sessionId, e.entryId);
      // originals of entries that are gone are dropped too
      for (const id of wanted()) if (!this.getEntryInfo(sessionId, id)) this.sql("DELETE FROM pruned_outputs WHERE session_id = ? AND entry_id = ?").run(sessionId, id);
    };
    const count = this.changeEntries(row, "restore", plan, apply, undo, forget);
    if (count > 0) this.ctx.events.emit("session-updated", { sessionId, reason: "restored" });
    return count;
  }

  private keptOriginal(sessionId: string, entryId: string): KeptOriginal | undefined {
    const r = this.sql("SELECT original_json, pruned_json, pruned_at FROM pruned_outputs WHERE session_id = ? AND entry_id = ?").get(sessionId, entryId) as
      | { original_json: string; pruned_json: string; pruned_at: number }
      | undefined;
    return r ? { originalJson: r.original_json, prunedJson: r.pruned_json, prunedAt: r.pruned_at } : undefined;
  }

  /**
   * Replaces entries' JSON in the store and, for a written-through session, in the source file
   * (one guarded rewrite; the file is read up to date first and `plan` runs on what it holds).
   * `done` runs with the commit (for a file: once the new file is in place). Returns how many.
   */
  private changeEntries(
    row: SessionRow,
    why: string,
    plan: () => EntryEdit[],
    apply: (edits: readonly EntryEdit[]) => void,
    undo: (edits: readonly EntryEdit[]) => void,
    done: (edits: readonly EntryEdit[]) => void,
  ): number {
    if (this.writtenSource(row) === null) {
      return this.db
        .transaction(() => {
          const edits = plan();
          apply(edits);
          done(edits);
          return edits.length;
        })
        .immediate();
    }
    this.syncForWrite(row);
    if (plan().length === 0) {
      this.db.transaction(() => done([])).immediate();
      return 0;
    }
    let edits: EntryEdit[] = [];
    this.rewriteSource(this.requireSession(row.id), why, {
      edits: () => {
        edits = plan();
        const lines = new Map<number, LineReplacement>();
        for (const e of edits) {
          if (e.line === null) throw new StoreError(`entry ${e.entryId} has no line in ${row.source_path}: import the session again`);
          lines.set(e.line, { text: e.after, expect: e.before });
        }
        return lines;
      },
      apply: () => apply(edits),
      undo: () => undo(edits),
      written: () => done(edits),
    });
    return edits.length;
  }

  private replaceEntryJson(sessionId: string, seq: number, entry: SessionEntry, json: string): void {
    this.ctx.state.entryWrites++;
    const d = deriveColumns(entry, false);
    const row = this.sql("SELECT pk, indexed FROM entries WHERE session_id = ? AND seq = ?").get(sessionId, seq) as { pk: number; indexed: number };
    this.sql(
      "UPDATE entries SET tokens = ?, preview = ?, tool_name = ?, flags = ?, stop_reason = ?, custom_type = ?, ref_id = ?, tokens_before = ?, role = ?, file_ops = ?, indexed = 0 WHERE pk = ?",
    ).run(d.tokens, d.preview, d.toolName, d.flags, d.stopReason, d.customType, d.refId, d.tokensBefore, d.role, d.fileOps, row.pk);
    this.sql("UPDATE entry_json SET json = ? WHERE pk = ?").run(json, row.pk);
    if (row.indexed === 1) this.sql("DELETE FROM entries_fts WHERE rowid = ?").run(row.pk);
    this.ctx.events.entriesWritten();
  }

  listPruned(sessionId: string): PrunedOriginal[] {
    const rows = this.sql("SELECT entry_id, original_json, pruned_at FROM pruned_outputs WHERE session_id = ? ORDER BY pruned_at, entry_id").all(sessionId) as {
      entry_id: string;
      original_json: string;
      pruned_at: number;
    }[];
    return rows.map((r) => ({ entryId: r.entry_id, original: JSON.parse(r.original_json) as SessionEntry, prunedAt: r.pruned_at }));
  }

  // ================================================================ export

  /** the same text exportJsonl writes (Claude Code and Codex: the agent's own lines) */
  override renderJsonl(sessionId: string): string {
    if (isForeignFormat(this.requireSession(sessionId).source_format)) return originalText(this.readSession(sessionId)); // foreign: the agent's lines
    return super.renderJsonl(sessionId);
  }

  /** The session as the formats layer reads it (the pi and HTML exports, "Continue in pi"); loads every entry. */
  readSession(sessionId: string, leafId?: string | null): ReadSession {
    const row = this.requireSession(sessionId);
    return storedReadSession({
      format: row.source_format,
      agent: this.agents.fields(row).agent,
      header: storedHeader(row),
      entries: this.loadEntries(sessionId),
      leafId: leafId === undefined ? row.leaf_id : leafId,
      title: row.title,
      facts: this.agents.foreignFacts(sessionId),
    });
  }

  continueInPi(sessionId: string, options?: PiCopyOptions): Promise<PiCopy> {
    return continueInPi(this, sessionId, options);
  }

  async exportJsonl(sessionId: string, file: string): Promise<void> {
    const text = this.renderJsonl(sessionId);
    await Promise.resolve();
    atomicWriteFileSync(path.resolve(file), text);
  }

  async exportMarkdown(sessionId: string, file?: string, options: ExportOptions = {}): Promise<string> {
    const row = this.requireSession(sessionId);
    const entries = this.getPath(sessionId, options.leafId === undefined ? row.leaf_id : options.leafId);
    const md = renderMarkdown(storedHeader(row), row.title, entries);
    await Promise.resolve();
    if (file) atomicWriteFileSync(path.resolve(file), md);
    return md;
  }

  // ================================================================ search

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return search(this.ctx, query, options);
  }

  indexSearch(maxEntries = Infinity): number {
    return indexSearch(this.ctx, maxEntries);
  }

  unindexedCount(sessionId?: string): number {
    return unindexedCount(this.ctx, sessionId);
  }

  resumeIndexing(): void {
    scheduleIndexing(this.ctx);
  }

  quietIndexing(ms: number): void {
    quietIndexing(this.ctx, ms);
  }

  // ================================================================ settings

  getSettingsJson(): unknown {
    const v = this.sql("SELECT value FROM settings WHERE key = 'settings'").pluck().get() as string | undefined;
    return v === undefined ? undefined : (JSON.parse(v) as unknown);
  }

  saveSettingsJson(value: unknown): void {
    const json = JSON.stringify(value);
    if (json === undefined) throw new StoreError("settings must be JSON-serializable");
    this.sql("INSERT INTO settings (key, value) VALUES ('settings', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(json);
  }

  // ================================================================ follow

  follow(options: FollowOptions = {}): Follower {
    const rows = this.sql("SELECT id, source_path FROM sessions WHERE source_path IS NOT NULL AND detached IS NULL").all() as { id: string; source_path: string }[];
    const wanted = options.sessionIds ? new Set(options.sessionIds) : null;
    const targets = rows.filter((r) => !wanted || wanted.has(r.id)).map((r) => ({ sessionId: r.id, file: r.source_path }));
    const follower = startFollower(targets, {
      pollIntervalMs: options.pollIntervalMs ?? 500,
      sync: (t) => {
        if (this.ctx.state.closed) return;
        if (options.sync) options.sync(t);
        else this.followFile(t);
      },
      onClose: () => {
        this.ctx.state.followers.delete(follower);
        stopAdding();
      },
    });
    // without a fixed list, sessions imported later are followed too
    const stopAdding = wanted
      ? () => undefined
      : this.on("session-updated", (e) => {
          if (e.reason !== "imported") return;
          const file = this.sessionRow(e.sessionId)?.source_path;
          if (file) follower.add({ sessionId: e.sessionId, file });
        });
    const stopScanning = options.folders && options.folders.length > 0 ? this.watchFolders(options.folders, options.folderScanMs ?? 2000) : () => undefined;
    const close = follower.close.bind(follower);
    follower.close = () => {
      stopScanning();
      close();
    };
    this.ctx.state.followers.add(follower);
    return follower;
  }

  /** Reads what changed in a followed file (what follow() does when it sees a change); failures become follow-error events. */
  followFile(target: { sessionId: string; file: string }): void {
    if (this.ctx.state.closed) return;
    try {
      const report = this.syncFile(target.file, "follow");
      if (report.status === "failed") this.ctx.events.emit("follow-error", { sessionId: target.sessionId, message: report.message });
    } catch (err) {
      this.ctx.events.emit("follow-error", { sessionId: target.sessionId, message: errorMessage(err) });
    }
  }

  /** Imports session files that appear in `folders` (new paths, or known non-sessions that changed). */
  private watchFolders(folders: readonly string[], everyMs: number): () => void {
    const skipped = new Map<string, string>(); // not a session: path -> size:mtime when last read
    const scan = (): void => {
      if (this.ctx.state.closed) return;
      for (const f of scanPaths(folders.filter((d) => fs.existsSync(d))).files) {
        if (this.sessionBySource(f.path)) continue; // followed already
        let key: string;
        try {
          const st = fs.statSync(f.path);
          key = `${st.size}:${st.mtimeMs}`;
        } catch {
          continue;
        }
        if (skipped.get(f.path) === key) continue;
        const report = this.syncFile(f.path, "import");
        if (report.status === "not-a-session" || report.status === "failed") skipped.set(f.path, key);
      }
    };
    const timer = setInterval(scan, everyMs);
    timer.unref();
    setImmediate(scan);
    return () => clearInterval(timer);
  }

  override close(): void {
    if (this.ctx.state.closed) return;
    for (const f of [...this.ctx.state.followers]) f.close();
    this.ctx.state.closed = true;
    this.ctx.events.removeAll();
    this.db.close();
  }
}
