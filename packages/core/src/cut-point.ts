/**
 * Where compaction cuts a branch (spec: compaction.md §4), reproducing the reference exactly,
 * including its quirks: the metadata walk-back pulls every non-message entry preceding the cut into
 * the kept region, and only a `user` message at the cut makes the turn "not split".
 *
 * All functions work on a path (root -> leaf) and index ranges `[start, end)`; each is linear in the
 * range length.
 */
import type { AgentMessage, BranchSummaryEntry, BranchSummaryMessage, SessionEntry } from "./entries";
import { messageFromEntry } from "./context";
import { estimateTokens } from "./tokens";

/** The in-memory `branchSummary` message of a `branch_summary` entry, kept even when its summary is empty. */
export function branchSummaryMessageFromEntry(entry: BranchSummaryEntry): BranchSummaryMessage {
  return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: Date.parse(entry.timestamp) };
}

/**
 * Compaction variant (§4.1): messages of every role, `custom_message` as `custom`, `branch_summary`
 * as `branchSummary` even when its summary is empty; compactions and metadata give nothing.
 */
export function getCompactionMessageFromEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return entry.message ?? undefined;
    case "custom_message":
      return messageFromEntry(entry);
    case "branch_summary":
      return branchSummaryMessageFromEntry(entry);
    default:
      return undefined;
  }
}

/** Sum of the estimates of the compaction-variant messages of `entries[start, end)` (§2.5). */
export function estimateEntriesTokens(entries: readonly SessionEntry[], start: number, end: number): number {
  let total = 0;
  for (let i = start; i < end; i++) {
    const entry = entries[i];
    const message = entry && getCompactionMessageFromEntry(entry);
    if (message) total += estimateTokens(message);
  }
  return total;
}

const CUT_POINT_ROLES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "bashExecution",
  "hookMessage",
  "branchSummary",
  "compactionSummary",
]);

/** Whether a compaction may keep history starting at this entry (§4.2); never at a tool result. */
export function isValidCutPoint(entry: SessionEntry): boolean {
  if (entry.type === "message") return CUT_POINT_ROLES.has(entry.message?.role ?? "");
  return entry.type === "custom_message" || entry.type === "branch_summary";
}

/** Indexes in `[start, end)` where a cut may land, ascending. */
export function findValidCutPoints(entries: readonly SessionEntry[], start: number, end: number): number[] {
  const cuts: number[] = [];
  for (let i = start; i < end; i++) {
    const entry = entries[i];
    if (entry && isValidCutPoint(entry)) cuts.push(i);
  }
  return cuts;
}

function isTurnStart(entry: SessionEntry): boolean {
  if (entry.type === "branch_summary" || entry.type === "custom_message") return true;
  const role = entry.type === "message" ? entry.message?.role : undefined;
  return role === "user" || role === "bashExecution";
}

/** The nearest turn start at or before `index` and not before `start` (§4.3); -1 when none. */
export function findTurnStartIndex(entries: readonly SessionEntry[], index: number, start: number): number {
  for (let i = index; i >= start; i--) {
    const entry = entries[i];
    if (entry && isTurnStart(entry)) return i;
  }
  return -1;
}

export interface CutPointResult {
  /** first entry kept verbatim */
  firstKeptEntryIndex: number;
  /** start of the turn the cut splits, -1 when the cut does not split a turn */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/**
 * §4.4: keep roughly `keepRecentTokens` (estimate units) of the newest messages, cut at a valid cut
 * point, walk back over preceding non-message entries, then detect a split turn.
 */
export function findCutPoint(
  entries: readonly SessionEntry[],
  start: number,
  end: number,
  keepRecentTokens: number,
): CutPointResult {
  const cuts = findValidCutPoints(entries, start, end);
  const firstCut = cuts[0];
  if (firstCut === undefined) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };

  let cutIndex = firstCut;
  let accumulated = 0;
  // `next` walks the ascending cut list backwards so that cuts[next] is the smallest cut >= i.
  let next = cuts.length;
  for (let i = end - 1; i >= start; i--) {
    while (next > 0 && (cuts[next - 1] as number) >= i) next--;
    const entry = entries[i];
    if (entry?.type !== "message") continue;
    if (entry.message) accumulated += estimateTokens(entry.message);
    if (accumulated >= keepRecentTokens) {
      const smallestCutAtOrAfter = cuts[next];
      if (smallestCutAtOrAfter !== undefined) cutIndex = smallestCutAtOrAfter;
      break;
    }
  }

  while (cutIndex > start) {
    const previous = entries[cutIndex - 1];
    if (!previous || previous.type === "compaction" || previous.type === "message") break;
    cutIndex--;
  }

  return { firstKeptEntryIndex: cutIndex, ...splitTurnAt(entries, cutIndex, start) };
}

/**
 * §4.4 step 5: whether keeping history from `cutIndex` splits a turn. Only a `user` message at the
 * cut does not; otherwise the turn starts at the nearest turn start at or before the cut (not before
 * `start`), and without one nothing is split.
 */
export function splitTurnAt(entries: readonly SessionEntry[], cutIndex: number, start: number): Omit<CutPointResult, "firstKeptEntryIndex"> {
  const cutEntry = entries[cutIndex];
  const isUser = cutEntry?.type === "message" && cutEntry.message?.role === "user";
  const turnStartIndex = isUser ? -1 : findTurnStartIndex(entries, cutIndex, start);
  return { turnStartIndex, isSplitTurn: !isUser && turnStartIndex !== -1 };
}
