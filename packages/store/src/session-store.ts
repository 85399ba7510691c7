/**
 * The store API, by concern: what a caller needs is one of these interfaces (or a few), and
 * `SessionStore` is all of them. All SQL lives behind it (packages/store/src/sqlite-session-store.ts,
 * which implements every interface in-process); the worker proxy (jobs/client.ts) implements
 * `Async<…>` of the ones that run off the host's thread, and a team archive `Async<StoreReads>`.
 *
 * Reads are synchronous (better-sqlite3); anything that reads or writes files in bulk (import,
 * export) is asynchronous, reports progress and can be aborted. Every multi-row change is one
 * transaction. Sessions that came from a JSONL file are written through to it (see the README of
 * this package for the exact rules).
 */
import type { BranchPlan, ContextSummary, PackedSkeleton, PrunedResult, PruneConfig, PrunePlan, PruneSummary, SessionEntry, SessionHeader, SkeletonNode, ToolResultOnPath, TreeSkeleton, UndoHistory } from "@bonsai/core";
import type { ReadSession } from "@bonsai/formats";
import type { ContextMessageRows, ContextWindow } from "./reads/context";
import type { PackedSkeletonRead } from "./reads/skeleton-cache";
import type {
  AppendOptions,
  ExportOptions,
  Follower,
  FollowOptions,
  ImportOptions,
  ImportPathsResult,
  ImportReport,
  NewEntry,
  PathNode,
  PiCopy,
  PiCopyOptions,
  PrunedOriginal,
  PruneOptions,
  SearchHit,
  SearchOptions,
  SessionSummary,
  SizeSeries,
  StoredEntryInfo,
  StoreEventName,
  StoreEvents,
  StoreListener,
} from "./store-types";

export * from "./store-types";
export * from "./store-errors";
export type { Async } from "./async";

/** Reading agents' files into the store. */
export interface StoreImports {
  /** Imports one JSONL file (idempotent; incremental when the file only grew). Never writes to the file. */
  importFile(file: string, options?: ImportOptions): Promise<ImportReport>;
  /** Imports files and folders (recursively, *.jsonl); no paths = defaultSessionDirs(settings). */
  importPaths(paths?: readonly string[], options?: ImportOptions): Promise<ImportPathsResult>;
  /** Reports of a session or a source path, newest first. */
  getImportReports(sessionIdOrPath: string, limit?: number): ImportReport[];
}

