/**
 * SessionStore on better-sqlite3, composed of the modules by concern in src/modules/ (each a set of
 * functions over one StoreContext); this class is the façade that keeps the SessionStore interface.
 * See session-store.ts for the contract and ../README.md for import, write-through and follow semantics.
 */
import type Database from "better-sqlite3";
import { defaultRandomSource, type PackedSkeleton, type RandomSource, type SessionEntry, type SkeletonNode, type TreeSkeleton, type UndoHistory } from "@bonsai/core";
import type { ReadSession } from "@bonsai/formats";
import { openDatabase } from "./database";
import { continueInPi } from "./foreign/index";
import { appendEntry, appendLabel } from "./modules/append";
import { newStoreState, StoreEventBus, type StoreContext } from "./modules/context";
import { exportJsonl, exportMarkdown, renderJsonl } from "./modules/export";
import { follow, followFile } from "./modules/follow";
import { formatOfSession } from "./modules/formats";
import { getImportReports } from "./modules/import-reports";
import { applyPruning, listPruned, restorePruned } from "./modules/prune";
import { readSession } from "./modules/read-session";
import { recoverSources, repairDuplicateLines } from "./modules/recovery";
import { indexSearch, quietIndexing, scheduleIndexing, search, startBackgroundIndexing, unindexedCount } from "./modules/search";
import * as sessions from "./modules/sessions";
import { getPackedSkeleton, getPackedSkeletonJson, getSkeleton, getSkeletonTail, heldPackedSkeletonJson, holdPackedSkeletonJson } from "./modules/skeletons";
import { importFile, importPaths } from "./modules/sync";
import { readUndoHistory, saveUndoHistory } from "./modules/undo-history";
import { StoreReader } from "./store-reader";
import type { PackedSkeletonRead, SkeletonJson } from "./reads/skeleton-cache";
import type {
  AppendOptions,
  ExportOptions,
  Follower,
  FollowOptions,
  ImportOptions,
  ImportPathsResult,
  ImportReport,
  NewEntry,
  PiCopy,
  PiCopyOptions,
  PrunedOriginal,
  PruneOptions,
  SearchHit,
  SearchOptions,
  SessionStore,
  SessionSummary,
  StoreEventName,
  StoreEvents,
  StoreListener,
} from "./session-store";
import { BACKUP_SUFFIX } from "./source/backup";
import type { FaultHook } from "./source/faults";
import { SessionLocks } from "./source/session-lock";
import { SourceSync, type RecoveryReport } from "./source/source-sync";

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
 * left behind (recoverSources), so that every session agrees with its file.
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

export { BACKUP_SUFFIX };

export class SqliteSessionStore extends StoreReader implements SessionStore {
  /** what the store's modules (src/modules/) work over */
  private readonly ctx: StoreContext;

