/**
 * Turns the SESSION argument of a read command into a loaded session: the file is read once,
 * parsed leniently, migrated to the current format in memory (never written back) and indexed.
 * Which agent wrote the file is decided from its first lines (@bonsai/formats): pi / oh-my-pi files
 * take core's block parser, Claude Code and Codex files their reader.
 *
 * A SESSION argument is a JSONL file path or, when no such file exists, a session id (or unique
 * prefix) of the Bonsai database (BONSAI_DB or the desktop app's), read through @bonsai/store.
 */
import { readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import {
  buildIndex,
  CURRENT_SESSION_VERSION,
  defaultLeafId,
  migrateSession,
  type MigrationResult,
  type ParsedSession,
  type ParseIssue,
  type SessionEntry,
  type SessionHeader,
  type SessionIndex,
} from "@bonsai/core";
import { detectFormat, firstValues, looksLikePi, piSession, WHAT_BONSAI_READS, type ReadSession } from "@bonsai/formats";
import { UserError, describeFsError } from "./errors";
import { readHead } from "./read-head";
import { readSessionFile } from "./read-session-file";
import { warn, type Io } from "./output";

export type SessionSource = { kind: "file"; path: string } | { kind: "stored"; sessionId: string; dbPath: string };

export interface LoadedSession {
  source: SessionSource;
  /** what the user typed, for messages */
  label: string;
  header: SessionHeader;
  /** entries in file order, migrated to the current version */
  entries: SessionEntry[];
  index: SessionIndex;
  /** corrupt or skipped lines (the rest loaded) */
  issues: ParseIssue[];
  migration: MigrationResult;
  /** stored sessions: the current leaf of the store (files: the last entry) */
  leafId?: string | null;
  /** stored sessions: the session's title */
  title?: string | null;
  /** stored sessions: the JSONL the store exports (the lines exactly as stored; Claude Code and Codex: the agent's file) */
  stored?: { sessionId: string; jsonl(): string; sourcePath: string | null };
  /** Claude Code and Codex sessions (files, or stored): the reader's session (agent, links, the lines as read) */
  foreign?: ReadSession;
}

/** A path-like argument (a separator or a .jsonl name) is a missing file, never a stored id. */
export function looksLikeSessionId(arg: string): boolean {
  return !/[/\\]/.test(arg) && !arg.endsWith(".jsonl");
}

/**
 * Decides what a SESSION argument names. The store (better-sqlite3) is imported only when the
 * argument is not a file and may be a stored session id: reading a file never loads it.
 */
async function resolveSource(arg: string): Promise<SessionSource> {
  if (arg.trim() === "") throw new UserError("the session argument is empty");
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(arg);
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT" && looksLikeSessionId(arg)) return (await import("./stored-session")).resolveStoredSource(arg);
    throw new UserError(`${arg}: ${describeFsError(err)}`);
  }
  if (st.isDirectory()) throw new UserError(`${arg}: is a directory, not a session file`);
  if (!st.isFile()) throw new UserError(`${arg}: not a regular file`);
  return { kind: "file", path: path.resolve(arg) };
}

function readFile(source: SessionSource & { kind: "file" }, label: string): ParsedSession {
  try {
    return readSessionFile(source.path);
  } catch (err) {
    throw new UserError(`${label}: ${describeFsError(err)}`);
  }
}

/** Migrates (in memory) and indexes a parsed session; `label` names it in error messages. */
export function loadParsedSession(parsed: ParsedSession, source: SessionSource, label: string): LoadedSession {
  if (!parsed.header) {
    const reason = parsed.issues.find((i) => i.kind === "missing-header" || i.kind === "invalid-header" || i.kind === "empty");
    const where = reason && reason.line > 0 ? ` (line ${reason.line})` : "";
    throw new UserError(`${label}: not a session file: ${reason ? reason.message.replace(/^not a session: /, "") : "no session header"}${where}; ${WHAT_BONSAI_READS}`);
  }
  const { header, entries, issues } = parsed;
  const migration = migrateSession(header, entries);
  return { source, label, header, entries, index: buildIndex(entries), issues, migration };
}

/** A Claude Code or Codex file, read by its reader (never written). */
function loadForeign(read: ReadSession, source: SessionSource, label: string): LoadedSession {
  const { header, entries, issues } = read;
  const migration: MigrationResult = { migrated: false, fromVersion: CURRENT_SESSION_VERSION, toVersion: CURRENT_SESSION_VERSION };
  return { source, label, header, entries, index: buildIndex(entries), issues, migration, leafId: read.leafId, title: read.title, foreign: read };
}

function loadFile(source: SessionSource & { kind: "file" }, label: string): LoadedSession {
  let head: string;
  try {
    head = readHead(source.path);
  } catch (err) {
    throw new UserError(`${label}: ${describeFsError(err)}`);
  }
  const detection = detectFormat(head);
  if (detection.reader && detection.reader.format !== "pi") {
    let text: string;
    try {
      text = readFileSync(source.path, "utf8");
    } catch (err) {
      throw new UserError(`${label}: ${describeFsError(err)}`);
    }
    return loadForeign(detection.reader.read(text), source, label);
  }
  // a file no reader knows: one sentence, unless it looks like a broken pi file (core's parser says what is wrong)
  if (!detection.reader && !looksLikePi(firstValues(head))) throw new UserError(`${label}: ${detection.reason}`);
  return loadParsedSession(readFile(source, label), source, label);
}

/** Loads the session a command argument names (see the module comment). */
export async function loadSession(arg: string): Promise<LoadedSession> {
  const source = await resolveSource(arg);
  if (source.kind === "stored") return (await import("./stored-session")).loadStoredSession(source, arg);
  return loadFile(source, arg);
}

/** The session as the formats layer sees it (what the pi and HTML exports take). */
export function readSessionOf(session: LoadedSession): ReadSession {
  if (session.foreign) return session.foreign;
  const leafId = session.leafId !== undefined ? session.leafId : defaultLeafId(session.entries);
  return piSession(session.header, session.entries, { leafId, title: session.title ?? null, issues: session.issues });
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
  if (explicit !== undefined) return explicit;
  return session.leafId !== undefined ? session.leafId : defaultLeafId(session.entries);
}

/** The entry id a `--leaf` option names, checked against the session; undefined = the default leaf. */
export function requireEntryId(session: LoadedSession, id: string | undefined, option = "--leaf"): string | undefined {
  if (id === undefined) return undefined;
  if (!session.index.byId.has(id)) throw new UserError(`${option} ${id}: no entry with this id in ${session.label}`);
  return id;
}
