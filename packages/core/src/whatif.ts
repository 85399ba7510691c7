/**
 * What-if replay: a recorded session's active path replayed turn by turn under other compaction and
 * pruning settings, with no model call. The replay rebuilds the session as an agent running with
 * the candidate settings would have written it: the file's own compactions are left out, pruned
 * tool outputs get back their original size (the number in their notice), and at every check an
 * agent makes — after each turn and before each prompt (triggers-and-hooks.md §1.2) — it runs the
 * rules of this package on that rebuilt path: pruning (planPruning, applyPruning), the check steps
 * (skipsCompactionCheck, thresholdInputTokens, shouldCompact) and the plan (prepareCompaction,
 * which places the cut). Nothing here restates one of those rules.
 *
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
import type { AssistantMessage, CompactionEntry, SessionEntry, ToolResultMessage, Usage } from "./entries";
import type { BonsaiSettings } from "./settings";
import { compactionSummaryMessage, liveContextStart, messageFromEntry } from "./context";
import { skipsCompactionCheck, thresholdInputTokens } from "./compaction-check";
import { splitTurnAt } from "./cut-point";
import { prepareCompaction } from "./prepare-compaction";
import { applyPruning, DEFAULT_PRUNE_CONFIG, parsePrunedNotice, planPruning, pruneSavings, type PruneConfig } from "./prune";
import { calculateContextTokens, calculatePromptTokens, compactionMaxTokens, compactionThreshold, estimateTokens, shouldCompact } from "./tokens";

/** Every value a replay runs with. */
export interface WhatIfSettings {
  compactionEnabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
  /** absolute threshold; 0 = contextWindow - reserveTokens */
  thresholdTokens: number;
  /** threshold in percent of the window; 0 = unset */
  thresholdPercent: number;
  pruningEnabled: boolean;
  protectTokens: number;
  minimumSavings: number;
  contextWindow: number;
}

/** The replay settings of Bonsai's settings (the engine runs with these). */
export function whatIfSettingsOf(settings: BonsaiSettings): WhatIfSettings {
  return {
    compactionEnabled: settings.compaction.enabled,
    reserveTokens: settings.compaction.reserveTokens,
    keepRecentTokens: settings.compaction.keepRecentTokens,
    thresholdTokens: settings.compaction.thresholdTokens,
    thresholdPercent: settings.compaction.thresholdPercent,
    pruningEnabled: settings.pruning.enabled,
    protectTokens: settings.pruning.protectTokens,
    minimumSavings: settings.pruning.minimumSavings,
    contextWindow: settings.model.contextWindow,
  };
}

/** Share of the summarized tokens a summary is estimated at when the session has no summary of its own. */
export const SUMMARY_RATIO = 0.03;

/** How summary sizes were estimated. */
export type SummaryEstimate =
  | { source: "session"; summaries: number; meanTokens: number }
  | { source: "ratio"; ratio: number };

export interface WhatIfCompaction {
  /** the entry the compaction follows on the path (the leaf when it ran) */
  atEntryId: string;
  tokensBefore: number;
  firstKeptEntryId: string;
  /** estimate (chars/4) of the history and turn-prefix messages it summarized */
  summarizedTokens: number;
  isSplitTurn: boolean;
}

export interface WhatIfRun {
  compactions: WhatIfCompaction[];
  peakContextTokens: number;
  summarizedTokens: number;
  /** estimated tokens removed by pruning (the rule's tokensSaved, summed) */
  prunedTokens: number;
  /** context size (tokens) with each path entry as the leaf, root -> leaf */
  series: [string, number][];
}

/** The settings of a replay with what follows from them. */
export interface WhatIfSettingsUsed extends WhatIfSettings {
  /** the threshold the trigger compares with */
  threshold: number;
  protectedTools: string[];
}

export function whatIfSettingsUsed(settings: WhatIfSettings): WhatIfSettingsUsed {
  return { ...settings, threshold: compactionThreshold(settings.contextWindow, thresholdSettingsOf(settings)), protectedTools: [...DEFAULT_PRUNE_CONFIG.protectedTools] };
}

function thresholdSettingsOf(s: WhatIfSettings) {
  return { enabled: s.compactionEnabled, reserveTokens: s.reserveTokens, thresholdTokens: s.thresholdTokens, thresholdPercent: s.thresholdPercent };
}

export interface WhatIfReport {
  settings: WhatIfSettingsUsed & {
    summaryEstimate: SummaryEstimate;
    /** r: real tokens per estimated token, from the session's usages */
    tokensPerEstimatedToken: number;
  };
  /** what the file records */
  actual: WhatIfRun;
  /** the replay under the settings */
  candidate: WhatIfRun;
}

