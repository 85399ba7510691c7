/**
 * Turns the SESSION argument of a read command into a loaded session: the file is read once,
 * parsed leniently, migrated to the current format in memory (never written back) and indexed.
 *
 * A SESSION argument is a JSONL file path or, when no such file exists, a session id (or unique
 * prefix) of the Bonsai database (BONSAI_DB or the desktop app's), read through @bonsai/store.
 * Which agent wrote the file is decided from its first lines (@bonsai/formats): pi / oh-my-pi files
 * take core's block parser, Claude Code and Codex files their reader. Both sides are imported only
 * when an argument needs them (session-file.ts and held-session.ts for files, stored-session.ts for
 * ids): a stored id never loads the parser, the formats layer or the whole-session planners.
 */
import { statSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { AgentMessage, BranchPlan, CompactionPlanSummary, CompactionSettings, FiguresOfPath, ContextSummary, MigrationResult, ParseIssue, PruneConfig, PruneContextChange, PrunePlan, PruneSummary, SessionContext, SessionEntry, SessionHeader } from "@bonsai/core";
import type { ReadSession } from "@bonsai/formats";
import type { ContextLists, SessionCommit } from "@bonsai/store";
import { UserError, describeFsError } from "./errors";
import { warn, type Io } from "./output";
import { looksLikeSessionId } from "./session-argument";

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
  /** a stored session: the commits it produced (imported from a repository's checkpoint branch) */
  commits?(): SessionCommit[];
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
  /** a stored session: contextSummary as `context --json` reports it, its lists as the store reads them (undefined: use contextSummary) */
  contextLists?(leafId: string | null): ContextLists | undefined;
  /**
   * a stored session: the estimate and the last usage reported on the path to the leaf, as core's
   * contextOf gives them over `path(leafId)`, read without the path (undefined: use the path)
   */
  contextFigures?(leafId: string | null): FiguresOfPath | undefined;
  /**
   * a stored session: the messages of a long context the text listing shows (its first `head` and
   * newest `tail`, ContextListing), read without the others; undefined when it lists them all
   */
  contextListing?(leafId: string | null, head: number, tail: number): ContextListing | undefined;
  /** a stored session: the settings saved in its database (their JSON; undefined: none) */
  savedSettings?(): unknown;
  /** what a compaction of the path to the leaf would summarize and keep (core summarizeCompaction; a stored session reads it from its columns) */
  compactionPlan(leafId: string | null, settings: CompactionSettings): CompactionPlanSummary | undefined;
  /** the pruning plan of the path to the leaf (pruning.md §2; a stored session reads only the results it may prune) */
  prunePlan(leafId: string | null, config: PruneConfig): PrunePlan;
  /** what a dry run reports of that plan: its ids and figures (a stored session reads them as aggregates, with what the model stops seeing: `change`) */
  pruneSummary(leafId: string | null, config: PruneConfig): PruneSummary & { change?: PruneContextChange };
  /** a stored session: what prunePlan's plan changes in what the model sees from the leaf, read without the path (undefined: use the path) */
  pruneChange?(leafId: string | null, config: PruneConfig): PruneContextChange | undefined;
  /** the branch summary plan of moving from `fromId` to `toId` with `budget` (a stored session reads it from its rows) */
  branch(fromId: string | null, toId: string, budget: number): BranchPlan;
  /** the session as JSONL in the current format (Claude Code and Codex: the agent's own file) */
  jsonl(): string;
  close(): void;
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
  return { file: resolvePath(arg) };
}

export interface LoadOptions {
  /** the data folder whose database holds stored sessions (--data-dir; default BONSAI_DB or the app's) */
  dataDir?: string;
}

/** The load options a command's arguments give (its --data-dir, the option every command shares). */
export function loadOptionsOf(args: { options: Record<string, unknown> }): LoadOptions {
  const dataDir = args.options["data-dir"];
  return typeof dataDir === "string" ? { dataDir } : {};
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

/** withSession on a command's SESSION argument (its first), in the data folder its --data-dir names. */
export function withSessionOf<T>(args: { positionals: readonly unknown[]; options: Record<string, unknown> }, body: (session: LoadedSession) => T | Promise<T>): Promise<T> {
  return withSession(args.positionals[0] as string, body, loadOptionsOf(args));
}

/** Messages of a long context as the text listing shows them, with the figures of the whole context. */
export interface ContextListing {
  /** the messages listed, each with its place in the whole context */
  listed: { index: number; entryId: string; role: string; tokens: number; message: AgentMessage | undefined }[];
  /** every message of the context */
  count: number;
  /** the messages convertToLlm sends */
  sent: number;
  estimatedTokens: number;
  models: Record<string, string>;
  thinkingLevel: string;
}

