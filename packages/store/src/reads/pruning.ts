/**
 * The rows a pruning plan needs (pruning.md §2): the tool results of the path from their derived
 * columns (token estimate, tool name, pruned flag), no entry JSON; a dry run's plan reads only the
 * results it may prune, its summary and what it takes out of the context only sums over them.
 */
import { IdList, planOfEligible, prunedNotice, pruneSavings, type PruneCandidate, type PruneConfig, type PrunePlan, type PruneShrink, type PruneSummary, type ToolResultOnPath } from "@bonsai/core";
import { FLAG_PRUNED } from "../derive";
import { clipRanges, rangeSize, type PathReader, type RowFilter, type SeqRange, type SessionRef, type Statements } from "./path";

/** The rows a pruning plan may prune: the tool results `prunable` picks in the ranges `open`. */
export interface PrunableRows {
  open: SeqRange[];
  prunable: RowFilter;
}

export class PruningReader {
  constructor(
    private readonly sql: Statements,
    private readonly paths: PathReader,
  ) {}

  /** The tool results on the path to `leafSeq`, in path order, from their columns. */
  toolResults(session: SessionRef, leafSeq: number): ToolResultOnPath[] {
    const path = this.paths.ranges(session, leafSeq);
    const columns = this.paths.columnsIn(session.id, path, ["seq", "tokens", "flags"], ["id", "tool_name"], TOOL_RESULTS);
    const [seqs, tokens, flags] = columns.numbers as [number[], number[], number[]];
    const [ids, toolNames] = columns.texts as [string[], (string | null)[]];
    const positions = positionsOnPath(path, seqs);
    return ids.map((id, i) => ({ entryId: id, index: positions[i] as number, toolName: toolNames[i] ?? null, tokens: tokens[i] as number, pruned: ((flags[i] as number) & FLAG_PRUNED) !== 0 }));
  }

  /**
   * The pruning plan of the path to `leafSeq` (pruning.md §2, what planPruningOf decides on all its
   * tool results), reading only what decides it: the token sums of the newest results (where the
   * protection by position ends), then the columns of the older results that are neither pruned
   * nor of a protected tool — no entry JSON, and nothing of the results it leaves alone.
   */
  prunePlan(session: SessionRef, leafSeq: number, config: PruneConfig): PrunePlan {
    const path = this.paths.ranges(session, leafSeq);
    const { open, prunable } = this.prunableRows(session, path, config);
    const columns = this.paths.columnsIn(session.id, open, ["seq", "tokens"], ["id", "tool_name"], prunable);
    const [seqs, tokens] = columns.numbers as [number[], number[]];
    const [ids, toolNames] = columns.texts as [string[], (string | null)[]];
    const positions = positionsOnPath(path, seqs);
    const eligible = ids.map((id, i): PruneCandidate => {
      const t = tokens[i] as number;
      return { entryId: id, index: positions[i] as number, toolName: toolNames[i] as string, tokens: t, savings: pruneSavings(t) };
    });
    return planOfEligible(eligible, config);
  }

  /**
   * What a dry run reports of prunePlan's plan of the rows it may prune (prunableRows) — the ids it
   * prunes and the figures — from one aggregate of them (their savings summed by SQLite, their ids
   * as one JSON text): no per-result values, no string per id.
   */
  summaryOf(session: SessionRef, rows: PrunableRows, config: PruneConfig): PruneSummary {
    const { ids, totals } = this.paths.idsIn(session.id, rows.open, rows.prunable, [SAVINGS]);
    const saved = totals[0] as number;
    const prunes = ids.length > 0 && saved >= config.minimumSavings;
    return { entryIds: prunes ? ids : IdList.of([]), prunedCount: prunes ? ids.length : 0, tokensSaved: prunes ? saved : 0, potentialTokensSaved: saved, potentialCount: ids.length };
  }

  /** whether the plan of these rows prunes anything (summaryOf's prunedCount > 0), from their sums alone */
  prunes(session: SessionRef, rows: PrunableRows, config: PruneConfig): boolean {
    const [count, saved] = this.paths.totalsIn(session.id, rows.open, rows.prunable, ["1", SAVINGS]) as [number, number];
    return count > 0 && saved >= config.minimumSavings;
  }

