/**
 * Branch summaries (spec: branch-summary.md §2-4): which entries an abandoned branch consists of,
 * which of their messages fit the summarization budget, and which files they touched.
 */
import type { AgentMessage, SessionEntry } from "./entries";
import { compactionSummaryMessage, messageFromEntry } from "./context";
import { branchSummaryMessageFromEntry } from "./cut-point";
import { addFileListDetails, createFileOperations, extractFileOpsFromMessage, type FileOperations } from "./file-ops";
import { estimateTokens } from "./tokens";
import { IdList } from "./id-list";
import { getPath, type SessionIndex } from "./tree";

// defined with the other defaults (defaults.ts: what the command line loads for its help)
export { DEFAULT_BRANCH_BUDGET } from "./defaults";

export interface BranchCollection {
  /** the abandoned entries, chronological (root side first), of every type */
  entries: SessionEntry[];
  /** deepest entry shared by both paths; null when none (or no old leaf) */
  commonAncestorId: string | null;
}

/**
 * §2: the entries from the old leaf back to (excluding) the deepest common ancestor with the
 * target's path. Empty when the target descends from the old leaf or the old leaf is null.
 */
export function collectEntriesForBranchSummary(
  index: SessionIndex,
  oldLeafId: string | null,
  targetId: string,
): BranchCollection {
  if (oldLeafId === null) return { entries: [], commonAncestorId: null };
  const oldPath = getPath(index, oldLeafId);
  const positionOnOldPath = new Map<string, number>();
  oldPath.forEach((entry, i) => positionOnOldPath.set(entry.id, i));
  const targetPath = getPath(index, targetId);
  for (let i = targetPath.length - 1; i >= 0; i--) {
    const id = (targetPath[i] as SessionEntry).id;
    const position = positionOnOldPath.get(id);
    if (position !== undefined) return { entries: oldPath.slice(position + 1), commonAncestorId: id };
  }
  return { entries: oldPath, commonAncestorId: null };
}

/**
 * Branch variant (§3): tool results give nothing (their context lives in the assistant's call),
 * compactions become `compactionSummary` messages, branch summaries `branchSummary` (even empty).
 */
export function getBranchMessageFromEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return !entry.message || entry.message.role === "toolResult" ? undefined : entry.message;
    case "custom_message":
      return messageFromEntry(entry);
    case "branch_summary":
      return branchSummaryMessageFromEntry(entry);
    case "compaction":
      return compactionSummaryMessage(entry);
    default:
      return undefined;
  }
}

export interface PreparedBranchEntries {
  /** messages within the budget, chronological */
  messages: AgentMessage[];
  fileOps: FileOperations;
  totalTokens: number;
  /** ids of the entries whose messages were included, chronological (one per message) */
  includedEntryIds: string[];
  /** their indexes in the given entries */
  includedIndexes: number[];
}

/**
 * §4 pass 1 for one entry: an internal branch summary's `details` lists count as read / edited
 * files (an extension's summary, or one without details, adds nothing).
 */
export function addBranchSummaryFileLists(entry: SessionEntry, fileOps: FileOperations): void {
  if (entry.type === "branch_summary" && !entry.fromExtension && entry.details) addFileListDetails(entry.details, fileOps);
}

/**
 * What §4's budget rule does with the next message, walking from the newest: "take" (included, the
 * walk goes on), "last" (included, the walk stops: a summary that overflows while less than 90 %
 * of the budget is used) or "stop" (not included, the walk stops).
 */
export type BranchBudgetStep = "take" | "last" | "stop";

/**
 * §4 pass 2's rule for the next message (newest first) of `tokens`, with `totalTokens` already
 * included: it is included while the budget holds; a summary (compaction or branch) that overflows
 * is still included when less than 90 % of the budget is used; the first overflow stops. Budget
 * <= 0 is unlimited. (The message's file operations count either way: they are added before the
 * budget check.)
 */
export function branchBudgetStep(totalTokens: number, tokens: number, isSummary: boolean, tokenBudget: number): BranchBudgetStep {
  if (tokenBudget <= 0 || totalTokens + tokens <= tokenBudget) return "take";
  return isSummary && totalTokens < 0.9 * tokenBudget ? "last" : "stop";
}

/**
 * §4. Pass 1: file lists of internal branch summaries' details (compaction details are not used).
 * Pass 2, newest to oldest: each message adds its file operations (before the budget check), then
 * goes through branchBudgetStep (a store walks its rows with the same rule).
 */
export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget = 0): PreparedBranchEntries {
  const fileOps = createFileOperations();
  for (const entry of entries) addBranchSummaryFileLists(entry, fileOps);

  const messages: AgentMessage[] = [];
  const includedIndexes: number[] = [];
  let totalTokens = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i] as SessionEntry;
    const message = getBranchMessageFromEntry(entry);
    if (!message) continue;
    extractFileOpsFromMessage(message, fileOps);
    const tokens = estimateTokens(message);
    const step = branchBudgetStep(totalTokens, tokens, entry.type === "compaction" || entry.type === "branch_summary", tokenBudget);
    if (step === "stop") break;
    messages.push(message);
    includedIndexes.push(i);
    totalTokens += tokens;
    if (step === "last") break;
  }
  messages.reverse();
  includedIndexes.reverse();
  return {
    messages,
    fileOps,
    totalTokens,
    includedEntryIds: includedIndexes.map((i) => (entries[i] as SessionEntry).id),
    includedIndexes,
  };
}

/**
 * What a branch summary plan of a move decides, without its messages (what `bonsai branch`
 * reports; a store reads it from its rows): the abandoned entries' ids, the common ancestor, the
 * entries whose messages fit the budget, their estimated tokens and the files they touched.
 */
export interface BranchPlan {
  commonAncestorId: string | null;
  /** every abandoned entry, chronological */
  entryIds: IdList;
  /** the entries whose messages fit the budget, chronological */
  includedEntryIds: string[];
  totalTokens: number;
  fileOps: FileOperations;
}

/** The branch plan of moving from `oldLeafId` to `targetId` with `tokenBudget` (§2-4, on the entries). */
export function planBranch(index: SessionIndex, oldLeafId: string | null, targetId: string, tokenBudget: number): BranchPlan {
  const { entries, commonAncestorId } = collectEntriesForBranchSummary(index, oldLeafId, targetId);
  const { includedEntryIds, totalTokens, fileOps } = prepareBranchEntries(entries, tokenBudget);
  return { commonAncestorId, entryIds: IdList.of(entries.map((e) => e.id)), includedEntryIds, totalTokens, fileOps };
}

/** The reference's fallback context window when the model does not say. */
export const DEFAULT_BRANCH_SUMMARY_CONTEXT_WINDOW = 128_000;

/** §5.1: `(contextWindow || 128000) - reserveTokens`; a result <= 0 means unlimited. */
export function branchSummaryTokenBudget(contextWindow: number | undefined, reserveTokens: number): number {
  return (contextWindow || DEFAULT_BRANCH_SUMMARY_CONTEXT_WINDOW) - reserveTokens;
}
