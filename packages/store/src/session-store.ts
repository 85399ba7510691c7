/**
 * The one typed interface to everything Bonsai keeps in SQLite. All SQL lives behind it
 * (packages/store/src/sqlite-session-store.ts); the backend, the engine and the CLI see only this.
 *
 * Reads are synchronous (better-sqlite3); anything that reads or writes files in bulk (import,
 * export) is asynchronous, reports progress and can be aborted. Every multi-row change is one
 * transaction. Sessions that came from a JSONL file are written through to it (see the README of
 * this package for the exact rules).
 */
import { BonsaiError, type ErrorKind } from "@bonsai/core";
import type { BranchPlan, ContextSummary, PackedSkeleton, ParseIssueKind, PrunedResult, PruneConfig, PrunePlan, PruneSummary, SessionEntry, SessionHeader, SkeletonNode, ToolResultOnPath, TreeSkeleton } from "@bonsai/core";
import type { AgentKind, PiExport, ReadSession } from "@bonsai/formats";
import type { ContextMessageRows, ContextWindow } from "./reads/context";
import type { ImportFailure } from "./import-failure";
import type { PackedSkeletonRead } from "./reads/skeleton-cache";

export type ImportIssueKind =
  /** from core's lenient parser */
  | ParseIssueKind
  // tree checks done by the store
  | "missing-id"
  | "duplicate-id"
  | "missing-parent"
  | "parent-cycle"
  // the source changed in a way that is not an append
  | "rewritten"
  // the file could not be read
  | "io-error";

export interface ImportIssue {
  /** 1-based line of the source file (0 = the whole file) */
  line: number;
  kind: ImportIssueKind;
  message: string;
  /** the entry concerned, when there is one */
  entryId?: string;
  /** the offending line itself (lines that could not be loaded are kept here, never dropped silently) */
  text?: string;
}

export type ImportStatus =
  /** first import of the file */
  | "imported"
  /** the file only grew: the new lines were read from the last offset */
  | "appended"
  /** nothing changed since the last import */
  | "unchanged"
  /** the file changed other than by appending: it was read again as a new generation of the same session */
  | "reimported"
  /** the file is not a session (no header): nothing stored */
  | "not-a-session"
  /** the file could not be read or the import failed; nothing was changed */
  | "failed";

export interface ImportReport {
  /** row id of the stored report (0 when not stored: "unchanged", and "appended" without issues) */
  reportId: number;
  sourcePath: string;
  sessionId: string | null;
  status: ImportStatus;
  /** bytes of the file read by this import */
  bytesRead: number;
  entriesAdded: number;
  issues: ImportIssue[];
  /** one-line human summary (why it failed, what changed) */
  message: string;
  /** why nothing was stored, as data: with "failed" and "not-a-session" (not on reports listed from the database) */
  failure?: ImportFailure;
  /** ISO time */
  startedAt: string;
}

export interface ImportProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** the file being read */
  currentFile?: string;
}

export interface ImportOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportPathsResult {
  reports: ImportReport[];
  filesTotal: number;
  bytesTotal: number;
  /** true when the signal stopped the run (files already done stay imported) */
  aborted: boolean;
}

export interface SessionSummary {
  id: string;
  /** the session id in the file header (differs from id only when two files share one) */
  headerId: string;
  /** header title, else the latest session_info's name, else null (never a compaction's or branch summary's text) */
  title: string | null;
  cwd: string;
  sourcePath: string | null;
  /** pi-jsonl: a pi / oh-my-pi file; bonsai: kept only in the store; claude-code, codex: those agents' files (read-only) */
  sourceFormat: "pi-jsonl" | "bonsai" | "claude-code" | "codex";
  /** the agent that wrote it (pi / omp from the file's traits, or its ~/.pi or ~/.omp folder) */
  agent: AgentKind;
  /** compaction entries in the session */
  compactionCount: number;
  /**
   * Set for sessions Bonsai never writes (Claude Code, Codex): why, in words. Compaction, pruning,
   * branch summaries, labels and prompts are refused on them (ReadOnlySessionError); continueInPi
   * makes a pi copy that takes them.
   */
  readOnly: string | null;
  /** the session this one was spawned from or continues (a sub-agent's parent, a pi copy's source), when known */
  parentSession: string | null;
  /** version the source was written in (1, 2, 3); 3 after a write-through rewrote a legacy file */
  sourceVersion: number;
  createdAt: string;
  updatedAt: string;
  importedAt: string | null;
  entryCount: number;
  messageCount: number;
  /** text of the first user message ("" when none) */
  firstMessage: string;
  leafId: string | null;
  /** tool outputs currently pruned with the original kept */
  prunedCount: number;
  /** bumped whenever the source was re-imported whole */
  generation: number;
  /**
   * Set when changes are no longer written to the source file (it or its folder is read-only, or
   * write-through is turned off): why, in words for the user ("the source file is read-only; export
   * to write the changes to a file"). The file is then neither written nor read again.
   */
  detached: string | null;
}

