/**
 * The rows a compaction plan, a pruning plan and a branch summary plan need, for core to plan on:
 * - compaction: the path from the latest compaction (what the plan's window is made of), and the
 *   last assistant message with a usage before it when the window has none;
 * - pruning: the tool results of the path, from their derived columns (token estimate, tool name,
 *   pruned flag): no entry JSON;
 * - branch summary: the abandoned branch's ids from the narrow rows, and the JSON of only what the
 *   plan reads (the messages within the budget, counted from the newest, and branch summaries).
 */
import { getLastAssistantUsage, type SessionEntry, type ToolResultOnPath } from "@bonsai/core";
import { FLAG_ODD_MESSAGE, FLAG_PRUNED } from "../derive";
import type { BranchEntries } from "../session-store";
import { rangesBefore, rangesFrom, rangeSeqs, rangeSize, type PathReader, type SeqRange, type SessionRef, type Statements } from "./path";

export class PlanningReader {
  constructor(
    private readonly sql: Statements,
    private readonly paths: PathReader,
  ) {}

  /**
   * Entries that plan a compaction of the path to `leafSeq` exactly as the whole path does: the path
   * from its latest compaction (the whole path without one), preceded by the last assistant message
   * with a usage when none follows the compaction (the "context before" figure).
   */
  compactionWindow(session: SessionRef, leafSeq: number): SessionEntry[] {
    const path = this.paths.ranges(session, leafSeq);
    const anchor = session.irregular === 0 ? (this.sql.get("SELECT anchor_seq FROM entries WHERE session_id = ? AND seq = ?").pluck().get(session.id, leafSeq) as number | null) : null;
    const window = anchor === null ? undefined : rangesFrom(path, anchor);
    if (anchor === null || !window) return this.paths.entriesIn(session.id, path) as SessionEntry[];
    const entries = this.paths.entriesIn(session.id, window) as SessionEntry[];
    if (hasUsage(entries)) return entries;
    const before = this.lastUsageBefore(session.id, rangesBefore(path, anchor));
    return before ? [before, ...entries] : entries;
  }

  /** the last assistant message of the ranges with a usage (neither aborted nor an error) */
  private lastUsageBefore(sessionId: string, ranges: readonly SeqRange[]): SessionEntry | undefined {
    const candidates = this.sql.get(
      "SELECT seq FROM entries WHERE session_id = ? AND seq BETWEEN ? AND ? AND type = 'message' AND role = 'assistant' AND stop_reason IS NULL ORDER BY seq DESC",
    ).pluck();
    for (const r of [...ranges].reverse()) {
      for (const seq of candidates.iterate(sessionId, r.from, r.to) as IterableIterator<number>) {
        const entry = this.paths.entriesAt(sessionId, [seq])[0] as SessionEntry;
        if (hasUsage([entry])) return entry;
      }
    }
    return undefined;
  }

  /** The tool results on the path to `leafSeq`, in path order, from their columns. */
  toolResults(session: SessionRef, leafSeq: number): ToolResultOnPath[] {
    const path = this.paths.ranges(session, leafSeq);
    const columns = this.paths.columnsIn(session.id, path, ["seq", "tokens", "flags"], ["id", "tool_name"], "type = 'message' AND role = 'toolResult'");
    const [seqs, tokens, flags] = columns.numbers as [number[], number[], number[]];
    const [ids, toolNames] = columns.texts as [string[], (string | null)[]];
    // each result's position on the path: the ranges are consecutive seqs
    const out: ToolResultOnPath[] = [];
    let range = 0;
    let offset = 0;
    for (let i = 0; i < ids.length; i++) {
      const seq = seqs[i] as number;
      while (seq > (path[range] as SeqRange).to || seq < (path[range] as SeqRange).from) offset += rangeSize(path[range++] as SeqRange);
      out.push({ entryId: ids[i] as string, index: offset + seq - (path[range] as SeqRange).from, toolName: toolNames[i] ?? null, tokens: tokens[i] as number, pruned: ((flags[i] as number) & FLAG_PRUNED) !== 0 });
    }
    return out;
  }

