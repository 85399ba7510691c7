/**
 * What a pruning changes in what the model sees from the leaf, in the figure every panel shows
 * (context-figures.ts, compaction.md §2.6): the spec's `tokensSaved` counts every replaced output
 * on the path, also those a compaction already summarized away, which the model no longer sees;
 * here only the context's messages count. The plan's own bar (`minimumSavings`) says whether the
 * model would see enough less to be worth it.
 */
import { contextFigureOf, contextOf, type ContextFigures } from "./context-figures";
import type { SessionEntry } from "./entries";
import { applyPruning, type PruneConfig, type PrunePlan } from "./prune";

export interface PruneContextChange {
  /** the figure at the leaf before (contextFigureOf) */
  contextTokensBefore: number;
  /**
   * the figure at the leaf after, by the same rule: a usage the model reported before the pruning
   * still counts there (the figure drops at its next reply), so it may equal contextTokensBefore
   */
  contextTokensAfter: number;
  /** the estimate of the context's messages the pruning shrinks by: what the model stops seeing */
  stopsSeeingTokens: number;
  /** something is pruned but the model would see less than the plan's minimumSavings */
  gainsLittle: boolean;
}

/** What a pruning takes out of the context from a leaf: the figures below are read from it (a store sums it from its columns). */
export interface PruneShrink {
  /** the plan replaces something on the path (in the context or not) */
  prunes: boolean;
  /** the estimate the context's messages lose (each pruned result in it: its estimate less its notice's) */
  tokens: number;
  /** the part of `tokens` after the reply whose usage the figures hold (all of it when that reply is not among the context's messages) */
  afterUsageTokens: number;
}

/** The change a pruning makes to the leaf's figures (contextOf's, or a store's contextFigures), given what it takes out of the context. */
export function pruneChangeOfFigures(figures: Pick<ContextFigures, "tokens" | "usage">, shrink: PruneShrink, minimumSavings: number): PruneContextChange {
  const usage = figures.usage === null ? null : { ...figures.usage, trailingTokens: figures.usage.trailingTokens - shrink.afterUsageTokens };
  const stopsSeeingTokens = Math.max(0, shrink.tokens);
  return {
    contextTokensBefore: contextFigureOf(figures).contextTokens,
    contextTokensAfter: contextFigureOf({ tokens: figures.tokens - shrink.tokens, usage }).contextTokens,
    stopsSeeingTokens,
    gainsLittle: shrink.prunes && stopsSeeingTokens < minimumSavings,
  };
}

/** The change between the root -> leaf entries before and after a pruning (the same ids, pruned outputs replaced). */
export function contextChangeOf(before: readonly SessionEntry[], after: readonly SessionEntry[], leafId: string | null, minimumSavings: number): PruneContextChange {
  const was = contextOf(before, leafId);
  const is = contextOf(after, leafId);
  const prunes = before.some((e, i) => e !== after[i]);
  const afterUsageTokens = (was.usage?.trailingTokens ?? 0) - (is.usage?.trailingTokens ?? 0);
  return pruneChangeOfFigures(was, { prunes, tokens: was.tokens - is.tokens, afterUsageTokens }, minimumSavings);
}

/** What `plan` (core planPruning over `path`) would change from the leaf. */
export function pruneContextChange(path: readonly SessionEntry[], leafId: string | null, plan: PrunePlan, config: Pick<PruneConfig, "minimumSavings">): PruneContextChange {
  if (plan.candidates.length === 0) return contextChangeOf(path, path, leafId, config.minimumSavings);
  const replaced = new Map(applyPruning(path, plan, 0).map((r) => [r.entryId, r.message]));
  const pruned = path.map((e) => {
    const message = replaced.get(e.id);
    return message ? ({ ...e, message } as SessionEntry) : e;
  });
  return contextChangeOf(path, pruned, leafId, config.minimumSavings);
}

/** The sentence that says it when a pruning would gain little (null when it gains enough or prunes nothing). */
export function littleGainNote(change: PruneContextChange): string | null {
  if (!change.gainsLittle) return null;
  return `Little gain: the model would see only ${change.stopsSeeingTokens.toLocaleString("en-US")} tokens less; most of these outputs were already summarized away by a compaction.`;
}
