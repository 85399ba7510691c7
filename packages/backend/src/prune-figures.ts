/**
 * What pruning changes, in the figures the rest of the app uses: the context the model sees from
 * the leaf before and after (core contextOf: pruned outputs that a compaction already summarized
 * away change nothing there), and, separately, the bytes of stored tool output the notices hide.
 */
import { applyPruning, contextOf, type PrunePlan, type SessionEntry } from "@bonsai/core";

export interface PruneFigures {
  contextTokensBefore: number;
  contextTokensAfter: number;
  /** UTF-8 bytes of the tool outputs the plan replaces by a notice */
  bytesHidden: number;
}

/** Bytes of a tool result's stored output (its content as written in the file). */
export function outputBytes(entry: SessionEntry): number {
  const message = entry.type === "message" ? (entry as { message?: { content?: unknown } }).message : undefined;
  return message?.content === undefined ? 0 : Buffer.byteLength(JSON.stringify(message.content), "utf8");
}

/** The figures of `plan` (made by core planPruning over `path`, the root -> leaf entries). */
export function pruneFigures(path: readonly SessionEntry[], leafId: string | null, plan: PrunePlan): PruneFigures {
  const before = contextOf(path, leafId).tokens;
  if (plan.candidates.length === 0) return { contextTokensBefore: before, contextTokensAfter: before, bytesHidden: 0 };
  const replaced = new Map(applyPruning(path, plan, 0).map((r) => [r.entryId, r.message]));
  const pruned = path.map((e) => {
    const message = replaced.get(e.id);
    return message ? ({ ...e, message } as SessionEntry) : e;
  });
  let bytesHidden = 0;
  for (const c of plan.candidates) bytesHidden += outputBytes(path[c.index] as SessionEntry);
  return { contextTokensBefore: before, contextTokensAfter: contextOf(pruned, leafId).tokens, bytesHidden };
}
