/** The context preview: what the model sees from a node. */
import { z } from "zod";
import { count, tokens } from "./primitives";

export const contextMessageSchema = z.object({
  /** the entry this message comes from (a compaction's id for its summary) */
  entryId: z.string().nullable(),
  /** role as the model sees it after convertToLlm: "user" | "assistant" | "toolResult" */
  role: z.string(),
  /** where it comes from: the session message's own role, or "compactionSummary" / "branchSummary" / "custom" */
  sourceRole: z.string(),
  /** estimateTokens of the message (chars/4): the context's estimate is their sum */
  tokens: tokens,
  preview: z.string(),
  /** the agent leaves it out of what it sends (a bash run with `!!`); counted in the estimate as the agent counts it */
  excluded: z.boolean().optional(),
});
export type ContextMessage = z.infer<typeof contextMessageSchema>;

export const contextSizePointSchema = z.object({
  /** the entry's position on the path (0 = the root) */
  pos: count,
  entryId: z.string(),
  /** estimated context size (tokens) if this entry were the leaf */
  tokens: tokens,
  /** this entry is a compaction (the series drops here) */
  compaction: z.boolean(),
});

/**
 * The last usage a model reported on the path (core ReportedUsage): its own count of the context
 * at that reply, and how it relates to the latest compaction on the path.
 */
export const reportedUsageSchema = z.object({
  tokens: tokens,
  /** the assistant entry that reported it */
  entryId: z.string(),
  /** "before-compaction": it measures the context the latest compaction replaced (stale) */
  age: z.enum(["no-compaction", "after-compaction", "before-compaction"]),
  /** estimate of the context's messages after that reply */
  trailingTokens: tokens,
  /** the model that reported it ("" when the session does not say) */
  model: z.string().max(300),
});
export type ReportedUsageDto = z.infer<typeof reportedUsageSchema>;

/** how much of a long context a context preview lists (contextPreviewSchema.unlisted): core's, the CLI's listing's too */
export { CONTEXT_LIST_HEAD, CONTEXT_LIST_TAIL } from "@bonsai/core";

/** What the model sees from a node (core contextOf): every panel shows these figures. */
export const contextPreviewSchema = z.object({
  sessionId: z.string(),
  leafId: z.string().nullable(),
  /** the system prompt the model gets (from session_init), null when none is known; not in `tokens` */
  systemPrompt: z.object({ text: z.string(), tokens: tokens }).nullable(),
  /**
   * the context's messages; a long context's first and newest ones only, unless all were asked for
   * (`unlisted` says what lies between)
   */
  messages: z.array(contextMessageSchema),
  /**
   * the messages not in `messages` (a context of more than CONTEXT_LIST_HEAD + CONTEXT_LIST_TAIL
   * messages lists its first CONTEXT_LIST_HEAD and its newest CONTEXT_LIST_TAIL), null when all are
   */
  unlisted: z
    .object({
      /** the index in `messages` of the first message listed after them */
      at: count,
      count: count,
      /** the sum of their estimates */
      tokens: tokens,
      /** the largest estimate of all the context's messages, listed or not */
      largestTokens: tokens,
    })
    .nullable(),
  /** the estimate: the sum of the messages' tokens (every message's, listed or not) */
  tokens: tokens,
  /** the last usage reported on the path, null when no reply reports one */
  usage: reportedUsageSchema.nullable(),
  /** what the agent compares with its threshold: a fresh usage plus the messages after it, else the estimate */
  agentTokens: tokens,
  /** the window of the session's model (core contextWindowOf): known model, override, or the settings' */
  contextWindow: count,
  /** where contextWindow came from */
  contextWindowSource: z.enum(["override", "known-model", "extended", "settings", "recorded"]),
  /** agentTokens is the reported usage plus the estimate after it ("reported"), or the estimate alone */
  basis: z.enum(["reported", "estimate"]),
  /** above it a threshold compaction triggers: contextWindow - compaction.reserveTokens, or the threshold set in the settings */
  threshold: z.number(),
  /** agentTokens is above the threshold (and compaction is enabled) */
  overThreshold: z.boolean(),
  /** latest compaction on the path: entries before firstKeptEntryId are not sent */
  compaction: z
    .object({ entryId: z.string(), firstKeptEntryId: z.string().nullable(), tokensBefore: z.number() })
    .nullable(),
  /** entries on the path (root to this node) */
  pathLength: count,
  /**
   * the estimate along the path (root to this node), each point as if that entry were the leaf,
   * thinned to what a chart shows: the highest point of each of about 400 stretches of the path,
   * and every compaction with the point before it
   */
  sizeSeries: z.array(contextSizePointSchema),
});
export type ContextPreview = z.infer<typeof contextPreviewSchema>;

/**
 * each assistant reply with a usage, and what it reports (core calculateContextTokens), in file
 * order: of the session's whole tree, or (`from` > 0) of its nodes after the first `from` only
 */
export const usagePointsSchema = z.object({
  entryIds: z.array(z.string()),
  tokens: z.array(tokens),
  /** the points are of the tree's nodes after its first `from` (0: of every node): the caller had those */
  from: count,
  /** how many nodes of the tree (in file order) the points cover, with the last one's id (null: none), to ask for the rest later */
  nodes: count,
  lastId: z.string().nullable(),
});
export type UsagePoints = z.infer<typeof usagePointsSchema>;

/** what a caller that holds the points of a tree's first `nodes` nodes (the last of them `lastId`) asks for: only the later ones */
export const usagePointsAfterSchema = z.strictObject({ nodes: count, lastId: z.string() });
export type UsagePointsAfter = z.infer<typeof usagePointsAfterSchema>;