/** Everything read from a stored session, without changing it. */
export interface StoreReads {
  listSessions(): SessionSummary[];
  getSession(sessionId: string): SessionSummary | undefined;
  /** a full id or a unique prefix of one; throws SessionLookupError otherwise */
  resolveSessionId(idOrPrefix: string): string;
  getHeader(sessionId: string): SessionHeader;
  /** the titles given to sessions in Bonsai: session id -> title (the agent's file is never changed) */
  getSessionTitles(): Map<string, string>;
  /** compaction entries and branch tips (entries without children) of a session */
  countSessionShape(sessionId: string): { compactions: number; branches: number };
  /** every entry in file order */
  loadEntries(sessionId: string): SessionEntry[];
  getEntry(sessionId: string, entryId: string): SessionEntry | undefined;
  getEntryInfo(sessionId: string, entryId: string): StoredEntryInfo | undefined;
  /** the one-line previews of these entries, in the order asked ("" for an id not in the session) */
  getPreviews(sessionId: string, entryIds: readonly string[]): string[];
  /** the label the entry carries now (undefined: none); the id of the last entry in file order (null: none) */
  getLabel(sessionId: string, entryId: string): string | undefined;
  lastEntryId(sessionId: string): string | null;
  /** one row per entry, file order, without parsing any entry JSON */
  getSkeleton(sessionId: string): TreeSkeleton;
  /** the wire form with core's previewHeads' previews only, read into columns: packSkeleton(getSkeleton(id), { previews: "heads" }) */
  getPackedSkeleton(sessionId: string): PackedSkeleton;
  /** the skeleton nodes from position `from` on (file order, labels resolved), without reading the others */
  getSkeletonTail(sessionId: string, from: number): SkeletonNode[];
  /** root -> leaf (default leaf: the current one); cycles stop at the repeated entry */
  getPath(sessionId: string, leafId?: string | null): SessionEntry[];
  /**
   * The entries buildSessionContext needs for `leafId`, as a root -> leaf chain: the path from the
   * latest compaction's first kept entry, preceded by the settings entries of the older part of the
   * path (model/thinking/mode changes, ttsr injections, the last assistant message). Same context,
   * a fraction of the JSON to parse.
   */
  getContextEntries(sessionId: string, leafId?: string | null): SessionEntry[];
  /** What the model sees from `leafId` (default: the current leaf), from the derived columns (core summarizeContext gives the same). */
  getContextSummary(sessionId: string, leafId?: string | null): ContextSummary;
  /**
   * What a context preview lists of the context of `leafId`: its messages from the derived columns
   * with their entries' stored previews, and the few entries its figures read; null for an irregular
   * session (build it from getContextEntries). With a `window`, a context of more messages lists only
   * its first and newest ones, and says what it left out (`unlisted`): rows read, not the context's.
   */
  getContextMessages(sessionId: string, leafId: string | null, window?: ContextWindow): ContextMessageRows | null;
  /**
   * The sum of the token estimates of the context of `leafId` (getContextSummary's tokens), from one
   * aggregate over the narrow rows; undefined where it must come from the messages (an irregular
   * session, a message without a role in the columns).
   */
  getContextTokens(sessionId: string, leafId: string | null): number | undefined;
  /**
   * The entries a compaction plan of the path to `leafId` reads (core prepareCompaction gives the
   * same plan on them as on the whole path): the path from its latest compaction, with the last
   * assistant message with a usage before it when none follows; the whole path without a compaction.
   */
  getCompactionWindow(sessionId: string, leafId?: string | null): SessionEntry[];
  /** The tool results on the path to `leafId`, from their columns (core planPruningOf). */
  getToolResultsOnPath(sessionId: string, leafId?: string | null): ToolResultOnPath[];
  /**
   * The pruning plan of the path to `leafId` (the plan planPruningOf makes of getToolResultsOnPath),
   * from the columns of only the results it may prune: what a dry run reports.
   */
  getPrunePlan(sessionId: string, leafId: string | null | undefined, config: PruneConfig): PrunePlan;
  /** What a dry run reports of getPrunePlan's plan (core summarizePrunePlan): its ids and figures, read as aggregates. */
  getPruneSummary(sessionId: string, leafId: string | null | undefined, config: PruneConfig): PruneSummary;
  /**
   * The branch summary plan of moving from `fromId` to `toId` with `budget` (core planBranch on the
   * abandoned entries), read from the rows: the JSON of only the entries its file lists need.
   */
  getBranchPlan(sessionId: string, fromId: string | null, toId: string, budget: number): BranchPlan;
  /** The path root -> `leafId` (default: the current leaf) as narrow nodes (no JSON read). */
  getPathNodes(sessionId: string, leafId?: string | null): PathNode[];
  /** The estimated context size along the path to `leafId`, at most about `buckets` points plus the compactions (no JSON read). */
  getSizeSeries(sessionId: string, leafId: string | null, buckets: number): SizeSeries;
  /** whether an entry with this id is stored (no JSON read) */
  hasEntry(sessionId: string, entryId: string): boolean;
  /** the entries with these ids (the last one with each id; undefined for an unknown id), in the order asked */
  getEntries(sessionId: string, entryIds: readonly string[]): (SessionEntry | undefined)[];
  /** whether the entry is on the path root -> `leafId` (default: the current leaf; no JSON read) */
  isOnPath(sessionId: string, entryId: string, leafId?: string | null): boolean;
  /** isOnPath for each of these ids, from one read of the path */
  areOnPath(sessionId: string, entryIds: readonly string[], leafId?: string | null): boolean[];
  getLeaf(sessionId: string): string | null;
  listPruned(sessionId: string): PrunedOriginal[];
  /** the same text exportJsonl writes (Claude Code and Codex sessions: the agent's file as read, byte for byte) */
  renderJsonl(sessionId: string): string;
  /** the session as the formats layer reads it (what the pi and HTML exports take); leaf default: the current one */
  readSession(sessionId: string, leafId?: string | null): ReadSession;
  /**
   * FTS5 over message text, tool names and file paths: words and prefixes, and words of scripts
   * written without spaces (Chinese, Japanese, Thai, ...) as substrings (search-query.ts). Brings the
   * indexes up to date first, up to options.indexLimit entries.
   */
  search(query: string, options?: SearchOptions): SearchHit[];
  /** how many entries (of one session, or of all) are not in the search index yet (a search does not find them) */
  unindexedCount(sessionId?: string): number;
  getSettingsJson(): unknown;
}

