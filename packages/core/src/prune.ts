/**
 * Tool-output pruning (spec: pruning.md). Planning is separate from applying: `planPruning` decides
 * which tool results would be replaced by a notice, `applyPruning` returns the replacement messages
 * without touching the entries, so that the store can keep the originals (deviation 9).
 */
import type { SessionEntry, ToolResultMessage } from "./entries";
import { estimateTokens } from "./tokens";
import { IdList } from "./id-list";
import { DEFAULT_PRUNE_CONFIG } from "./defaults";

// defined with the other defaults (defaults.ts: what the command line loads for its help)
export { DEFAULT_PRUNE_CONFIG, NORMATIVE_PROTECTED_TOOLS } from "./defaults";

export interface PruneConfig {
  /** newest tool-output tokens that are never pruned */
  protectTokens: number;
  /** pruning happens only when it saves at least this many tokens */
  minimumSavings: number;
  /** tool names whose results are never pruned */
  protectedTools: readonly string[];
}

/** The reference checkout's protected tools (read results prunable), for compatibility checks. */
export const CHECKOUT_PROTECTED_TOOLS: readonly string[] = ["skill"];

/** The text a pruned result's content is replaced with. */
export function prunedNotice(tokens: number): string {
  return `[Output truncated - ${tokens} tokens]`;
}

const NOTICE = /^\[Output truncated - (\d+) tokens\]$/;