export interface StoredEntryInfo {
  entry: SessionEntry;
  /** position in file order (0-based) */
  seq: number;
  /** 1-based source line, null when not from a file */
  line: number | null;
}

export interface PrunedOriginal {
  entryId: string;
  /** the entry before pruning */
  original: SessionEntry;
  /** ms */
  prunedAt: number;
}

export interface SearchHit {
  sessionId: string;
  sessionTitle: string | null;
  entryId: string;
  type: string;
  role: string | null;
  timestamp: string;
  /** matched text with the hits wrapped in [ and ] (… where cut) */
  snippet: string;
  /** bm25 rank (lower is better); for a query of only one- or two-character substrings, minus their occurrences */
  rank: number;
}

export interface SearchOptions {
  sessionId?: string;
  /** default 50, at most 500 */
  limit?: number;
  /**
   * How many of the entries not yet in the search index (stored a moment ago, or by a process that
   * does not index: `bonsai import`) the search indexes before it looks; the rest are
   * not found until background indexing reaches them (unindexedCount). Default: all of them, the
   * answer complete whatever the wait; a host that must keep answering passes a small number.
   */
  indexLimit?: number;
}

/** A node of a path with what a context-size series needs. */
export interface PathNode {
  id: string;
  type: string;
  /** the entry's token estimate (a compaction's: its summary's) */
  tokens: number;
  /** compactions: their first kept entry */
  firstKeptEntryId?: string;
}

/** The estimate along a path, at the points a chart shows (core's contextTokensAlongPath and thinPositions). */
export interface SizeSeries {
  /** entries on the path */
  pathLength: number;
  /** the points shown, in path order; `pos`: the entry's position on the path (0 = root) */
  points: { pos: number; entryId: string; tokens: number; compaction: boolean }[];
}

/** What appendEntry needs: the entry body; id, parentId and timestamp are filled in. */
export type NewEntry = { type: string; [field: string]: unknown };

export interface AppendOptions {
  /** parent of the new entry: default the current leaf; null makes a new root */
  parentId?: string | null;
  /**
   * What the commit was planned against: checked after the file has been read up to date, and the
   * append refused with a StaleCommitError (nothing written) when it no longer holds.
   */
  expect?: CommitExpectation;
}

/** The state a planned change relies on (compaction, branch summary, pruning, label). */
export interface CommitExpectation {
  /** the leaf the change was planned from */
  leafId?: string | null;
  /** entries that must be on the path root -> new entry's parent (a compaction's firstKeptEntryId) */
  onPath?: readonly string[];
  /** entries that must exist (a branch target, a label's target) */
  exists?: readonly string[];
}

export interface PruneOptions {
  /** the commit was planned against this state (see AppendOptions.expect) */
  expect?: CommitExpectation;
}

export interface ExportOptions {
  /** default: the current leaf (Markdown only) */
  leafId?: string | null;
}

