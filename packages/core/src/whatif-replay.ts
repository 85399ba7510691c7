/**
 * The what-if replay of a prepared path under candidate settings (whatif.ts): the candidate agent's
 * path is rebuilt entry by entry, and at every check an agent makes — after each turn and before
 * each prompt (triggers-and-hooks.md §1.2) — the rules of this package run on it: pruning
 * (planPruning, applyPruning), the check steps (skipsCompactionCheck, thresholdInputTokens,
 * shouldCompact) and the plan (prepareCompaction). A compaction that would summarize nothing (no
 * message between the window's start and the first kept entry) is not replayed: it would change
 * nothing the model sees.
 */
import type { AssistantMessage, CompactionEntry, SessionEntry, ToolResultMessage, Usage } from "./entries";
import { liveContextStart, messageFromEntry } from "./context";
import { skipsCompactionCheck, thresholdInputTokens } from "./compaction-check";
import { prepareCompaction } from "./prepare-compaction";
import { applyPruning, DEFAULT_PRUNE_CONFIG, planPruning, type PruneConfig } from "./prune";
import { compactionMaxTokens, estimateTokens, shouldCompact } from "./tokens";
import { assistantOf, toolResultOf, usageTokens } from "./whatif-prepare";
import {
  SUMMARY_RATIO,
  thresholdSettingsOf,
  whatIfSettingsUsed,
  type PreparedWhatIf,
  type SummaryEstimate,
  type WhatIfCompaction,
  type WhatIfReport,
  type WhatIfSettings,
} from "./whatif-types";

function summaryEstimateOf(prepared: PreparedWhatIf): SummaryEstimate {
  const own = prepared.ownSummaries;
  if (own.length === 0) return { source: "ratio", ratio: SUMMARY_RATIO };
  return { source: "session", summaries: own.length, meanTokens: Math.round(own.reduce((a, b) => a + b, 0) / own.length) };
}

const NO_PRIOR_HISTORY_TOKENS = Math.ceil("No prior history.".length / 4);

