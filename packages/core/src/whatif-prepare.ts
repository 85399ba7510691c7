/**
 * The what-if replay's reading of a recorded path (whatif.ts): each entry's estimate (pruned tool
 * outputs at their original size), the unpruned stand-ins the candidate starts from, the file's
 * live estimate and context size along the path, its compactions and prunings (the "actual" run),
 * and r, the session's tokens per estimated token.
 */
import type { AssistantMessage, CompactionEntry, SessionEntry, ToolResultMessage } from "./entries";
import { compactionSummaryMessage, liveContextStart, messageFromEntry } from "./context";
import { splitTurnAt } from "./cut-point";
import { parsePrunedNotice, pruneSavings } from "./prune";
import { calculatePromptTokens, estimateTokens, replyContextTokens } from "./tokens";
import type { PreparedWhatIf, WhatIfCompaction } from "./whatif-types";

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

export function assistantOf(entry: SessionEntry | null | undefined): AssistantMessage | undefined {
  return entry?.type === "message" && entry.message?.role === "assistant" ? entry.message : undefined;
}

export function toolResultOf(entry: SessionEntry | null | undefined): ToolResultMessage | undefined {
  return entry?.type === "message" && entry.message?.role === "toolResult" ? entry.message : undefined;
}

/** Context tokens a reply reports (core replyContextTokens), 0 when it reports none. */
export function usageTokens(message: AssistantMessage): number {
  return replyContextTokens(message) ?? 0;
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

/** Each entry's estimate as appended (a pruned result: its original size), and the stand-ins the candidate starts from. */
interface PathEstimates {
  est: Float64Array;
  /** a pruned result's estimate once pruned (the others: as est) */
  prunedEst: Float64Array;
  clean: (SessionEntry | null)[];
  times: Float64Array;
}

function estimatesOf(path: readonly SessionEntry[]): PathEstimates {
  const n = path.length;
  const est = new Float64Array(n);
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
    const first = result?.prunedAt !== undefined && Array.isArray(result.content) ? result.content[0] : undefined;
    const original = first?.type === "text" && result?.content.length === 1 ? parsePrunedNotice(first.text) : undefined;
    est[i] = original ?? tokens;
    prunedEst[i] = tokens;
    clean[i] = result && original !== undefined ? unpruned(entry, result, original) : entry;
  }
  return { est, prunedEst, clean, times };
}

/** The file's own run: its compactions and prunings, the live estimate after each entry, the usage points. */
interface FileRun {
  liveActual: Float64Array;
  points: UsagePoint[];
  /** the newest usage the display figure reads at each entry (aborted and error replies too, compaction.md §2.6) */
  shown: (UsagePoint | null)[];
  compactions: WhatIfCompaction[];
  ownSummaries: number[];
  summarizedTokens: number;
  prunedTokens: number;
}

function fileRunOf(path: readonly SessionEntry[], e: PathEstimates): FileRun {
  const n = path.length;
  const current = Float64Array.from(e.est);
  const prunings = pruningPositions(path, e.times);
  const run: FileRun = { liveActual: new Float64Array(n), points: [], shown: new Array(n).fill(null), compactions: [], ownSummaries: [], summarizedTokens: 0, prunedTokens: 0 };
  let live = 0;
  let liveStart = 0;
  let previousCompaction = -1;
  let shown: UsagePoint | null = null;
  for (let i = 0; i < n; i++) {
    const entry = path[i] as SessionEntry;
    if (entry.type === "compaction") {
      const { keptFrom } = liveContextStart(path, i + 1);
      const summary = estimateTokens(compactionSummaryMessage(entry as CompactionEntry));
      run.ownSummaries.push(summary);
      const boundaryStart = previousCompaction + 1;
      const found = keptFrom < i;
      const historyEnd = found ? Math.max(boundaryStart, keptFrom) : i;
      let summarized = 0;
      for (let k = boundaryStart; k < historyEnd; k++) summarized += current[k] as number;
      run.summarizedTokens += summarized;
      run.compactions.push({
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
      // a usage reported before the compaction measures the context it replaced: the figure is the estimate
      shown = null;
    } else {
      live += current[i] as number;
    }
    run.liveActual[i] = live;
    const assistant = assistantOf(entry);
    if (assistant && usageTokens(assistant) > 0) {
      const point = { index: i, context: usageTokens(assistant), prompt: calculatePromptTokens(assistant.usage), live };
      shown = point;
      if (isUsagePoint(assistant)) run.points.push(point);
    }
    run.shown[i] = shown;
    for (const k of prunings.get(i) ?? []) {
      run.prunedTokens += pruneSavings(e.est[k] as number);
      if (k >= liveStart && k <= i) live -= (current[k] as number) - (e.prunedEst[k] as number);
      current[k] = e.prunedEst[k] as number;
    }
  }
  return run;
}

/**
 * Reads the path once: estimates, the unpruned stand-ins, the file's live estimate and context size
 * along the path, its compactions and prunings (the "actual" run). The file's context size at an
 * entry is the figure every panel shows (compaction.md §2.6): the last usage reported since the
 * latest compaction plus the estimate of what followed it, else the estimate.
 */
export function prepareWhatIf(path: readonly SessionEntry[]): PreparedWhatIf {
  const n = path.length;
  const estimates = estimatesOf(path);
  const run = fileRunOf(path, estimates);
  const r = fitTokensPerEstimate(run.points);
  const actualSeries = new Float64Array(n);
  const series: [string, number][] = new Array(n);
  let peak = 0;
  for (let i = 0; i < n; i++) {
    const point = run.shown[i];
    const live = run.liveActual[i] as number;
    const value = Math.max(0, Math.round(point ? point.context + (live - point.live) : live));
    actualSeries[i] = value;
    series[i] = [(path[i] as SessionEntry).id, value];
    if (value > peak) peak = value;
  }
  const { compactions, summarizedTokens, prunedTokens } = run;
  return {
    path,
    clean: estimates.clean,
    est: estimates.est,
    liveActual: run.liveActual,
    actualSeries,
    actual: { compactions, peakContextTokens: peak, summarizedTokens, prunedTokens, series },
    tokensPerEstimatedToken: r,
    ownSummaries: run.ownSummaries,
    entryTimes: estimates.times,
  };
}
