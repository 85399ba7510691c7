/** Tool-output pruning of the current branch (pruning.md); the store keeps the originals. */
import { applyPruning, DEFAULT_PRUNE_CONFIG, planPruningOf, type PruneConfig, type SessionEntry } from "@bonsai/core";
import type { EngineContext } from "./context";
import type { PruneOutcome } from "./types";

/** The pruning policy: the host's pruneConfig when given, else the settings' protect and minimum values with the normative protected tools. */
export function pruneConfigOf(ctx: Pick<EngineContext, "options" | "settings">): PruneConfig {
  if (ctx.options.pruneConfig) return ctx.options.pruneConfig;
  const { protectTokens, minimumSavings } = ctx.settings.get().pruning;
  return { ...DEFAULT_PRUNE_CONFIG, protectTokens, minimumSavings };
}

export async function pruneToolOutputs(ctx: EngineContext, sessionId: string, options: { dryRun?: boolean }): Promise<PruneOutcome> {
  const { store } = ctx;
  const dryRun = options.dryRun === true;
  const leafId = store.getLeaf(sessionId);
  // planned from the tool results' columns; only the results pruned are read whole
  const plan = planPruningOf(store.getToolResultsOnPath(sessionId, leafId), pruneConfigOf(ctx));
  const entryIds = plan.candidates.map((c) => c.entryId);
  let tokensSavedInContext = 0;
  if (plan.prunedCount > 0) {
    const live = new Set(store.getContextSummary(sessionId, leafId).entryIds);
    for (const c of plan.candidates) if (live.has(c.entryId)) tokensSavedInContext += c.savings;
    if (!dryRun) {
      // the pruned entries at their places on the path, as applyPruning reads them
      const onPath: SessionEntry[] = [];
      store.getEntries(sessionId, entryIds).forEach((e, i) => {
        if (e) onPath[(plan.candidates[i] as { index: number }).index] = e;
      });
      const results = applyPruning(onPath, plan, Date.now());
      await store.applyPruning(sessionId, results, { expect: { leafId } });
    }
  }
  const outcome: PruneOutcome = { prunedCount: plan.prunedCount, tokensSaved: plan.tokensSaved, tokensSavedInContext, entryIds, dryRun };
  if (plan.prunedCount > 0 || dryRun) ctx.events.emit("pruning_done", { sessionId, prunedCount: plan.prunedCount, tokensSaved: plan.tokensSaved, dryRun, entryIds });
  return outcome;
}
