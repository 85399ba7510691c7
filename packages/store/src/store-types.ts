/**
 * The data the store API takes and answers (session-store.ts): import reports, session summaries,
 * search hits, commit expectations, follow options and the store's events.
 */
import type { ParseIssueKind, SessionEntry } from "@bonsai/core";
import type { AgentKind, PiExport } from "@bonsai/formats";
import type { ImportFailure } from "./import-failure";

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
  /**
   * Wait for another process writing the database: when its write outlasts SQLite's busy timeout
   * (BUSY_TIMEOUT_MS), this is called once with the file being imported and the file is tried again,
   * as long as the write lock is held (a process that ends releases it) or until the signal stops
   * the import. Without it, such a file fails ("database is locked"), as a host that is itself a
   * writer of the database must not wait on its own connections.
   */
  onWaitForWriter?: (file: string) => void;
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
