/**
 * What-if replay: a recorded session's active path replayed turn by turn under other compaction and
 * pruning settings, with no model call. The replay rebuilds the session as an agent running with
 * the candidate settings would have written it: the file's own compactions are left out, pruned
 * tool outputs get back their original size (the number in their notice), and at every check an
 * agent makes — after each turn and before each prompt (triggers-and-hooks.md §1.2) — it runs the
 * rules of this package on that rebuilt path: pruning (planPruning, applyPruning), the check steps
 * (skipsCompactionCheck, thresholdInputTokens, shouldCompact) and the plan (prepareCompaction,
 * which places the cut). Nothing here restates one of those rules. The reading of the path is
 * whatif-prepare.ts, the replay whatif-replay.ts, the settings and reports whatif-types.ts.
 *
 * The file's own context size along the path is the figure every panel shows (compaction.md §2.6).
 * Context sizes come from the recorded usage. Every assistant message with a usage tells the real
 * context size U of the file at that point; the file's live messages L (chars/4 estimates) are
 * known too. Another run's context at the same point is U + r × (L' − L), L' being its own live
 * estimate and r the session's tokens per estimated token (a least-squares fit of the prompt tokens
 * against L over the session's usages, kept within [1, 4]; 1 without usage). The candidate's
 * assistant messages carry that modelled usage, so the rules see what the candidate agent would
 * have seen. A compaction summary's size is estimated: the mean size of the session's own
 * summaries, else SUMMARY_RATIO of what it summarizes (history + turn prefix + previous summary),
 * capped by the summary budgets of reserveTokens (0.8 R, plus 0.5 R for a split turn).
 *
 * What a replay cannot know: the model would have answered differently after another compaction
 * (other tool calls, other lengths), an overflow would have been recovered by a compaction (the
 * replay applies the threshold trigger only), and an auto-continue prompt would have added a turn.
 */
import type { SessionEntry } from "./entries";
import { windowEvidenceOfPath } from "./context-figures";
import { windowOfSession, type ModelWindow } from "./model-window";
import { prepareWhatIf } from "./whatif-prepare";
import { runWhatIf } from "./whatif-replay";
import type { WhatIfReport, WhatIfRun, WhatIfSettings } from "./whatif-types";

export * from "./whatif-types";
export { prepareWhatIf } from "./whatif-prepare";
export { runWhatIf } from "./whatif-replay";

/**
 * The window a replay of `path` runs with: the session's own (windowOfSession over the path's
 * evidence, as the page and `bonsai context` judge it), `model.contextWindow` serving a model
 * Bonsai does not know.
 */
export function replayWindowOf(path: readonly SessionEntry[], model: { contextWindow: number; contextWindowOverrides?: readonly string[] }): ModelWindow {
  return windowOfSession(windowEvidenceOfPath(path), model);
}

/** prepareWhatIf + runWhatIf for one replay. */
export function whatIf(path: readonly SessionEntry[], settings: WhatIfSettings): WhatIfReport {
  return runWhatIf(prepareWhatIf(path), settings);
}

/** Totals of a run (everything but its lists). */
export interface WhatIfTotals {
  compactions: number;
  peakContextTokens: number;
  summarizedTokens: number;
  prunedTokens: number;
}

export function runTotals(run: Omit<WhatIfRun, "series">): WhatIfTotals {
  return { compactions: run.compactions.length, peakContextTokens: run.peakContextTokens, summarizedTokens: run.summarizedTokens, prunedTokens: run.prunedTokens };
}

/** Totals over several runs: counts and tokens summed, the peak the highest. */
export function sumTotals(totals: readonly WhatIfTotals[]): WhatIfTotals {
  return totals.reduce(
    (sum, t) => ({
      compactions: sum.compactions + t.compactions,
      peakContextTokens: Math.max(sum.peakContextTokens, t.peakContextTokens),
      summarizedTokens: sum.summarizedTokens + t.summarizedTokens,
      prunedTokens: sum.prunedTokens + t.prunedTokens,
    }),
    { compactions: 0, peakContextTokens: 0, summarizedTokens: 0, prunedTokens: 0 },
  );
}

/**
 * At most about `maxPoints` points of a series for drawing: per bucket of consecutive entries its
 * lowest and highest point (in path order), so peaks and the drops of compactions survive.
 * Each point is [position on the path, tokens].
 */
export function downsampleSeries(series: readonly [string, number][], maxPoints: number): [number, number][] {
  const n = series.length;
  if (n <= maxPoints) return series.map(([, v], i) => [i, v]);
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const out: [number, number][] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * n) / buckets);
    const to = Math.floor(((b + 1) * n) / buckets);
    let lo = from;
    let hi = from;
    for (let i = from; i < to; i++) {
      const v = (series[i] as [string, number])[1];
      if (v < (series[lo] as [string, number])[1]) lo = i;
      if (v > (series[hi] as [string, number])[1]) hi = i;
    }
    const first = Math.min(lo, hi);
    const second = Math.max(lo, hi);
    out.push([first, (series[first] as [string, number])[1]]);
    if (second !== first) out.push([second, (series[second] as [string, number])[1]]);
  }
  return out;
}
