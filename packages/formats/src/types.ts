/**
 * The reader interface of the source-format layer: one reader per agent turns the text of that
 * agent's session file into Bonsai's entry tree (core's SessionHeader + SessionEntry[]).
 *
 * Foreign files (Claude Code, Codex) keep every original line verbatim: each entry made from a line
 * carries it in `source`, so `originalText` gives the untouched file back byte for byte. pi / oh-my-pi
 * files are read by core's parser and migration, unchanged.
 */
import type { ParseIssue, SessionEntry, SessionHeader } from "@bonsai/core";

/** The format families a reader handles (omp files are read by the pi reader). */
export type FormatId = "pi" | "claude-code" | "codex";

/** The agent that wrote a session. */
export type AgentKind = "pi" | "omp" | "claude-code" | "codex";

/** One original line of the agent's file: its 1-based number and its exact text without the "\n". */
export interface SourceLine {
  n: number;
  text: string;
}

/** What a foreign entry adds to a Bonsai entry: the lines it was read from (empty for entries the reader derived). */
export interface ForeignFields {
  source: SourceLine[];
}

/**
 * A non-conversation line of a foreign file (hook progress, attachments, file snapshots, mode and
 * title lines, Codex events, ...): shown as metadata, never part of what the model sees.
 */
export interface AgentEventEntry {
  type: "agent_event";
  id: string;
  parentId: string | null;
  timestamp: string;
  /** the agent's own name of the line's kind, e.g. "progress", "system/turn_duration", "event_msg/token_count" */
  event: string;
  /** one line of text for a person (what happened) */
  text: string;
  source: SourceLine[];
  [extra: string]: unknown;
}

/** A sub-agent transcript linked to the session that spawned it. */
export interface SubAgentLink {
  /** the tool call that spawned it (Claude Code Task/Agent call id), when known */
  toolCallId?: string;
  /** the entry holding that tool call, when known */
  entryId?: string;
  /** Claude Code agentId (the agent-<agentId>.jsonl file) or Codex child thread id, when known */
  agentId?: string;
  /** the first entry of an inline sidechain (Claude Code 1.0.x writes them into the main file) */
  rootId?: string;
}

export interface SessionLinks {
  /** this session is a sub-agent of that session (Claude Code sessionId, Codex parent_thread_id) */
  parent?: { sessionId: string; agentId?: string; nickname?: string; role?: string };
  /** sub-agents this session spawned */
  subAgents: SubAgentLink[];
}

/** Counts a person (and the tests) can check against the file. */
export interface SessionStats {
  /** lines in the file (a last line without "\n" counts) */
  lines: number;
  compactions: number;
  /** Claude Code microcompact boundaries (tool outputs cleared) */
  microcompactions: number;
  /** Codex: repeated session_meta lines (one per resume) */
  resumes: number;
  /** Codex: thread_rolled_back events (each starts a branch) */
  rollbacks: number;
  /** the first line's parent is not in the file (Claude Code checkpoint slices) */
  startsMidSession: boolean;
}

/** A whole session as a reader gives it. */
export interface ReadSession extends ReadState {
  /** entries in file order (pi: migrated to v3 in memory) */
  entries: SessionEntry[];
}

/** Everything a reader knows about a session except its entries (cheap to ask while following a file). */
export interface ReadState {
  format: FormatId;
  agent: AgentKind;
  /** foreign files: synthesized ({type:"session", version:3, id, timestamp, cwd, agent, ...}); pi: the file's own */
  header: SessionHeader;
  /** where the agent would resume: Claude Code the main chain's last entry, Codex and pi the last entry */
  leafId: string | null;
  title: string | null;
  /** unreadable lines (kept as entries in foreign files, skipped in pi files) */
  issues: ParseIssue[];
  links: SessionLinks;
  stats: SessionStats;
  /** foreign files: what originalText needs besides the entries' source lines (blank lines after the last entry); null for pi */
  original: { finalNewline: boolean; trailing?: SourceLine[] } | null;
  /** foreign files are never written: changes go to a pi copy ("Continue in pi") */
  readOnly: boolean;
}

/** What one push of an incremental reader completed. */
export interface ReadChunk {
  /** new entries, in file order (a parent always before its children) */
  entries: SessionEntry[];
  /** entries given earlier that a later line changed (Claude Code microcompaction marks tool outputs pruned) */
  updated: SessionEntry[];
}

/**
 * Reads a file piece by piece (live follow): push the text as it is appended, any split, then end.
 * A line is read once its "\n" arrives; a few lines may be held until the line that completes them
 * (a Claude Code compact boundary until its summary line, a Codex reply until its token count).
 */
export interface IncrementalReader {
  push(text: string): ReadChunk;
  /** the text is complete: a last line without "\n" is read, held lines are given */
  end(): ReadChunk;
  /** the session as read so far (entries given so far, header, leaf, stats) */
  snapshot(): ReadSession;
  /** the same without the entries (no copy of them: what a follower asks after every push) */
  state(): ReadState;
  /**
   * Entries read but held until a later line completes them (a Codex reply waiting for its token
   * count, leading lines waiting for a timestamp), as they are now; they come out of a later push
   * (possibly changed, same ids) or end(). A follower may show them meanwhile.
   */
  held(): SessionEntry[];
}

export interface SessionReader {
  format: FormatId;
  /** "Claude Code", "Codex", "pi / oh-my-pi" */
  displayName: string;
  /** whether the parsed values of a file's first lines (in order, unparsable lines as undefined) are this format */
  sniff(values: readonly unknown[]): boolean;
  read(text: string): ReadSession;
  incremental(): IncrementalReader;
}

/** An entry of a foreign session with its source lines (agent events are entries of a type core does not know). */
export type ForeignEntry = (SessionEntry | AgentEventEntry) & ForeignFields;
