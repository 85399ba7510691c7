/**
 * What pruning changes, in the figures the rest of the app uses: the context the model sees from
 * the leaf before and after (core pruneContextChange: the display figure less what the model stops
 * seeing; pruned outputs that a compaction already summarized away change nothing there), and,
 * separately, the bytes of stored tool output the notices hide.
 */
import { pruneContextChange, type PruneConfig, type PruneContextChange, type PrunePlan, type SessionEntry } from "@bonsai/core";

export interface PruneFigures extends PruneContextChange {
  /** UTF-8 bytes of the tool outputs the plan replaces by a notice */
  bytesHidden: number;
}

/** Bytes of a tool result's stored output (its content as written in the file). */
export function outputBytes(entry: SessionEntry): number {
  const message = entry.type === "message" ? (entry as { message?: { content?: unknown } }).message : undefined;
  return message?.content === undefined ? 0 : Buffer.byteLength(JSON.stringify(message.content), "utf8");
}

/** The figures of `plan` (made by core planPruning over `path`, the root -> leaf entries). */
export function pruneFigures(path: readonly SessionEntry[], leafId: string | null, plan: PrunePlan, config: Pick<PruneConfig, "minimumSavings">): PruneFigures {
  let bytesHidden = 0;
  for (const c of plan.candidates) bytesHidden += outputBytes(path[c.index] as SessionEntry);
  return { ...pruneContextChange(path, leafId, plan, config), bytesHidden };
}