  constructor(
    db: Database.Database,
    random: RandomSource = defaultRandomSource,
    options: { writeThrough?: boolean; fault?: FaultHook; backgroundIndexing?: boolean; sessionLockWaitMs?: number } = {},
  ) {
    super(db);
    const files = new SourceSync(db, {
      writeThrough: options.writeThrough ?? true,
      fault: options.fault,
      // a second lock on the files Bonsai never writes (Claude Code, Codex: prepareWrite refuses first)
      refuse: (sessionId) => {
        const row = this.sessions.row(sessionId);
        return row ? formatOfSession(this.ctx, row.source_format).refuseWrite(row) : null;
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
  }

  // ---------------------------------------------------------------- events

  on<K extends StoreEventName>(event: K, listener: StoreListener<K>): () => void {
    return this.ctx.events.on(event, listener);
  }

  off<K extends StoreEventName>(event: K, listener: StoreListener<K>): void {
    this.ctx.events.off(event, listener);
  }

  relay<K extends StoreEventName>(event: K, payload: StoreEvents[K]): void {
    this.ctx.events.emit(event, payload);
  }

  // ---------------------------------------------------------------- import and sync (modules/sync.ts)

  importFile(file: string, options: ImportOptions = {}): Promise<ImportReport> {
    return importFile(this.ctx, file, options);
  }

  importPaths(paths?: readonly string[], options: ImportOptions = {}): Promise<ImportPathsResult> {
    return importPaths(this.ctx, paths, options);
  }

  getImportReports(sessionIdOrPath: string, limit = 20): ImportReport[] {
    return getImportReports(this.ctx, sessionIdOrPath, limit);
  }

  // ---------------------------------------------------------------- sessions (modules/sessions.ts)

  createSession(init: { cwd?: string; title?: string; id?: string } = {}): SessionSummary {
    return sessions.createSession(this.ctx, init);
  }

  deleteSession(sessionId: string): void {
    sessions.deleteSession(this.ctx, sessionId);
  }

  getSessionTitles(): Map<string, string> {
    return sessions.getSessionTitles(this.ctx);
  }

  setSessionTitle(sessionId: string, title: string | null): void {
    sessions.setSessionTitle(this.ctx, sessionId, title);
  }

  countSessionShape(sessionId: string): { compactions: number; branches: number } {
    return sessions.countSessionShape(this.ctx, sessionId);
  }

  setLeaf(sessionId: string, leafId: string | null): void {
    sessions.setLeaf(this.ctx, sessionId, leafId);
  }

  getUndoHistory(sessionId: string): UndoHistory {
    return readUndoHistory(this.ctx, sessionId);
  }

  saveUndoHistory(sessionId: string, history: UndoHistory): void {
    saveUndoHistory(this.ctx, sessionId, history);
  }

  override getSettingsJson(): unknown {
    return sessions.getSettingsJson(this.ctx);
  }

  saveSettingsJson(value: unknown): void {
    sessions.saveSettingsJson(this.ctx, value);
  }

  // ---------------------------------------------------------------- skeletons (modules/skeletons.ts)

  getSkeleton(sessionId: string): TreeSkeleton {
    return getSkeleton(this.ctx, sessionId);
  }

  getPackedSkeleton(sessionId: string): PackedSkeleton {
    return getPackedSkeleton(this.ctx, sessionId);
  }

  /**
   * getPackedSkeleton as JSON text, for a store job to send: a big session's is kept in the
   * database between starts and read again only when the session changed (reads/skeleton-cache.ts).
   */
  getPackedSkeletonJson(sessionId: string): SkeletonJson {
    return getPackedSkeletonJson(this.ctx, sessionId);
  }

  getSkeletonTail(sessionId: string, from: number): SkeletonNode[] {
    return getSkeletonTail(this.ctx, sessionId, from);
  }

  heldPackedSkeletonJson(sessionId: string): string | undefined {
    return heldPackedSkeletonJson(this.ctx, sessionId);
  }

  holdPackedSkeletonJson(sessionId: string, read: PackedSkeletonRead): void {
    holdPackedSkeletonJson(this.ctx, sessionId, read);
  }

  /** the sessions whose skeletons this store holds in memory, the one read last at the end */
  heldSkeletons(): string[] {
    return [...this.ctx.state.skeletons.keys()];
  }

  // ---------------------------------------------------------------- write-through (modules/append.ts, prune.ts, recovery.ts)

  /**
   * Resolves what killed processes left in the journal (called by openStore): each abandoned file
   * operation's temporary files are removed and its session is read again from the file, so the
   * store and the file agree. Safe to call any time; operations of live processes are left alone.
   */
  recoverSources(): RecoveryReport {
    return recoverSources(this.ctx);
  }

  /** Reads again, whole, each session a past version left with two rows for one line of its file (migration 016). */
  repairDuplicateLines(): number {
    return repairDuplicateLines(this.ctx);
  }

  appendEntry(sessionId: string, body: NewEntry, options: AppendOptions = {}): SessionEntry {
    return appendEntry(this.ctx, sessionId, body, options);
  }

  appendLabel(sessionId: string, targetId: string, label: string | undefined): SessionEntry {
    return appendLabel(this.ctx, sessionId, targetId, label);
  }

  applyPruning(sessionId: string, results: readonly { entryId: string; message: unknown }[], options: PruneOptions = {}): number {
    return applyPruning(this.ctx, sessionId, results, options);
  }

  restorePruned(sessionId: string, entryIds?: readonly string[]): number {
    return restorePruned(this.ctx, sessionId, entryIds);
  }

  listPruned(sessionId: string): PrunedOriginal[] {
    return listPruned(this.ctx, sessionId);
  }

  // ---------------------------------------------------------------- export (modules/export.ts)

  /** the same text exportJsonl writes (Claude Code and Codex: the agent's own lines) */
  override renderJsonl(sessionId: string): string {
    return renderJsonl(this.ctx, sessionId);
  }

  /** The session as the formats layer reads it (the pi and HTML exports, "Continue in pi"); loads every entry. */
  readSession(sessionId: string, leafId?: string | null): ReadSession {
    return readSession(this.ctx, sessionId, leafId);
  }

  continueInPi(sessionId: string, options?: PiCopyOptions): Promise<PiCopy> {
    return continueInPi(this, sessionId, options);
  }

  exportJsonl(sessionId: string, file: string): Promise<void> {
    return exportJsonl(this.ctx, sessionId, file);
  }

  exportMarkdown(sessionId: string, file?: string, options: ExportOptions = {}): Promise<string> {
    return exportMarkdown(this.ctx, sessionId, file, options);
  }

  // ---------------------------------------------------------------- search (modules/search.ts)

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return search(this.ctx, query, options);
  }

  /** Brings the search index up to date; returns how many entries were indexed. */
  indexSearch(maxEntries = Infinity): number {
    return indexSearch(this.ctx, maxEntries);
  }

  unindexedCount(sessionId?: string): number {
    return unindexedCount(this.ctx, sessionId);
  }

  resumeIndexing(): void {
    scheduleIndexing(this.ctx);
  }

  /** Background indexing waits `ms` from now (a tree about to be drawn gets the CPU). */
  quietIndexing(ms: number): void {
    quietIndexing(this.ctx, ms);
  }

  // ---------------------------------------------------------------- follow (modules/follow.ts)

  follow(options: FollowOptions = {}): Follower {
    return follow(this.ctx, options);
  }

  /** Reads what changed in a followed file (what follow() does when it sees a change); failures become follow-error events. */
  followFile(target: { sessionId: string; file: string }): void {
    followFile(this.ctx, target);
  }

  override close(): void {
    const state = this.ctx.state;
    if (state.closed) return;
    for (const f of [...state.followers]) f.close();
    state.closed = true;
    this.ctx.events.removeAll();
    this.db.close();
  }
}