  /**
   * What the plan of these rows takes out of the context of the leaf (core PruneShrink; `prunes`:
   * whether it prunes anything), the context starting at `keptFrom` on the path (null: it keeps
   * nothing of it) and the figures' usage given by the reply at `usageSeq` (null: none): sums over
   * the rows it prunes, no entry JSON.
   */
  shrinkOf(session: SessionRef, rows: PrunableRows, prunes: boolean, keptFrom: number | null, usageSeq: number | null): PruneShrink {
    if (!prunes || keptFrom === null) return { prunes, tokens: 0, afterUsageTokens: 0 };
    const shrinkFrom = (seq: number): number => this.paths.totalsIn(session.id, clipRanges(rows.open, seq, Number.MAX_SAFE_INTEGER), rows.prunable, [SHRINK])[0] as number;
    const tokens = shrinkFrom(keptFrom);
    // a reply before the context's start was summarized away: every message of the context follows it
    const afterUsageTokens = usageSeq === null || usageSeq < keptFrom ? tokens : shrinkFrom(usageSeq + 1);
    return { prunes, tokens, afterUsageTokens };
  }

  /**
   * The rows a pruning plan of `path` (the ranges to its leaf) may prune (pruning.md §2): in the
   * ranges up to where the protection by position ends (`open`), the tool results that are neither
   * pruned nor of a protected tool (`prunable`).
   */
  prunableRows(session: SessionRef, path: readonly SeqRange[], config: PruneConfig): PrunableRows {
    const open = this.unprotectedByPosition(session.id, path, config.protectTokens);
    const prunable: RowFilter = {
      ...TOOL_RESULTS,
      // the protected names as parameters of a list (one statement per number of names): a row tests
      // them as values, cheaper than a json_each subquery per read
      where: `${TOOL_RESULTS.where} AND (flags & ${FLAG_PRUNED}) = 0 AND (tool_name IS NULL OR tool_name NOT IN (${config.protectedTools.map(() => "?").join(", ")}))`,
      params: [...config.protectedTools],
    };
    return { open, prunable };
  }

  /**
   * The ranges of the path up to the newest tool result that the newest `protectTokens` of tool
   * output do not protect (the tokens of the newer results, counted before it, reach that figure);
   * everything after it is protected by position. Whole ranges are summed until the figure is
   * reached, then the one that reaches it is walked result by result.
   */
  private unprotectedByPosition(sessionId: string, path: readonly SeqRange[], protectTokens: number): SeqRange[] {
    const rows = `FROM entries INDEXED BY ${TOOL_RESULTS.index} WHERE session_id = ? AND seq BETWEEN ? AND ? AND ${TOOL_RESULTS.where}`;
    const sum = this.sql.get(`SELECT total(tokens) ${rows}`).pluck();
    const newestFirst = this.sql.get(`SELECT seq, tokens ${rows} ORDER BY seq DESC`).raw();
    let accumulated = 0;
    for (let i = path.length - 1; i >= 0; i--) {
      const r = path[i] as SeqRange;
      const total = sum.get(sessionId, r.from, r.to) as number;
      if (accumulated + total < protectTokens) {
        accumulated += total;
        continue;
      }
      for (const [seq, tokens] of newestFirst.iterate(sessionId, r.from, r.to) as IterableIterator<[number, number]>) {
        if (accumulated >= protectTokens) return [...path.slice(0, i), { from: r.from, to: seq }];
        accumulated += tokens;
      }
      return path.slice(0, i);
    }
    return [];
  }
}

/** the seqs' positions on the path (the ranges are consecutive seqs; `seqs` are in path order) */
function positionsOnPath(path: readonly SeqRange[], seqs: readonly number[]): number[] {
  const out: number[] = [];
  let range = 0;
  let offset = 0;
  for (const seq of seqs) {
    while (seq > (path[range] as SeqRange).to || seq < (path[range] as SeqRange).from) offset += rangeSize(path[range++] as SeqRange);
    out.push(offset + seq - (path[range] as SeqRange).from);
  }
  return out;
}

/**
 * core's pruneSavings of a result of `tokens` in SQL: the estimate minus the notice's tokens
 * (ceil of its length / 4; the notice is "[Output truncated - N tokens]": a fixed part and N's digits)
 */
const NOTICE_TOKENS = `((${prunedNotice(0).length - 1 + 3} + length(tokens)) / 4)`;
const SAVINGS = `max(0, tokens - ${NOTICE_TOKENS})`;
/** what replacing a result by its notice takes out of a context's estimate (estimateTokens before less after; may be negative) */
const SHRINK = `tokens - ${NOTICE_TOKENS}`;

/** the tool results (what pruning reads), from their partial index */
const TOOL_RESULTS = { where: "type = 'message' AND role = 'toolResult'", index: "entries_tool_results" } as const satisfies RowFilter;
