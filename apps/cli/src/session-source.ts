/**
 * Turns the SESSION argument of a read command into a loaded session: the file is read once,
 * parsed leniently, migrated to the current format in memory (never written back) and indexed.
 *
 * A SESSION argument is a JSONL file path or, when no such file exists, a session id (or unique
 * prefix) of the Bonsai database (BONSAI_DB or the desktop app's), read through @bonsai/store.
 * Which agent wrote the file is decided from its first lines (@bonsai/formats): pi / oh-my-pi files
 * take core's block parser, Claude Code and Codex files their reader.
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import {
  buildIndex,
  buildSessionContext,
  defaultLeafId,
  getPath,
  migrateSession,
  serializeSession,
  summarizePrunePlan,
  summarizeContext,
  planBranch,
  planPruningOf,
  prepareCompaction,
  summarizeCompaction,
  toolResultsOf,
  type CompactionPlanSummary,
  type CompactionSettings,
  type BranchPlan,
  type ContextSummary,
  type MigrationResult,
  type ParsedSession,
  type ParseIssue,
  type PruneConfig,
  type PrunePlan,
  type PruneSummary,
  type SessionContext,
  type SessionEntry,
  type SessionHeader,
} from "@bonsai/core";
import type { ReadSession } from "@bonsai/formats";
import { UserError, describeFsError } from "./errors";
import { readSessionFile } from "./read-session-file";
import { warn, type Io } from "./output";

export type SessionSource = { kind: "file"; path: string } | { kind: "stored"; sessionId: string; dbPath: string };

/**
 * A session a read command works on. A file is read whole (parsed, migrated, indexed); a stored
 * session is read from the store as each question needs it (the path from a leaf, the entries after
 * the latest compaction, the derived columns): the same answers, without loading it.
 */
export interface LoadedSession {
  source: SessionSource;
  /** what the user typed, for messages */
  label: string;
  header: SessionHeader;
  /** corrupt or skipped lines (the rest loaded; none for a stored session) */
  issues: ParseIssue[];
  migration: MigrationResult;
  /** the leaf read commands default to: a stored session's current leaf, a file's last entry */
  leafId: string | null;
  /** the session's title (stored sessions, and files whose reader gives one) */
  title: string | null;
  /** the file the session was read from: the file itself, or a stored session's source (null: created in Bonsai) */
  sourcePath: string | null;
  /** Claude Code and Codex sessions (files, or stored): the reader's session (agent, links, the lines as read) */
  foreign?: ReadSession;
  entryCount: number;
  hasEntry(id: string): boolean;
  /** every entry in file order (commands that write the whole session) */
  entries(): SessionEntry[];
  /** root -> leaf */
  path(leafId: string | null): SessionEntry[];
  /** what the model sees from the leaf (with the messages) */
  context(leafId: string | null): SessionContext;
  /** what the model sees from the leaf, without the messages */
  contextSummary(leafId: string | null): ContextSummary;
  /** what a compaction of the path to the leaf would summarize and keep (core summarizeCompaction; a stored session reads it from its columns) */
  compactionPlan(leafId: string | null, settings: CompactionSettings): CompactionPlanSummary | undefined;
  /** the pruning plan of the path to the leaf (pruning.md §2; a stored session reads only the results it may prune) */
  prunePlan(leafId: string | null, config: PruneConfig): PrunePlan;
  /** what a dry run reports of that plan: its ids and figures (a stored session reads them as aggregates) */
  pruneSummary(leafId: string | null, config: PruneConfig): PruneSummary;
  /** the branch summary plan of moving from `fromId` to `toId` with `budget` (a stored session reads it from its rows) */
  branch(fromId: string | null, toId: string, budget: number): BranchPlan;
  /** the session as JSONL in the current format (Claude Code and Codex: the agent's own file) */
  jsonl(): string;
  close(): void;
}

/** A path-like argument (a separator or a .jsonl name) is a missing file, never a stored id. */
export function looksLikeSessionId(arg: string): boolean {
  return !/[/\\]/.test(arg) && !arg.endsWith(".jsonl");
}

/**
 * Decides what a SESSION argument names. The store (better-sqlite3) is imported only when the
 * argument is not a file and may be a stored session id: reading a file never loads it.
 */
async function resolveSource(arg: string, options: LoadOptions): Promise<{ file: string } | { stored: LoadedSession }> {
  if (arg.trim() === "") throw new UserError("the session argument is empty");
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(arg);
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT" && looksLikeSessionId(arg)) return { stored: await (await import("./stored-session")).openStoredSession(arg, options.dataDir) };
    throw new UserError(`${arg}: ${describeFsError(err)}`);
  }
  if (st.isDirectory()) throw new UserError(`${arg}: is a directory, not a session file`);
  if (!st.isFile()) throw new UserError(`${arg}: not a regular file`);
  return { file: path.resolve(arg) };
}