  /**
   * The branch abandoned when moving from `fromSeq` to `toSeq` (collectEntriesForBranchSummary),
   * ready for prepareBranchEntries with `budget`.
   */
  branch(session: SessionRef, fromSeq: number, toSeq: number, budget: number): BranchEntries {
    const oldPath = this.paths.ranges(session, fromSeq);
    const common = this.commonAncestor(session, oldPath, this.paths.ranges(session, toSeq));
    const abandoned = common === null ? oldPath : rangesAfter(oldPath, common);
    const columns = this.paths.columnsIn(session.id, abandoned, ["seq"], ["id", "type"], "1");
    const seqs = columns.numbers[0] as number[];
    const [ids, types] = columns.texts as [string[], string[]];
    // where prepareBranchEntries stops (the first message, from the newest, over the budget): it reads nothing older
    const stopSeq = budget > 0 ? this.branchStop(session.id, abandoned, budget) : undefined;
    const stop = stopSeq === undefined ? 0 : seqs.indexOf(stopSeq);
    const whole = seqs.filter((_, i) => i >= stop || types[i] === "branch_summary");
    const parsed = this.paths.entriesAt(session.id, whole) as SessionEntry[];
    const bySeq = new Map(whole.map((seq, i) => [seq, parsed[i] as SessionEntry]));
    const entries = seqs.map((seq, i) => bySeq.get(seq) ?? ({ type: types[i], id: ids[i] } as unknown as SessionEntry));
    const commonId = common === null ? null : (this.sql.get("SELECT id FROM entries INDEXED BY entries_path WHERE session_id = ? AND seq = ?").pluck().get(session.id, common) as string);
    return { entries, commonAncestorId: commonId };
  }

  /**
   * The seq of the first entry, walking the ranges from the newest, whose branch message would take
   * the total over `budget` (prepareBranchEntries stops there); undefined when all fit.
   */
  private branchStop(sessionId: string, ranges: readonly SeqRange[], budget: number): number | undefined {
    const newestFirst = this.sql.get("SELECT seq, type, role, tokens, flags FROM entries INDEXED BY entries_path WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq DESC").raw();
    let total = 0;
    for (const r of [...ranges].reverse()) {
      for (const [seq, type, role, tokens, flags] of newestFirst.iterate(sessionId, r.from, r.to) as IterableIterator<[number, string, string | null, number, number]>) {
        if (!givesBranchMessage(type, role, flags)) continue;
        if (total + tokens > budget) return seq;
        total += tokens;
      }
    }
    return undefined;
  }

  /** the deepest entry of the target's path that is on the old path (null when they share none) */
  private commonAncestor(session: SessionRef, oldPath: readonly SeqRange[], targetPath: readonly SeqRange[]): number | null {
    if (session.irregular !== 0) {
      // any order of seqs: by position, as core does
      const onOld = new Set(rangeSeqs(oldPath));
      const target = rangeSeqs(targetPath);
      for (let i = target.length - 1; i >= 0; i--) if (onOld.has(target[i] as number)) return target[i] as number;
      return null;
    }
    // a regular session's paths go up in seq, and two paths share a prefix: the deepest shared seq
    let best: number | null = null;
    for (const t of targetPath) {
      for (const o of oldPath) {
        const lo = Math.max(t.from, o.from);
        const hi = Math.min(t.to, o.to);
        if (lo <= hi && (best === null || hi > best)) best = hi;
      }
    }
    return best;
  }
}

/** the ranges after `seq` (on them) */
function rangesAfter(ranges: readonly SeqRange[], seq: number): SeqRange[] {
  const i = ranges.findIndex((r) => r.from <= seq && seq <= r.to);
  if (i < 0) return [...ranges];
  const r = ranges[i] as SeqRange;
  return r.to > seq ? [{ from: seq + 1, to: r.to }, ...ranges.slice(i + 1)] : ranges.slice(i + 1);
}

/** getBranchMessageFromEntry gives a message (its token estimate is the entry's `tokens` column) */
function givesBranchMessage(type: string, role: string | null, flags: number): boolean {
  switch (type) {
    case "message":
      return (flags & FLAG_ODD_MESSAGE) !== 0 || (role !== null && role !== "toolResult");
    case "custom_message":
    case "branch_summary":
    case "compaction":
      return true;
    default:
      return false;
  }
}

/** some assistant message of the entries has a usage the plan counts (core's rule) */
function hasUsage(entries: readonly SessionEntry[]): boolean {
  return getLastAssistantUsage(entries) !== undefined;
}
