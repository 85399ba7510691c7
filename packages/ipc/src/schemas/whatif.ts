/** The what-if replay: its settings and results. */
import { z } from "zod";
import { count, nonNegInt, posInt, tokens } from "./primitives";

/** Every value a replay runs with (core WhatIfSettings). */
export const whatIfSettingsSchema = z.strictObject({
  compactionEnabled: z.boolean(),
  reserveTokens: nonNegInt,
  keepRecentTokens: nonNegInt,
  /** 0 = contextWindow - reserveTokens */
  thresholdTokens: nonNegInt,
  /** 0 = unset */
  thresholdPercent: nonNegInt.max(100),
  pruningEnabled: z.boolean(),
  protectTokens: nonNegInt,
  minimumSavings: nonNegInt,
  contextWindow: posInt,
});

const whatIfCompactionSchema = z.object({
  /** the entry the compaction follows on the path */
  atEntryId: z.string(),
  /** its position on the active path (the chart's x) */
  atIndex: count,
  tokensBefore: tokens,
  firstKeptEntryId: z.string(),
  summarizedTokens: tokens,
  isSplitTurn: z.boolean(),
});

const whatIfTotalsSchema = z.object({ compactions: count, peakContextTokens: tokens, summarizedTokens: tokens, prunedTokens: tokens });

export const whatIfRunSchema = z.object({
  compactions: z.array(whatIfCompactionSchema),
  peakContextTokens: tokens,
  summarizedTokens: tokens,
  prunedTokens: tokens,
  /** the context along the path: [position, tokens], thinned to at most maxPoints (each stretch keeps its lowest and highest point) */
  points: z.array(z.tuple([count, tokens])),
});
export type WhatIfRunDto = z.infer<typeof whatIfRunSchema>;

export const whatIfResultSchema = z.object({
  settings: whatIfSettingsSchema.extend({ threshold: z.number(), protectedTools: z.array(z.string()) }),
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      title: z.string(),
      /** entries on the active path */
      pathLength: count,
      summaryEstimate: z.union([
        z.object({ source: z.literal("session"), summaries: count, meanTokens: tokens }),
        z.object({ source: z.literal("ratio"), ratio: z.number() }),
      ]),
      tokensPerEstimatedToken: z.number(),
      /** the window this session was replayed on, and the threshold from it */
      contextWindow: posInt,
      threshold: z.number(),
      actual: whatIfRunSchema,
      candidate: whatIfRunSchema,
    }),
  ),
  totals: z.object({ actual: whatIfTotalsSchema, candidate: whatIfTotalsSchema }),
  /** milliseconds the backend spent on the call (reading the paths the first time, replaying, thinning) */
  computeMs: z.number(),
});
export type WhatIfResult = z.infer<typeof whatIfResultSchema>;
