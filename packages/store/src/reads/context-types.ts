/** The shapes of what the context reads return (reads/context.ts). */
import type { CompactionEntry, FiguresOfPath, ContextSummary, IdList, SessionEntry } from "@bonsai/core";
import type { SeqRange } from "./path";

/** What a context preview lists of the context's messages (ContextReader.contextMessages). */
export interface ContextMessageRows {
  summary: ContextSummary;
  /** per message: the role convertToLlm sends it as, null when it drops it */
  sent: (string | null)[];
  /** per message: its entry's stored preview (derive.ts) */
  previews: string[];
  /** the latest compaction on the path */
  compaction: CompactionEntry | null;
  /** the newest assistant message of the context's entries that has a usage (aborted and error replies included) */
  usageMessage: SessionEntry | null;
  /** the newest session_init with a system prompt among the kept entries */
  sessionInit: SessionEntry | null;
  /** the messages a window left out of the lists (null: the lists hold every message) */
  unlisted: UnlistedMessages | null;
  /**
   * where the lists do not hold every message (`unlisted`): the estimate of the context's messages
   * after usageMessage (all of them when it is not among them), which the lists cannot sum
   */
  usageTrailingTokens?: number;
}

/** How much of a long context contextMessages lists: its first `head` messages and its newest `tail`. */
export interface ContextWindow {
  head: number;
  tail: number;
}

/** The messages of a context a window left out, between its first and its newest ones. */
export interface UnlistedMessages {
  /** the index in the lists of the first message listed after them */
  at: number;
  count: number;
  /** the sum of their estimates */
  tokens: number;
  /** how many of them convertToLlm sends */
  sent: number;
  /** the largest estimate of all the context's messages, listed or not */
  largestTokens: number;
}

/** A window's part of a context (ContextReader.fold): the ranges its listed rows lie in, and the whole context's figures. */
export interface ContextFold {
  ranges: SeqRange[];
  at: number;
  count: number;
  tokens: number;
  sent: number;
  largestTokens: number;
}

/**
 * A context's summary as the `context` command reports it: the lists as the text the store reads
 * them as (IdList: each item's JSON string, joined as a report prints them) and the estimates' sum.
 */
export interface ContextLists {
  entryIds: IdList;
  /** each message's role (a list of strings, like the ids) */
  roles: IdList;
  /** the roles convertToLlm sends */
  llmRoles: IdList;
  estimatedTokens: number;
  models: Record<string, string>;
  thinkingLevel: string;
  /** the estimate and the last usage reported on the path (contextFigures, read with the same plan) */
  figures: FiguresOfPath;
}