/** Estimated size of a candidate compaction's summary (see whatif.ts). */
function estimateSummaryTokens(estimate: SummaryEstimate, summarized: number, previousSummary: number, isSplitTurn: boolean, reserveTokens: number): number {
  // messages of no size: the previous summary is kept as it is (Bonsai deviation 5), or "No prior history."
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

/** The candidate agent's path as it grows, with its pruning and compaction state. */
class CandidateReplay {
  readonly cand: SessionEntry[] = [];
  readonly candEst: number[] = [];
  // its tool results (positions in cand, and the entries) and what each message is estimated at
  readonly toolResults: number[] = [];
  readonly toolEntries: SessionEntry[] = [];
  readonly tokensOf = new Map<ToolResultMessage, number>();
  readonly compactions: WhatIfCompaction[] = [];
  readonly protectedTools: Set<string>;
  readonly pruneConfig: PruneConfig;
  readonly summaryEstimate: SummaryEstimate;
  settled = 0;
  latestCompaction: readonly CompactionEntry[] = [];
  live = 0;
  liveStart = 0;
  lastAssistant = -1;
  previousSummary = 0;
  now = 0;
  summarizedTokens = 0;
  prunedTokens = 0;
  // Planning is skipped when it cannot prune. After a plan that left `potential` tokens to save
  // (0 when it pruned), appending Δ tokens of tool output can add at most 2Δ + the largest result:
  // older results leave the protected newest part by at most Δ (plus the one that straddles its
  // edge), and the new results are Δ together. Below the minimum, the plan would prune nothing.
  planned = -1;
  potential = 0;
  addedSincePlan = 0;
  largestResult = 0;

  constructor(
    readonly prepared: PreparedWhatIf,
    readonly settings: WhatIfSettings,
  ) {
    this.pruneConfig = { protectTokens: settings.protectTokens, minimumSavings: settings.minimumSavings, protectedTools: DEFAULT_PRUNE_CONFIG.protectedTools };
    this.protectedTools = new Set(this.pruneConfig.protectedTools);
    this.summaryEstimate = summaryEstimateOf(prepared);
  }

  isSettled(k: number): boolean {
    const m = toolResultOf(this.cand[k]) as ToolResultMessage;
    return m.prunedAt !== undefined || this.protectedTools.has(m.toolName);
  }

  /** pruning.md §3 at a check: the savings inside the live context, or undefined when nothing was pruned */
  prune(): number | undefined {
    if (this.planned === this.toolResults.length || this.potential + 2 * this.addedSincePlan + this.largestResult < this.pruneConfig.minimumSavings) return undefined;
    this.planned = this.toolResults.length;
    this.addedSincePlan = 0;
    // results that are pruned or protected by name never become candidates, and protection counts
    // from the newest result back: a prefix of them cannot change the plan
    while (this.settled < this.toolResults.length && this.isSettled(this.toolResults[this.settled] as number)) this.settled++;
    const window = this.toolEntries.slice(this.settled);
    const plan = planPruning(window, this.pruneConfig, (m) => this.tokensOf.get(m) ?? estimateTokens(m));
    this.potential = plan.prunedCount > 0 ? 0 : plan.potentialTokensSaved;
    if (plan.prunedCount === 0) return undefined;
    let inContext = 0;
    for (const result of applyPruning(window, plan, this.now)) {
      const k = this.toolResults[this.settled + result.index] as number;
      const after = estimateTokens(result.message);
      const saved = (this.candEst[k] as number) - after;
      const entry = { ...(this.cand[k] as SessionEntry), message: result.message } as SessionEntry;
      this.cand[k] = entry;
      this.toolEntries[this.settled + result.index] = entry;
      this.tokensOf.set(result.message, after);
      this.candEst[k] = after;
      if (k >= this.liveStart) {
        this.live -= saved;
        inContext += saved;
      }
    }
    this.prunedTokens += plan.tokensSaved;
    return inContext;
  }

  /** prepareCompaction on the candidate path; nothing when it would summarize no message */
  compact(): void {
    const { cand, candEst } = this;
    const preparation = prepareCompaction(cand, { keepRecentTokens: this.settings.keepRecentTokens });
    if (!preparation) return;
    // the history and the turn prefix: every message from the window's start to the first kept entry
    let summarized = 0;
    let messages = 0;
    for (let k = preparation.boundaryStart; k < preparation.firstKeptEntryIndex; k++) {
      summarized += candEst[k] as number;
      if (messageFromEntry(cand[k] as SessionEntry)) messages++;
    }
    if (messages === 0) return;
    const summary = estimateSummaryTokens(this.summaryEstimate, summarized, this.previousSummary, preparation.isSplitTurn, this.settings.reserveTokens);
    const leaf = cand[cand.length - 1] as SessionEntry;
    const entry: CompactionEntry = {
      type: "compaction",
      id: `whatif-compaction-${this.compactions.length + 1}`,
      parentId: leaf.id,
      timestamp: new Date(this.now).toISOString(),
      summary: "",
      firstKeptEntryId: preparation.firstKeptEntryId,
      tokensBefore: preparation.tokensBefore,
    };
    cand.push(entry);
    candEst.push(0);
    this.latestCompaction = [entry];
    this.liveStart = liveContextStart(cand).keptFrom;
    this.live = summary;
    for (let k = this.liveStart; k < cand.length; k++) this.live += candEst[k] as number;
    this.previousSummary = summary;
    this.summarizedTokens += summarized;
    this.compactions.push({
      atEntryId: leaf.id,
      tokensBefore: preparation.tokensBefore,
      firstKeptEntryId: preparation.firstKeptEntryId,
      summarizedTokens: summarized,
      isSplitTurn: preparation.isSplitTurn,
    });
  }

  /** checkCompaction (triggers-and-hooks.md §1.3; the engine's triggers.ts) on the candidate path, without overflow recovery */
  check(messageIndex: number, skipAbortedCheck: boolean): void {
    const { settings } = this;
    if (!settings.compactionEnabled || messageIndex < 0) return;
    const saved = settings.pruningEnabled ? this.prune() : undefined;
    const message = assistantOf(this.cand[messageIndex]) as AssistantMessage;
    // the rule looks at the latest compaction of the path only
    if (skipsCompactionCheck(message, skipAbortedCheck, this.latestCompaction)) return;
    const tokens = thresholdInputTokens(message, saved ?? 0);
    if (tokens !== undefined && shouldCompact(tokens, settings.contextWindow, thresholdSettingsOf(settings))) this.compact();
  }

  /** appends path entry `i` as the candidate agent would have written it (with the checks before a prompt) */
  append(i: number): AssistantMessage | undefined {
    const { est, clean, liveActual, entryTimes, tokensPerEstimatedToken: r } = this.prepared;
    const entry = clean[i];
    if (!entry) return undefined;
    const message = entry.type === "message" ? entry.message : undefined;
    // before a prompt: the check with the last assistant message of the live context
    if (message?.role === "user") this.check(this.lastAssistant >= this.liveStart ? this.lastAssistant : -1, false);
    const time = entryTimes[i] as number;
    const messageTime = message && typeof message.timestamp === "number" ? message.timestamp : Number.NaN;
    this.now = Math.max(this.now, Number.isFinite(time) ? time : 0, Number.isFinite(messageTime) ? messageTime : 0);
    let pushed = entry;
    const assistant = assistantOf(entry);
    this.live += est[i] as number;
    if (assistant && usageTokens(assistant) > 0) {
      // the candidate agent's usage: the recorded one, moved by the difference in live context
      const tokens = Math.max(0, Math.round(usageTokens(assistant) + r * (this.live - (liveActual[i] as number))));
      pushed = { ...entry, message: { ...assistant, usage: modelledUsage(assistant.usage, tokens) } } as SessionEntry;
    }
    this.cand.push(pushed);
    this.candEst.push(est[i] as number);
    const result = toolResultOf(pushed);
    if (result) {
      this.toolResults.push(this.cand.length - 1);
      this.toolEntries.push(pushed);
      this.tokensOf.set(result, est[i] as number);
      this.addedSincePlan += est[i] as number;
      if (!this.protectedTools.has(result.toolName) && (est[i] as number) > this.largestResult) this.largestResult = est[i] as number;
    }
    if (assistant) this.lastAssistant = this.cand.length - 1;
    return assistant;
  }
}

/** Replays a prepared path under `settings`; `actual` is what the file records. */
export function runWhatIf(prepared: PreparedWhatIf, settings: WhatIfSettings): WhatIfReport {
  const { path, liveActual, actualSeries, tokensPerEstimatedToken: r } = prepared;
  const replay = new CandidateReplay(prepared, settings);
  const series: [string, number][] = new Array(path.length);
  let peak = 0;
  for (let i = 0; i < path.length; i++) {
    const assistant = replay.append(i);
    const value = Math.max(0, Math.round((actualSeries[i] as number) + r * (replay.live - (liveActual[i] as number))));
    series[i] = [(path[i] as SessionEntry).id, value];
    if (value > peak) peak = value;
    // after a turn: the check with its final assistant message
    if (assistant && assistant.stopReason !== "toolUse") replay.check(replay.cand.length - 1, true);
  }
  return {
    settings: { ...whatIfSettingsUsed(settings), summaryEstimate: replay.summaryEstimate, tokensPerEstimatedToken: Math.round(r * 1000) / 1000 },
    actual: prepared.actual,
    candidate: { compactions: replay.compactions, peakContextTokens: peak, summarizedTokens: replay.summarizedTokens, prunedTokens: replay.prunedTokens, series },
  };
}