/** The pre-prune estimate written into a pruned result's notice, or undefined when `text` is no notice. */
export function parsePrunedNotice(text: string): number | undefined {
  const match = NOTICE.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** Estimated tokens saved by replacing a result of `tokens` estimated tokens with its notice. */
export function pruneSavings(tokens: number): number {
  return Math.max(0, tokens - Math.ceil(prunedNotice(tokens).length / 4));
}

export interface PruneCandidate {
  entryId: string;
  /** index of the entry in the list given to planPruning */
  index: number;
  toolName: string;
  /** estimate of the result before pruning (the number written into the notice) */
  tokens: number;
  /** estimate saved by pruning this result */
  savings: number;
}

export interface PrunePlan {
  /** results that will be pruned, oldest first; empty when the minimum saving is not reached */
  candidates: PruneCandidate[];
  prunedCount: number;
  tokensSaved: number;
  /** what pruning every eligible result would save, even when below the minimum */
  potentialTokensSaved: number;
  /** how many results were eligible, even when below the minimum */
  potentialCount: number;
}

function toolResultOf(entry: SessionEntry): ToolResultMessage | undefined {
  return entry.type === "message" && entry.message?.role === "toolResult" ? entry.message : undefined;
}

/** What pruning needs of one tool result on the path. */
export interface ToolResultOnPath {
  entryId: string;
  /** position of its entry on the path */
  index: number;
  toolName: unknown;
  /** estimateTokens of the result */
  tokens: number;
  /** already pruned (`prunedAt` set) */
  pruned: boolean;
}

/**
 * pruning.md §2 on `entries` (the current branch path, root -> leaf): walks newest to oldest,
 * protects the newest `protectTokens` of tool output (decided before adding the current result),
 * protected tools and already-pruned results; prunes only when the total saving reaches the minimum.
 * @param tokensOf the estimate of a result (compaction.md §2.4); a caller that knows it passes it in
 */
export function planPruning(
  entries: readonly SessionEntry[],
  config: PruneConfig = DEFAULT_PRUNE_CONFIG,
  tokensOf: (message: ToolResultMessage) => number = estimateTokens,
): PrunePlan {
  return planPruningOf(toolResultsOf(entries, tokensOf), config);
}

/** The tool results among the path's entries, as pruning reads them. */
export function toolResultsOf(entries: readonly SessionEntry[], tokensOf: (message: ToolResultMessage) => number = estimateTokens): ToolResultOnPath[] {
  const results: ToolResultOnPath[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const message = entry && toolResultOf(entry);
    if (!entry || !message) continue;
    results.push({ entryId: entry.id, index: i, toolName: message.toolName, tokens: tokensOf(message), pruned: message.prunedAt !== undefined });
  }
  return results;
}

/** planPruning from the tool results of the path alone (in path order): what a store that keeps their columns needs. */
export function planPruningOf(results: readonly ToolResultOnPath[], config: PruneConfig = DEFAULT_PRUNE_CONFIG): PrunePlan {
  const protectedTools = new Set<unknown>(config.protectedTools);
  let accumulated = 0;
  const eligible: PruneCandidate[] = [];
  for (let i = results.length - 1; i >= 0; i--) {
    const r = results[i] as ToolResultOnPath;
    const protectedByPosition = accumulated < config.protectTokens;
    accumulated += r.tokens;
    if (r.pruned || protectedByPosition || protectedTools.has(r.toolName)) continue;
    eligible.push({ entryId: r.entryId, index: r.index, toolName: r.toolName as string, tokens: r.tokens, savings: pruneSavings(r.tokens) });
  }
  return planOfEligible(eligible.reverse(), config);
}

/**
 * pruning.md §2's threshold on the results a plan may prune (oldest first; neither protected by
 * position or tool name nor pruned already): all of them when together they save at least the
 * minimum, else none. A store that finds them with its own queries plans with this.
 */
export function planOfEligible(eligible: PruneCandidate[], config: PruneConfig = DEFAULT_PRUNE_CONFIG): PrunePlan {
  let potentialTokensSaved = 0;
  for (const c of eligible) potentialTokensSaved += c.savings;
  const prunes = eligible.length > 0 && potentialTokensSaved >= config.minimumSavings;
  return {
    candidates: prunes ? eligible : [],
    prunedCount: prunes ? eligible.length : 0,
    tokensSaved: prunes ? potentialTokensSaved : 0,
    potentialTokensSaved,
    potentialCount: eligible.length,
  };
}

/**
 * Why a plan prunes nothing, as one sentence the CLI prints and the app shows ("Nothing to prune:
 * 8 results would save only 17,361 tokens (minimum 20,000)."); null when it prunes something.
 */
export function nothingToPruneReason(plan: Pick<PrunePlan, "prunedCount" | "potentialCount" | "potentialTokensSaved">, config: Pick<PruneConfig, "minimumSavings">): string | null {
  if (plan.prunedCount > 0) return null;
  if (plan.potentialCount === 0) return "Nothing to prune: no unprotected tool result.";
  const n = (v: number) => v.toLocaleString("en-US");
  const results = plan.potentialCount === 1 ? "1 result" : `${n(plan.potentialCount)} results`;
  return `Nothing to prune: ${results} would save only ${n(plan.potentialTokensSaved)} tokens (minimum ${n(config.minimumSavings)}).`;
}

/** What a dry run reports of a plan: the ids of the results it prunes (oldest first) and its figures. */
export interface PruneSummary {
  entryIds: IdList;
  prunedCount: number;
  tokensSaved: number;
  potentialTokensSaved: number;
  potentialCount: number;
}

export function summarizePrunePlan(plan: PrunePlan): PruneSummary {
  const { prunedCount, tokensSaved, potentialTokensSaved, potentialCount } = plan;
  return { entryIds: IdList.of(plan.candidates.map((c) => c.entryId)), prunedCount, tokensSaved, potentialTokensSaved, potentialCount };
}

export interface PrunedResult {
  entryId: string;
  index: number;
  /** the replacement message; the entry's own message is left untouched */
  message: ToolResultMessage;
}

/**
 * The pruned form of every candidate of `plan`: the same message with its content replaced by one
 * notice text block (images removed) and `prunedAt = now` (one timestamp for all, in ms).
 */
export function applyPruning(entries: readonly SessionEntry[], plan: PrunePlan, now: number): PrunedResult[] {
  const results: PrunedResult[] = [];
  for (const candidate of plan.candidates) {
    const entry = entries[candidate.index];
    const message = entry && entry.id === candidate.entryId ? toolResultOf(entry) : undefined;
    if (!message) throw new Error(`Pruning plan does not match the entries: no tool result ${candidate.entryId} at index ${candidate.index}`);
    results.push({
      entryId: candidate.entryId,
      index: candidate.index,
      message: { ...message, content: [{ type: "text", text: prunedNotice(candidate.tokens) }], prunedAt: now },
    });
  }
  return results;
}