/** A session's path prepared once; runWhatIf replays it under any settings. */
export interface PreparedWhatIf {
  readonly path: readonly SessionEntry[];
  /** path entries as the candidate starts from: compactions null, pruned tool results unpruned */
  readonly clean: readonly (SessionEntry | null)[];
  /** estimate of each entry's context message when appended (pruned results: their original size) */
  readonly est: Float64Array;
  /** the file's live-context estimate after each entry */
  readonly liveActual: Float64Array;
  /** the file's context size (tokens) after each entry */
  readonly actualSeries: Float64Array;
  readonly actual: WhatIfRun;
  readonly tokensPerEstimatedToken: number;
  readonly ownSummaries: readonly number[];
  readonly entryTimes: Float64Array;
}

interface UsagePoint {
  index: number;
  /** calculateContextTokens of the usage */
  context: number;
  prompt: number;
  live: number;
}

function timeOf(entry: SessionEntry): number {
  const t = Date.parse(entry.timestamp);
  return Number.isFinite(t) ? t : Number.NaN;
}

function assistantOf(entry: SessionEntry | null | undefined): AssistantMessage | undefined {
  return entry?.type === "message" && entry.message?.role === "assistant" ? entry.message : undefined;
}

function toolResultOf(entry: SessionEntry | null | undefined): ToolResultMessage | undefined {
  return entry?.type === "message" && entry.message?.role === "toolResult" ? entry.message : undefined;
}

/** Context tokens of a recorded usage object (0 when there is none or it is all zeros). */
function usageTokens(message: AssistantMessage): number {
  return message.usage && typeof message.usage === "object" ? calculateContextTokens(message.usage) : 0;
}

/** A usage the context size can be read from: an assistant reply that was neither aborted nor an error. */
function isUsagePoint(message: AssistantMessage | undefined): message is AssistantMessage {
  return message !== undefined && message.stopReason !== "aborted" && message.stopReason !== "error" && usageTokens(message) > 0;
}

/** r: least-squares slope of prompt tokens over the live estimate, within [1, 4]; 1 without usage. */
function fitTokensPerEstimate(points: readonly UsagePoint[]): number {
  const clamp = (r: number) => (Number.isFinite(r) ? Math.min(4, Math.max(1, r)) : 1);
  if (points.length === 0) return 1;
  const n = points.length;
  let sx = 0;
  let sy = 0;
  for (const p of points) {
    sx += p.live;
    sy += p.prompt;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.live - mx) * (p.live - mx);
    sxy += (p.live - mx) * (p.prompt - my);
  }
  // one usage, or no spread in the live estimate: the plain ratio of the last point
  if (n < 2 || sxx <= 0) {
    const last = points[n - 1] as UsagePoint;
    return last.live > 0 ? clamp(last.prompt / last.live) : 1;
  }
  return clamp(sxy / sxx);
}

/** An unpruned stand-in for a pruned tool result: same fields, content of its original estimate. */
function unpruned(entry: SessionEntry, message: ToolResultMessage, tokens: number): SessionEntry {
  const { prunedAt: _prunedAt, ...rest } = message;
  return { ...entry, message: { ...rest, content: [{ type: "text", text: "x".repeat(tokens * 4) }] } } as SessionEntry;
}

/** Where each pruning of the file happened: after the last path entry not newer than its prunedAt. */
function pruningPositions(path: readonly SessionEntry[], times: Float64Array): Map<number, number[]> {
  const byTime = new Map<number, number[]>();
  path.forEach((entry, k) => {
    const prunedAt = toolResultOf(entry)?.prunedAt;
    if (typeof prunedAt !== "number") return;
    const list = byTime.get(prunedAt) ?? [];
    list.push(k);
    byTime.set(prunedAt, list);
  });
  const at = new Map<number, number[]>();
  for (const [prunedAt, indexes] of byTime) {
    let position = -1;
    for (let i = 0; i < path.length; i++) if ((times[i] as number) <= prunedAt) position = i;
    // a result cannot be pruned before it exists
    position = Math.max(position, ...indexes);
    at.set(position, [...(at.get(position) ?? []), ...indexes]);
  }
  return at;
}

/**
 * Reads the path once: estimates, the unpruned stand-ins, the file's live estimate and context size
 * along the path, its compactions and prunings (the "actual" run).
 */
