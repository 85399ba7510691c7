/**
 * The pure steps of the automatic compaction check (spec: triggers-and-hooks.md §1.3) that the
 * engine runs after each turn and before each prompt, and that the what-if replay runs on a
 * recorded session: which assistant messages are not checked, and the token count compared with
 * the threshold. Pruning (step 2) and overflow recovery (step 7) stay with their callers.
 */
import type { AssistantMessage, SessionEntry } from "./entries";
import { calculateContextTokens, isOlderThanLatestCompaction } from "./tokens";

/**
 * Step 3 and Bonsai deviation 2: the check stops after pruning when the message was aborted (only
 * where aborted messages are skipped, i.e. after a turn) or is not newer than the latest compaction
 * on `pathEntries` (its usage describes the context before that compaction).
 */
export function skipsCompactionCheck(message: AssistantMessage, skipAbortedCheck: boolean, pathEntries: readonly SessionEntry[]): boolean {
  if (skipAbortedCheck && message.stopReason === "aborted") return true;
  return isOlderThanLatestCompaction(message, pathEntries);
}

/**
 * Steps 8-9 and Bonsai deviation 10: the context size compared with the threshold, the message's
 * usage less what the pruning of this check saved inside the live context; undefined for an error
 * reply (it has no usable usage) and for a reply recorded without usage (some agents' files).
 */
export function thresholdInputTokens(message: AssistantMessage, prunedTokensInContext: number): number | undefined {
  if (message.stopReason === "error" || typeof message.usage !== "object" || message.usage === null) return undefined;
  return Math.max(0, calculateContextTokens(message.usage) - prunedTokensInContext);
}
