/** The tree skeleton and whole entries. */
import { z } from "zod";
import type { SessionEntry } from "@bonsai/core";

/**
 * The skeleton as it crosses the wire: columns (core's packSkeleton), about half the object form's
 * size. The renderer turns it back into a TreeSkeleton with unpackSkeleton. The sparse field names
 * repeat core's SPARSE_SKELETON_FIELDS (this package takes only types from core); the compile-time
 * check at the end keeps them equal.
 */
const sparseValues = z.array(z.union([z.number(), z.string(), z.boolean()]));
export const packedSkeletonSchema = z.object({
  v: z.literal(1),
  sessionId: z.string(),
  leafId: z.string().nullable(),
  ids: z.array(z.string()),
  parents: z.array(z.number().int()),
  danglingParents: z.array(z.union([z.number(), z.string()])),
  typeNames: z.array(z.string()),
  types: z.array(z.number().int()),
  roleNames: z.array(z.string()),
  roles: z.array(z.number().int()),
  times: z.array(z.union([z.number(), z.string()])),
  tokens: z.array(z.number()),
  previews: z.array(z.string()),
  /** openSession and getSkeleton send the previews of core's previewHeads only, at these positions */
  previewAt: z.array(z.number().int().min(0)).optional(),
  sparse: z
    .object({
      label: sparseValues,
      toolName: sparseValues,
      pruned: sparseValues,
      stopReason: sparseValues,
      customType: sparseValues,
      firstKeptEntryId: sparseValues,
      fromId: sparseValues,
      fromExtension: sparseValues,
      offline: sparseValues,
      tokensBefore: sparseValues,
      thinking: sparseValues,
    })
    .partial(),
});

/** A whole session entry, kept as the JSON object read from the file (unknown fields survive). */
export const sessionEntrySchema = z.custom<SessionEntry>(
  (v) =>
    typeof v === "object" &&
    v !== null &&
    typeof (v as { id?: unknown }).id === "string" &&
    typeof (v as { type?: unknown }).type === "string",
  "not a session entry",
);

export const entryDetailSchema = z.object({
  entry: sessionEntrySchema,
  /** the estimate the entry adds to a context (core entryContextTokens: a compaction's summary; 0 for metadata) */
  tokens: z.number(),
  /** the original tool output of a pruned toolResult (content blocks), null when not pruned */
  prunedOriginal: z.array(z.record(z.string(), z.unknown())).nullable(),
  /** on the session's active path (root to current leaf) */
  onActivePath: z.boolean(),
});
export type EntryDetail = z.infer<typeof entryDetailSchema>;