export function prepareWhatIf(path: readonly SessionEntry[]): PreparedWhatIf {
  const n = path.length;
  const est = new Float64Array(n);
  const current = new Float64Array(n);
  const prunedEst = new Float64Array(n);
  const clean: (SessionEntry | null)[] = new Array(n);
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const entry = path[i] as SessionEntry;
    times[i] = timeOf(entry);
    if (entry.type === "compaction") {
      clean[i] = null;
      continue;
    }
    const message = messageFromEntry(entry);
    const tokens = message ? estimateTokens(message) : 0;
    const result = toolResultOf(entry);
    if (result && result.prunedAt !== undefined) {
      const first = Array.isArray(result.content) ? result.content[0] : undefined;
      const original = first?.type === "text" && result.content.length === 1 ? parsePrunedNotice(first.text) : undefined;
      const before = original ?? tokens;
      est[i] = before;
      prunedEst[i] = tokens;
      clean[i] = original === undefined ? entry : unpruned(entry, result, before);
    } else {
      est[i] = tokens;
      prunedEst[i] = tokens;
      clean[i] = entry;
    }
    current[i] = est[i] as number;
  }

  const prunings = pruningPositions(path, times);
  const liveActual = new Float64Array(n);
  const points: UsagePoint[] = [];
  const anchors = new Int32Array(n).fill(-1);
  const compactions: WhatIfCompaction[] = [];
  const ownSummaries: number[] = [];
  let summarizedTokens = 0;
  let prunedTokens = 0;
  let live = 0;
  let liveStart = 0;
  let previousCompaction = -1;
  for (let i = 0; i < n; i++) {
    const entry = path[i] as SessionEntry;
    if (entry.type === "compaction") {
      const { keptFrom } = liveContextStart(path, i + 1);
      const summary = estimateTokens(compactionSummaryMessage(entry as CompactionEntry));
      ownSummaries.push(summary);
      const boundaryStart = previousCompaction + 1;
      const found = keptFrom < i;
      const historyEnd = found ? Math.max(boundaryStart, keptFrom) : i;
      let summarized = 0;
      for (let k = boundaryStart; k < historyEnd; k++) summarized += current[k] as number;
      summarizedTokens += summarized;
      compactions.push({
        atEntryId: i > 0 ? (path[i - 1] as SessionEntry).id : entry.id,
        tokensBefore: (entry as CompactionEntry).tokensBefore,
        firstKeptEntryId: (entry as CompactionEntry).firstKeptEntryId ?? "",
        summarizedTokens: summarized,
        isSplitTurn: found && keptFrom >= boundaryStart ? splitTurnAt(path, keptFrom, boundaryStart).isSplitTurn : false,
      });
      live = summary;
      for (let k = keptFrom; k < i; k++) live += current[k] as number;
      liveStart = keptFrom;
      previousCompaction = i;
    } else {
      live += current[i] as number;
    }
    liveActual[i] = live;
    const assistant = assistantOf(entry);
    if (isUsagePoint(assistant)) points.push({ index: i, context: usageTokens(assistant), prompt: calculatePromptTokens(assistant.usage), live });
    anchors[i] = points.length - 1;
    for (const k of prunings.get(i) ?? []) {
      prunedTokens += pruneSavings(est[k] as number);
      if (k >= liveStart && k <= i) live -= (current[k] as number) - (prunedEst[k] as number);
      current[k] = prunedEst[k] as number;
    }
  }

  const r = fitTokensPerEstimate(points);
  const actualSeries = new Float64Array(n);
  const series: [string, number][] = new Array(n);
  let peak = 0;
  for (let i = 0; i < n; i++) {
    // before the first usage, the first one anchors the estimate
    const point = points[Math.max(0, anchors[i] as number)];
    const value = point ? Math.max(0, Math.round(point.context + r * ((liveActual[i] as number) - point.live))) : Math.round(liveActual[i] as number);
    actualSeries[i] = value;
    series[i] = [(path[i] as SessionEntry).id, value];
    if (value > peak) peak = value;
  }

  return {
    path,
    clean,
    est,
    liveActual,
    actualSeries,
    actual: { compactions, peakContextTokens: peak, summarizedTokens, prunedTokens, series },
    tokensPerEstimatedToken: r,
    ownSummaries,
    entryTimes: times,
  };
}

function summaryEstimateOf(prepared: PreparedWhatIf): SummaryEstimate {
  const own = prepared.ownSummaries;
  if (own.length === 0) return { source: "ratio", ratio: SUMMARY_RATIO };
  return { source: "session", summaries: own.length, meanTokens: Math.round(own.reduce((a, b) => a + b, 0) / own.length) };
}

const NO_PRIOR_HISTORY_TOKENS = Math.ceil("No prior history.".length / 4);