export function readFile(source: SessionSource & { kind: "file" }, label: string): ParsedSession {
  try {
    return readSessionFile(source.path);
  } catch (err) {
    throw new UserError(`${label}: ${describeFsError(err)}`);
  }
}

/**
 * Migrates (in memory) and indexes a parsed session; `label` names it in error messages, `reads`
 * (the formats Bonsai reads) ends the one for a file that is not a session.
 */
export function loadParsedSession(parsed: ParsedSession, source: SessionSource, label: string, reads: string): LoadedSession {
  if (!parsed.header) {
    const reason = parsed.issues.find((i) => i.kind === "missing-header" || i.kind === "invalid-header" || i.kind === "empty");
    const where = reason && reason.line > 0 ? ` (line ${reason.line})` : "";
    throw new UserError(`${label}: not a session file: ${reason ? reason.message.replace(/^not a session: /, "") : "no session header"}${where}; ${reads}`);
  }
  const { header, entries, issues } = parsed;
  const migration = migrateSession(header, entries);
  return sessionOfEntries(header, entries, {
    source,
    label,
    issues,
    migration,
    leafId: defaultLeafId(entries),
    title: null,
    sourcePath: source.kind === "file" ? source.path : null,
    jsonl: () => serializeSession(header, entries),
    close: () => undefined,
  });
}

/** What a session held in memory has besides its header and entries. */
type HeldSessionParts = Pick<LoadedSession, "source" | "label" | "issues" | "migration" | "leafId" | "title" | "sourcePath" | "foreign" | "jsonl" | "close">;

/** A session whose entries are all in memory (a file read whole, or a stored Claude Code or Codex session), indexed. */
export function sessionOfEntries(header: SessionHeader, entries: SessionEntry[], parts: HeldSessionParts): LoadedSession {
  const index = buildIndex(entries);
  const path = (leafId: string | null): SessionEntry[] => getPath(index, leafId);
  const context = (leafId: string | null): SessionContext => buildSessionContext(entries, leafId, index);
  const prunePlan = (leafId: string | null, config: PruneConfig): PrunePlan => planPruningOf(toolResultsOf(path(leafId)), config);
  return {
    ...parts,
    header,
    entryCount: entries.length,
    hasEntry: (id) => index.byId.has(id),
    entries: () => entries,
    path,
    context,
    contextSummary: (leafId) => summarizeContext(context(leafId)),
    compactionPlan: (leafId, settings) => {
      const preparation = prepareCompaction(path(leafId), settings);
      return preparation && summarizeCompaction(preparation);
    },
    prunePlan,
    pruneSummary: (leafId, config) => summarizePrunePlan(prunePlan(leafId, config)),
    branch: (fromId, toId, budget) => planBranch(index, fromId, toId, budget),
  };
}

export interface LoadOptions {
  /** the data folder whose database holds stored sessions (--data-dir; default BONSAI_DB or the app's) */
  dataDir?: string;
}

/** Loads the session a command argument names (see the module comment). */
export async function loadSession(arg: string, options: LoadOptions = {}): Promise<LoadedSession> {
  const resolved = await resolveSource(arg, options);
  if ("stored" in resolved) return resolved.stored;
  // which agent wrote a file: the formats layer, loaded only for files (a stored id never needs it)
  return (await import("./session-file")).loadFile({ kind: "file", path: resolved.file }, arg);
}


const MAX_ISSUE_LINES = 5;

/** Warns on stderr about lines that were skipped while loading (at most a few, then a count). */
export function reportIssues(io: Io, session: LoadedSession): void {
  const { issues, label } = session;
  for (const issue of issues.slice(0, MAX_ISSUE_LINES)) warn(io, `${label} line ${issue.line}: ${issue.message}`);
  if (issues.length > MAX_ISSUE_LINES) warn(io, `${label}: ${issues.length - MAX_ISSUE_LINES} more lines skipped`);
}

/**
 * The leaf a read command works from: the `--leaf` option (checked), else the session's own leaf
 * (a stored session's current leaf; for a file, the last entry in file order).
 */
export function resolveLeafId(session: LoadedSession, leafOption: string | undefined, option = "--leaf"): string | null {
  const explicit = requireEntryId(session, leafOption, option);
  return explicit !== undefined ? explicit : session.leafId;
}

/** The entry id a `--leaf` option names, checked against the session; undefined = the default leaf. */
export function requireEntryId(session: LoadedSession, id: string | undefined, option = "--leaf"): string | undefined {
  if (id === undefined) return undefined;
  if (!session.hasEntry(id)) throw new UserError(`${option} ${id}: no entry with this id in ${session.label}`);
  return id;
}

/** Runs a read command's body with the session, closing it (a stored session's database) afterwards. */
export async function withSession<T>(arg: string, body: (session: LoadedSession) => T | Promise<T>, options: LoadOptions = {}): Promise<T> {
  const session = await loadSession(arg, options);
  try {
    return await body(session);
  } finally {
    session.close();
  }
}