/** Changes to stored sessions (written through to their files). */
export interface StoreWrites {
  /** a new session kept only in the store (no source file) */
  createSession(init?: { cwd?: string; title?: string; id?: string }): SessionSummary;
  /** removes the session from the store (never touches its file) */
  deleteSession(sessionId: string): void;
  /** gives a session a title in Bonsai; null or "" removes it */
  setSessionTitle(sessionId: string, title: string | null): void;
  /** moves the leaf (branch switch without summary; not written to the file, as in pi) */
  setLeaf(sessionId: string, leafId: string | null): void;
  /** appends at the leaf (or options.parentId); new omp-style id, timestamp now; the leaf moves */
  appendEntry(sessionId: string, entry: NewEntry, options?: AppendOptions): SessionEntry;
  /** appends a label entry (label undefined/"" clears) */
  appendLabel(sessionId: string, targetId: string, label: string | undefined): SessionEntry;
  /** replaces tool results by their pruned form (core applyPruning), keeping the originals */
  applyPruning(sessionId: string, results: readonly Pick<PrunedResult, "entryId" | "message">[], options?: PruneOptions): number;
  /** restores the originals of the given entries (default: all); returns how many */
  restorePruned(sessionId: string, entryIds?: readonly string[]): number;
  saveSettingsJson(value: unknown): void;
}

/** What Bonsai's Undo and Redo can take back in a session (core undo-history.ts), kept across restarts. */
export interface StoreUndoHistory {
  /** the session's history (empty: none, or emptied because its file changed other than by appending) */
  getUndoHistory(sessionId: string): UndoHistory;
  saveUndoHistory(sessionId: string, history: UndoHistory): void;
}

/** A session written out to a file of its own. */
export interface StoreExports {
  /** the session in the current JSONL format (pruned form), written atomically */
  exportJsonl(sessionId: string, file: string): Promise<void>;
  /**
   * "Continue in pi": the path to the leaf as a new pi session file in pi's own folder for the
   * session's cwd (pi lists and resumes it there), imported, so that it can be compacted, pruned and
   * branched like any pi session. Never replaces a file.
   */
  continueInPi(sessionId: string, options?: PiCopyOptions): Promise<PiCopy>;
  /** the path root -> leaf as Markdown; written atomically when file is given */
  exportMarkdown(sessionId: string, file?: string, options?: ExportOptions): Promise<string>;
}

/** The store's events. */
export interface StoreNotices {
  on<K extends StoreEventName>(event: K, listener: StoreListener<K>): () => void;
  /** Announces to this store's listeners a change another connection to the same database made (a store worker's). */
  relay<K extends StoreEventName>(event: K, payload: StoreEvents[K]): void;
  off<K extends StoreEventName>(event: K, listener: StoreListener<K>): void;
}

/** What a host that keeps a store open runs on it: following files, background indexing, held skeletons. */
export interface StoreUpkeep {
  /** the packed skeleton's JSON held for the session as it is now (no row read); hold one a store worker read, if current */
  heldPackedSkeletonJson(sessionId: string): string | undefined;
  holdPackedSkeletonJson(sessionId: string, read: PackedSkeletonRead): void;
  /** indexes entries stored since the last indexing (runs in the background after writes); returns how many */
  indexSearch(maxEntries?: number): number;
  /** indexes every entry not in the search index yet, in the background: one batch per turn of this thread's event loop (unless opened without background indexing) */
  resumeIndexing(): void;
  /** watches the source files (fs.watch + polling fallback) and imports what agents append */
  follow(options?: FollowOptions): Follower;
  close(): void;
}

/** The whole store API. */
export interface SessionStore extends StoreImports, StoreReads, StoreWrites, StoreUndoHistory, StoreExports, StoreNotices, StoreUpkeep {}