/** Estimated size of a candidate compaction's summary (see the module comment). */
function estimateSummaryTokens(estimate: SummaryEstimate, summarized: number, previousSummary: number, isSplitTurn: boolean, reserveTokens: number): number {
  // nothing new: the previous summary is kept as it is (Bonsai deviation 5), or "No prior history."
  if (summarized === 0) return previousSummary > 0 ? previousSummary : NO_PRIOR_HISTORY_TOKENS;
  const wanted = estimate.source === "session" ? estimate.meanTokens : Math.ceil(estimate.ratio * (summarized + previousSummary));
  const maxTokens = compactionMaxTokens(reserveTokens);
  const budget = maxTokens.history + (isSplitTurn ? maxTokens.turnPrefix : 0);
  return Math.min(wanted, budget);
}

/** `usage` with the context size replaced by `tokens` (output kept; the rest counted as input). */
function modelledUsage(usage: Usage, tokens: number): Usage {
  const output = typeof usage.output === "number" && Number.isFinite(usage.output) ? usage.output : 0;
  return { input: Math.max(0, tokens - output), output, cacheRead: 0, cacheWrite: 0, totalTokens: tokens };
}

/** Replays a prepared path under `settings`; `actual` is what the file records. */
export function runWhatIf(prepared: PreparedWhatIf, settings: WhatIfSettings): WhatIfReport {
  const { path, clean, est, liveActual, actualSeries, tokensPerEstimatedToken: r, entryTimes } = prepared;
  const summaryEstimate = summaryEstimateOf(prepared);
  const threshold = thresholdSettingsOf(settings);
  const pruneConfig: PruneConfig = { protectTokens: settings.protectTokens, minimumSavings: settings.minimumSavings, protectedTools: DEFAULT_PRUNE_CONFIG.protectedTools };
  const protectedTools = new Set(pruneConfig.protectedTools);

  // the candidate's path, with its current estimates
  const cand: SessionEntry[] = [];
  const candEst: number[] = [];
  // its tool results (positions in cand, and the entries) and what each message is estimated at
  const toolResults: number[] = [];
  const toolEntries: SessionEntry[] = [];
  const tokensOf = new Map<ToolResultMessage, number>();
  let settled = 0;
  let latestCompaction: readonly CompactionEntry[] = [];
  let live = 0;
  let liveStart = 0;
  let lastAssistant = -1;
  let previousSummary = 0;
  let now = 0;
  const compactions: WhatIfCompaction[] = [];
  let summarizedTokens = 0;
  let prunedTokens = 0;

  const isSettled = (k: number): boolean => {
    const m = toolResultOf(cand[k]) as ToolResultMessage;
    return m.prunedAt !== undefined || protectedTools.has(m.toolName);
  };

  /** pruning.md §3 at a check: returns the savings inside the live context, or undefined when nothing was pruned */
  // Planning is skipped when it cannot prune. After a plan that left `potential` tokens to save
  // (0 when it pruned), appending Δ tokens of tool output can add at most 2Δ + the largest result:
  // older results leave the protected newest part by at most Δ (plus the one that straddles its
  // edge), and the new results are Δ together. Below the minimum, the plan would prune nothing.
  let planned = -1;
  let potential = 0;
  let addedSincePlan = 0;
  let largestResult = 0;
  const prune = (): number | undefined => {
    if (planned === toolResults.length || potential + 2 * addedSincePlan + largestResult < pruneConfig.minimumSavings) return undefined;
    planned = toolResults.length;
    addedSincePlan = 0;
    // results that are pruned or protected by name never become candidates, and protection counts
    // from the newest result back: a prefix of them cannot change the plan
    while (settled < toolResults.length && isSettled(toolResults[settled] as number)) settled++;
    const window = toolEntries.slice(settled);
    const plan = planPruning(window, pruneConfig, (m) => tokensOf.get(m) ?? estimateTokens(m));
    potential = plan.prunedCount > 0 ? 0 : plan.potentialTokensSaved;
    if (plan.prunedCount === 0) return undefined;
    let inContext = 0;
    for (const result of applyPruning(window, plan, now)) {
      const k = toolResults[settled + result.index] as number;
      const after = estimateTokens(result.message);
      const saved = (candEst[k] as number) - after;
      const entry = { ...(cand[k] as SessionEntry), message: result.message } as SessionEntry;
      cand[k] = entry;
      toolEntries[settled + result.index] = entry;
      tokensOf.set(result.message, after);
      candEst[k] = after;
      if (k >= liveStart) {
        live -= saved;
        inContext += saved;
      }
    }
    prunedTokens += plan.tokensSaved;
    return inContext;
  };

  const compact = (): void => {
    const preparation = prepareCompaction(cand, { keepRecentTokens: settings.keepRecentTokens });
    if (!preparation) return;
    // the history and the turn prefix: every message from the window's start to the first kept entry
    let summarized = 0;
    for (let k = preparation.boundaryStart; k < preparation.firstKeptEntryIndex; k++) summarized += candEst[k] as number;
    const summary = estimateSummaryTokens(summaryEstimate, summarized, previousSummary, preparation.isSplitTurn, settings.reserveTokens);
    const leaf = cand[cand.length - 1] as SessionEntry;
    const entry: CompactionEntry = {
      type: "compaction",
      id: `whatif-compaction-${compactions.length + 1}`,
      parentId: leaf.id,
      timestamp: new Date(now).toISOString(),
      summary: "",
      firstKeptEntryId: preparation.firstKeptEntryId,
      tokensBefore: preparation.tokensBefore,
    };
    cand.push(entry);
    candEst.push(0);
    latestCompaction = [entry];
    liveStart = liveContextStart(cand).keptFrom;
    live = summary;
    for (let k = liveStart; k < cand.length; k++) live += candEst[k] as number;
    previousSummary = summary;
    summarizedTokens += summarized;
    compactions.push({
      atEntryId: leaf.id,
      tokensBefore: preparation.tokensBefore,
      firstKeptEntryId: preparation.firstKeptEntryId,
      summarizedTokens: summarized,
      isSplitTurn: preparation.isSplitTurn,
    });
  };

  /** checkCompaction (triggers-and-hooks.md §1.3; the engine's triggers.ts) on the candidate path, without overflow recovery */
  const check = (messageIndex: number, skipAbortedCheck: boolean): void => {
    if (!settings.compactionEnabled || messageIndex < 0) return;
    const saved = settings.pruningEnabled ? prune() : undefined;
    const message = assistantOf(cand[messageIndex]) as AssistantMessage;
    // the rule looks at the latest compaction of the path only
    if (skipsCompactionCheck(message, skipAbortedCheck, latestCompaction)) return;
    const tokens = thresholdInputTokens(message, saved ?? 0);
    if (tokens !== undefined && shouldCompact(tokens, settings.contextWindow, threshold)) compact();
  };

  const series: [string, number][] = new Array(path.length);
  let peak = 0;
  for (let i = 0; i < path.length; i++) {
    const original = path[i] as SessionEntry;
    const entry = clean[i];
    if (entry) {
      const message = entry.type === "message" ? entry.message : undefined;
      // before a prompt: the check with the last assistant message of the live context
      if (message?.role === "user") check(lastAssistant >= liveStart ? lastAssistant : -1, false);
      const time = entryTimes[i] as number;
      const messageTime = message && typeof message.timestamp === "number" ? message.timestamp : Number.NaN;
      now = Math.max(now, Number.isFinite(time) ? time : 0, Number.isFinite(messageTime) ? messageTime : 0);
      let pushed = entry;
      const assistant = assistantOf(entry);
      live += est[i] as number;
      if (assistant && usageTokens(assistant) > 0) {
        // the candidate agent's usage: the recorded one, moved by the difference in live context
        const tokens = Math.max(0, Math.round(usageTokens(assistant) + r * (live - (liveActual[i] as number))));
        pushed = { ...entry, message: { ...assistant, usage: modelledUsage(assistant.usage, tokens) } } as SessionEntry;
      }
      cand.push(pushed);
      candEst.push(est[i] as number);
      const result = toolResultOf(pushed);
      if (result) {
        toolResults.push(cand.length - 1);
        toolEntries.push(pushed);
        tokensOf.set(result, est[i] as number);
        addedSincePlan += est[i] as number;
        if (!protectedTools.has(result.toolName) && (est[i] as number) > largestResult) largestResult = est[i] as number;
      }
      if (assistant) lastAssistant = cand.length - 1;
    }
    const value = Math.max(0, Math.round((actualSeries[i] as number) + r * (live - (liveActual[i] as number))));
    series[i] = [original.id, value];
    if (value > peak) peak = value;
    // after a turn: the check with its final assistant message
    const assistant = entry ? assistantOf(entry) : undefined;
    if (assistant && assistant.stopReason !== "toolUse") check(cand.length - 1, true);
  }

  return {
    settings: {
      ...whatIfSettingsUsed(settings),
      summaryEstimate,
      tokensPerEstimatedToken: Math.round(r * 1000) / 1000,
    },
    actual: prepared.actual,
    candidate: { compactions, peakContextTokens: peak, summarizedTokens, prunedTokens, series },
  };
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
