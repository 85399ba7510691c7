/** Compaction and pruning plans and results. */
import { z } from "zod";
import { MAX_COMMITTED_SUMMARY_CHARS, MAX_SHORT_SUMMARY_CHARS } from "@bonsai/core";
import { fitsUtf8 } from "../utf8";
import { count, idSchema, tokens } from "./primitives";

export const compactionPlanSchema = z.object({
  sessionId: z.string(),
  leafId: z.string().nullable(),
  /** false when there is nothing to compact (reason says why, e.g. "Already compacted") */
  possible: z.boolean(),
  reason: z.string().nullable(),
  firstKeptEntryId: z.string().nullable(),
  /** entries whose messages are summarized (history part) */
  summarizedEntryIds: z.array(z.string()),
  /** entries of the split turn's prefix (summarized separately), empty unless isSplitTurn */
  turnPrefixEntryIds: z.array(z.string()),
  /** entries kept verbatim (firstKeptEntryId to the leaf) */
  keptEntryIds: z.array(z.string()),
  isSplitTurn: z.boolean(),
  /** the estimate at the leaf now (core contextOf): the figure every panel shows for this node */
  contextTokens: tokens,
  /** what the compaction entry records as tokensBefore (the last reported usage on the path, compaction.md §5) */
  tokensBefore: tokens,
  /** estimate of the context after compaction, without the summary itself */
  estimatedTokensAfter: tokens,
  hasPreviousSummary: z.boolean(),
  readFiles: z.array(z.string()),
  modifiedFiles: z.array(z.string()),
});
export type CompactionPlan = z.infer<typeof compactionPlanSchema>;

/** A compaction result (spec compaction.md §11), as generated or as edited by the user before commit. */
const MAX_DETAILS_BYTES = 1024 * 1024;
export const compactionResultSchema = z.object({
  summary: z
    .string()
    .min(1, "summary must not be empty")
    .max(MAX_COMMITTED_SUMMARY_CHARS, `summary is longer than ${MAX_COMMITTED_SUMMARY_CHARS.toLocaleString("en")} characters`),
  shortSummary: z.string().max(MAX_SHORT_SUMMARY_CHARS, `shortSummary is longer than ${MAX_SHORT_SUMMARY_CHARS.toLocaleString("en")} characters`).optional(),
  firstKeptEntryId: idSchema,
  tokensBefore: z.number().nonnegative(),
  details: z.unknown().optional(),
  preserveData: z.record(z.string(), z.unknown()).optional(),
  fromExtension: z.boolean().optional(),
  /** produced by the offline extractive summarizer (no model configured) */
  offline: z.boolean().optional(),
}).refine(
  (r) => r.details === undefined && r.preserveData === undefined ? true : fitsUtf8(JSON.stringify([r.details ?? null, r.preserveData ?? null]) ?? "", MAX_DETAILS_BYTES),
  { message: "details and preserveData are larger than 1 MiB together", path: ["details"] },
);
export type CompactionResultDto = z.infer<typeof compactionResultSchema>;

export const compactionOutcomeSchema = z.object({
  jobId: z.string(),
  /** the generated (dry run) or appended result */
  result: compactionResultSchema,
  /** id of the appended compaction entry; null for a dry run */
  entryId: z.string().nullable(),
  /** estimated context size before and after (for the diff view) */
  contextTokensBefore: tokens,
  contextTokensAfter: tokens,
});
export type CompactionOutcome = z.infer<typeof compactionOutcomeSchema>;

// ---------------------------------------------------------------- pruning

export const prunePlanItemSchema = z.object({
  entryId: z.string(),
  toolName: z.string(),
  tokens: tokens,
});

/** What pruning changes: the context sent from the leaf, and the stored output the notices hide. */
export const pruneFiguresShape = {
  /** the figure at the leaf (core pruneContextChange: the display figure, less what the model stops seeing after): outputs already summarized away change nothing */
  contextTokensBefore: tokens,
  contextTokensAfter: tokens,
  /** what the model stops seeing (the estimate of the context's messages the pruning shrinks by) */
  stopsSeeingTokens: tokens,
  /** something is pruned, but the model would see less than the pruning minimum */
  gainsLittle: z.boolean(),
  /** UTF-8 bytes of the stored tool outputs replaced by a notice (Bonsai keeps them to restore) */
  bytesHidden: count,
};

export const prunePlanSchema = z.object({
  sessionId: z.string(),
  items: z.array(prunePlanItemSchema),
  /** the spec's saving: the estimates of the replaced outputs minus their notices, wherever they are on the path */
  tokensSaved: tokens,
  /** why nothing would be pruned (core nothingToPruneReason, the sentence the CLI prints); null when something would */
  nothingReason: z.string().nullable(),
  ...pruneFiguresShape,
});
export type PrunePlan = z.infer<typeof prunePlanSchema>;