export interface PiCopyOptions {
  /** the leaf whose path is copied (default: the session's leaf) */
  leafId?: string | null;
  /** where pi keeps its sessions (PI_CODING_AGENT_DIR, PI_CODING_AGENT_SESSION_DIR) and HOME: tests */
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** "Continue in pi": the pi copy written and imported. */
export interface PiCopy {
  /** the stored session of the copy (a pi session Bonsai writes through) */
  sessionId: string;
  /** the new pi session file (in pi's sessions folder for the session's cwd) */
  file: string;
  entryCount: number;
  /** what the copy left out (formats' toPiSession) */
  omitted: PiExport["omitted"];
}

export interface FollowOptions {
  /** restrict to these sessions (default: every session with a source file, including ones imported later) */
  sessionIds?: string[];
  /** polling interval of the fallback poller in ms (default 500) */
  pollIntervalMs?: number;
  /**
   * session folders in which new *.jsonl files are imported (and then followed) as agents create
   * them, e.g. defaultSessionDirs(); scanned every folderScanMs (default 2000)
   */
  folders?: readonly string[];
  folderScanMs?: number;
  /**
   * Reads a followed file that changed. Default: this store, at once (on the calling thread); a
   * host with a store worker hands it there (the appended lines are then read off its main thread).
   */
  sync?: (target: { sessionId: string; file: string }) => void;
}

export interface Follower {
  /** sessions currently watched */
  readonly sessionIds: readonly string[];
  close(): void;
}

export interface StoreEvents {
  /** entries were stored (import, follow, append): in file order */
  "entries-added": { sessionId: string; entries: SessionEntry[]; source: "import" | "follow" | "append" };
  /** metadata, leaf, pruning or a whole re-import changed a session */
  "session-updated": { sessionId: string; reason: "imported" | "reimported" | "leaf" | "pruned" | "restored" | "appended" | "removed" | "detached" };
  "import-progress": ImportProgress;
  /** a followed file produced a report with issues or failed */
  "follow-error": { sessionId: string; message: string };
}

export type StoreEventName = keyof StoreEvents;
export type StoreListener<K extends StoreEventName> = (payload: StoreEvents[K]) => void;

export interface SessionStore {
  // ------------------------------------------------------------ import
  /** Imports one JSONL file (idempotent; incremental when the file only grew). Never writes to the file. */
  importFile(file: string, options?: ImportOptions): Promise<ImportReport>;
  /** Imports files and folders (recursively, *.jsonl); no paths = defaultSessionDirs(settings). */
  importPaths(paths?: readonly string[], options?: ImportOptions): Promise<ImportPathsResult>;
  /** Reports of a session or a source path, newest first. */
  getImportReports(sessionIdOrPath: string, limit?: number): ImportReport[];

  // ------------------------------------------------------------ sessions
  listSessions(): SessionSummary[];
  getSession(sessionId: string): SessionSummary | undefined;
  /** a full id or a unique prefix of one; throws SessionLookupError otherwise */
  resolveSessionId(idOrPrefix: string): string;
  getHeader(sessionId: string): SessionHeader;
  /** a new session kept only in the store (no source file) */
  createSession(init?: { cwd?: string; title?: string; id?: string }): SessionSummary;
  /** removes the session from the store (never touches its file) */
  deleteSession(sessionId: string): void;
  /** the titles given to sessions in Bonsai: session id -> title (the agent's file is never changed) */
  getSessionTitles(): Map<string, string>;
  /** gives a session a title in Bonsai; null or "" removes it */
  setSessionTitle(sessionId: string, title: string | null): void;
  /** compaction entries and branch tips (entries without children) of a session */
  countSessionShape(sessionId: string): { compactions: number; branches: number };

  // ------------------------------------------------------------ entries
  /** every entry in file order */
  loadEntries(sessionId: string): SessionEntry[];
  getEntry(sessionId: string, entryId: string): SessionEntry | undefined;
  getEntryInfo(sessionId: string, entryId: string): StoredEntryInfo | undefined;
  /** the one-line previews of these entries, in the order asked ("" for an id not in the session) */
  getPreviews(sessionId: string, entryIds: readonly string[]): string[];
  /** the packed skeleton's JSON held for the session as it is now (no row read); hold one a store worker read, if current */
  heldPackedSkeletonJson(sessionId: string): string | undefined;
  holdPackedSkeletonJson(sessionId: string, read: PackedSkeletonRead): void;
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
  /** moves the leaf (branch switch without summary; not written to the file, as in pi) */
  setLeaf(sessionId: string, leafId: string | null): void;
  /** appends at the leaf (or options.parentId); new omp-style id, timestamp now; the leaf moves */
  appendEntry(sessionId: string, entry: NewEntry, options?: AppendOptions): SessionEntry;
  /** appends a label entry (label undefined/"" clears) */
  appendLabel(sessionId: string, targetId: string, label: string | undefined): SessionEntry;

