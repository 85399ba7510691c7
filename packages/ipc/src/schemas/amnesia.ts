/** The amnesia report of a session and over many sessions. */
import { z } from "zod";
import { count } from "./primitives";

export const amnesiaFindingSchema = z.object({
  kind: z.enum(["reread", "repeatedCall", "recurringError", "restatedInstruction", "droppedIdentifier"]),
  /** entries on both sides, the earlier ones first */
  entryIds: z.array(z.string()),
  detail: z.string(),
});
export type AmnesiaFindingDto = z.infer<typeof amnesiaFindingSchema>;

export const amnesiaReportSchema = z.object({
  compactions: z.array(z.object({ compactionId: z.string(), score: count, findings: z.array(amnesiaFindingSchema) })),
  prunings: z.array(
    z.object({ atEntryId: z.string(), prunedAt: z.number(), prunedEntryIds: z.array(z.string()), score: count, findings: z.array(amnesiaFindingSchema) }),
  ),
});
export type AmnesiaReportDto = z.infer<typeof amnesiaReportSchema>;

/** Per compaction of the amnesia report: its score and how many findings it has. */
export const amnesiaScoresSchema = z.object({
  compactions: z.array(z.object({ compactionId: z.string(), score: count, findings: count })),
});
export type AmnesiaScoresDto = z.infer<typeof amnesiaScoresSchema>;

/** Findings by kind (every kind, zeros included). */
const amnesiaKindCountsSchema = z.object({ reread: count, repeatedCall: count, recurringError: count, restatedInstruction: count, droppedIdentifier: count });

const amnesiaPointSchema = z.object({ kind: z.enum(["compaction", "pruning"]), entryId: z.string(), score: count, findings: amnesiaKindCountsSchema });

/** The amnesia report over many sessions (core amnesiaOverview): sessions worst first, totals by kind, the worst compactions of all. */
export const amnesiaOverviewSchema = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      project: z.string().nullable(),
      pushedBy: z.string().nullable(),
      title: z.string().nullable(),
      agent: z.string(),
      compactions: count,
      prunings: count,
      score: count,
      findings: amnesiaKindCountsSchema,
      points: z.array(amnesiaPointSchema),
    }),
  ),
  totals: z.object({ sessions: count, compactions: count, prunings: count, score: count, findings: amnesiaKindCountsSchema }),
  worst: z.array(amnesiaPointSchema.extend({ sessionId: z.string(), project: z.string().nullable(), title: z.string().nullable() })),
});
export type AmnesiaOverviewDto = z.infer<typeof amnesiaOverviewSchema>;

/** An identifier of the part a compaction would summarize that the kept part uses (the dry-run summary check). */
export const identifierUseSchema = z.object({
  identifier: z.object({ value: z.string(), kind: z.enum(["path", "url", "symbol", "errorCode"]) }),
  spanEntryIds: z.array(z.string()),
  laterEntryIds: z.array(z.string()),
});
