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

/**
 * What compaction planning reads of an entry besides its message, as bits (planKindOf): a path is
 * planned from these and the messages' estimates alone (cutPointOfRows, outlineCompaction), so a
 * store can plan from columns what a reader plans from entries.
 */
export const PLAN_MESSAGE_ENTRY = 1; // a `message` entry (its payload may be absent): counts for the kept budget, ends the metadata walk-back
export const PLAN_GIVES_MESSAGE = 2; // gives a compaction-variant message (getCompactionMessageFromEntry)
export const PLAN_CUT_POINT = 4; // a compaction may keep history from here (§4.2)
export const PLAN_TURN_START = 8; // starts a turn (§4.3)
export const PLAN_USER = 16; // a user message: keeping from it splits no turn
export const PLAN_COMPACTION = 32;

/**
 * The plan bits of an entry of `type` whose message (a `message` entry's payload) has the text role
 * `role` (null when it has none or it is not a text) and is present (`hasMessage`: truthy).
 */
export function planKindOf(type: string, role: string | null, hasMessage: boolean): number {
  switch (type) {
    case "message": {
      let kind = PLAN_MESSAGE_ENTRY | (hasMessage ? PLAN_GIVES_MESSAGE : 0);
      if (role !== null && CUT_POINT_ROLES.has(role)) kind |= PLAN_CUT_POINT;
      if (role === "user" || role === "bashExecution") kind |= PLAN_TURN_START;
      if (role === "user") kind |= PLAN_USER;
      return kind;
    }
    case "custom_message":
    case "branch_summary":
      return PLAN_GIVES_MESSAGE | PLAN_CUT_POINT | PLAN_TURN_START;
    case "compaction":
      return PLAN_COMPACTION;
    default:
      return 0;
  }
}

/** planKindOf an entry */
export function planKindOfEntry(entry: SessionEntry): number {
  const message = entry.type === "message" ? (entry.message as unknown) : undefined;
  const role = typeof message === "object" && message !== null ? (message as { role?: unknown }).role : undefined;
  return planKindOf(entry.type, typeof role === "string" ? role : null, Boolean(message));
}

/** What a cut point is found from: per entry of a path, its plan bits and its compaction-variant message's estimate (0 without one). */
export interface PlanRows {
  kinds: ArrayLike<number>;
  tokens: ArrayLike<number>;
}

/** The plan rows of a path's entries. */
export function planRowsOf(entries: readonly SessionEntry[]): PlanRows {
  const kinds = new Uint8Array(entries.length);
  const tokens = new Float64Array(entries.length);
  entries.forEach((entry, i) => {
    kinds[i] = planKindOfEntry(entry);
    const message = getCompactionMessageFromEntry(entry);
    tokens[i] = message ? estimateTokens(message) : 0;
  });
  return { kinds, tokens };
}

/** Whether a compaction may keep history starting at this entry (§4.2); never at a tool result. */
export function isValidCutPoint(entry: SessionEntry): boolean {
  return (planKindOfEntry(entry) & PLAN_CUT_POINT) !== 0;
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

/** The nearest turn start at or before `index` and not before `start` (§4.3); -1 when none. */
export function findTurnStartIndex(entries: readonly SessionEntry[], index: number, start: number): number {
  for (let i = index; i >= start; i--) {
    const entry = entries[i];
    if (entry && planKindOfEntry(entry) & PLAN_TURN_START) return i;
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
  return cutPointOfRows(planRowsOf(entries), start, end, keepRecentTokens);
}

/** findCutPoint on a path's plan rows. */
export function cutPointOfRows(rows: PlanRows, start: number, end: number, keepRecentTokens: number): CutPointResult {
  const { kinds, tokens } = rows;
  let firstCut = -1;
  for (let i = start; i < end && firstCut < 0; i++) if ((kinds[i] as number) & PLAN_CUT_POINT) firstCut = i;
  if (firstCut < 0) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };

  let cutIndex = firstCut;
  let accumulated = 0;
  // the smallest cut point at or after i, as i walks back (-1: none)
  let next = -1;
  for (let i = end - 1; i >= start; i--) {
    const kind = kinds[i] as number;
    if (kind & PLAN_CUT_POINT) next = i;
    if (!(kind & PLAN_MESSAGE_ENTRY)) continue;
    accumulated += tokens[i] as number;
    if (accumulated >= keepRecentTokens) {
      if (next >= 0) cutIndex = next;
      break;
    }
  }

  while (cutIndex > start) {
    const previous = kinds[cutIndex - 1] as number;
    if (previous & (PLAN_COMPACTION | PLAN_MESSAGE_ENTRY)) break;
    cutIndex--;
  }

  return { firstKeptEntryIndex: cutIndex, ...splitTurnOfRows(kinds, cutIndex, start) };
}

/**
 * §4.4 step 5: whether keeping history from `cutIndex` splits a turn. Only a `user` message at the
 * cut does not; otherwise the turn starts at the nearest turn start at or before the cut (not before
 * `start`), and without one nothing is split.
 */
export function splitTurnAt(entries: readonly SessionEntry[], cutIndex: number, start: number): Omit<CutPointResult, "firstKeptEntryIndex"> {
  const kinds = entries.slice(0, cutIndex + 1).map(planKindOfEntry);
  return splitTurnOfRows(kinds, cutIndex, start);
}

function splitTurnOfRows(kinds: ArrayLike<number>, cutIndex: number, start: number): Omit<CutPointResult, "firstKeptEntryIndex"> {
  if ((kinds[cutIndex] ?? 0) & PLAN_USER) return { turnStartIndex: -1, isSplitTurn: false };
  for (let i = Math.min(cutIndex, kinds.length - 1); i >= start; i--) if ((kinds[i] as number) & PLAN_TURN_START) return { turnStartIndex: i, isSplitTurn: true };
  return { turnStartIndex: -1, isSplitTurn: false };
}