  // ------------------------------------------------------------ pruning
  /** replaces tool results by their pruned form (core applyPruning), keeping the originals */
  applyPruning(sessionId: string, results: readonly Pick<PrunedResult, "entryId" | "message">[], options?: PruneOptions): number;
  /** restores the originals of the given entries (default: all); returns how many */
  restorePruned(sessionId: string, entryIds?: readonly string[]): number;
  listPruned(sessionId: string): PrunedOriginal[];

  // ------------------------------------------------------------ export
  /** the session in the current JSONL format (pruned form), written atomically */
  exportJsonl(sessionId: string, file: string): Promise<void>;
  /** the same text exportJsonl writes (Claude Code and Codex sessions: the agent's file as read, byte for byte) */
  renderJsonl(sessionId: string): string;
  /** the session as the formats layer reads it (what the pi and HTML exports take); leaf default: the current one */
  readSession(sessionId: string, leafId?: string | null): ReadSession;
  /**
   * "Continue in pi": the path to the leaf as a new pi session file in pi's own folder for the
   * session's cwd (pi lists and resumes it there), imported, so that it can be compacted, pruned and
   * branched like any pi session. Never replaces a file.
   */
  continueInPi(sessionId: string, options?: PiCopyOptions): Promise<PiCopy>;
  /** the path root -> leaf as Markdown; written atomically when file is given */
  exportMarkdown(sessionId: string, file?: string, options?: ExportOptions): Promise<string>;

  // ------------------------------------------------------------ search, settings
  /**
   * FTS5 over message text, tool names and file paths: words and prefixes, and words of scripts
   * written without spaces (Chinese, Japanese, Thai, ...) as substrings (search-query.ts). Brings the
   * indexes up to date first, up to options.indexLimit entries.
   */
  search(query: string, options?: SearchOptions): SearchHit[];
  /** indexes entries stored since the last indexing (runs in the background after writes); returns how many */
  indexSearch(maxEntries?: number): number;
  /** how many entries (of one session, or of all) are not in the search index yet (a search does not find them) */
  unindexedCount(sessionId?: string): number;
  /** indexes every entry not in the search index yet, in the background: one batch per turn of this thread's event loop (unless opened without background indexing) */
  resumeIndexing(): void;
  getSettingsJson(): unknown;
  saveSettingsJson(value: unknown): void;

  // ------------------------------------------------------------ live follow, events
  /** watches the source files (fs.watch + polling fallback) and imports what agents append */
  follow(options?: FollowOptions): Follower;
  on<K extends StoreEventName>(event: K, listener: StoreListener<K>): () => void;
  /** Announces to this store's listeners a change another connection to the same database made (a store worker's). */
  relay<K extends StoreEventName>(event: K, payload: StoreEvents[K]): void;
  off<K extends StoreEventName>(event: K, listener: StoreListener<K>): void;

  close(): void;
}

export class SessionLookupError extends BonsaiError {
  constructor(
    message: string,
    readonly candidates: readonly string[] = [],
  ) {
    super("not_found", message);
    this.name = "SessionLookupError";
  }
}

/** The store refused a change (by default: it could not prove it safe); the subclasses say why. Nothing was changed. */
export class StoreError extends BonsaiError {
  constructor(message: string, kind: ErrorKind = "refused") {
    super(kind, message);
    this.name = "StoreError";
  }
}

/** The session changed since the change was planned: nothing was written. */
export class StaleCommitError extends StoreError {
  constructor(message: string) {
    super(message, "stale");
    this.name = "StaleCommitError";
  }
}

/** The session file is being written by someone else and could not be written safely: nothing was changed. */
export class SourceBusyError extends StoreError {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`the session file is being written by a running agent; try again when it is idle (${file}: ${detail})`, "busy");
    this.name = "SourceBusyError";
  }
}

/** Another Bonsai process (or another store in this one) is writing the session (source/session-lock.ts): nothing was written. */
export class SessionLockedError extends StoreError {
  constructor(readonly sessionId: string) {
    super(`another Bonsai process is writing this session; try again (session ${sessionId})`, "busy");
    this.name = "SessionLockedError";
  }
}

/** The `.bonsai-original` backup cannot be relied on: the rewrite was refused, nothing was changed. */
export class BackupRefusal extends StoreError {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefusal";
  }
}
