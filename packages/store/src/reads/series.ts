/**
 * The estimate along a path (core's contextTokensAlongPath) from the narrow rows, at the positions a
 * chart shows (thinPositions): the path's compactions come from the `anchor_seq` links (one
 * statement, nearest first), and the size at each shown position is the compaction's estimate plus
 * the sum of the estimates from its first kept entry on — sums SQLite adds up over seq spans of the
 * covering index, never a value per row in JavaScript. Regular sessions (their path's seqs grow from
 * the root); an irregular one takes seriesOfNodes on its walked path.
 */
import { contextStepOfNode, contextTokensAlongPath, thinPositions } from "@bonsai/core";
import type { PathNode, SizeSeries } from "../session-store";
import { rangeSize, type PathReader, type SeqRange, type Statements } from "./path";

/** A compaction on the path: its position and the position of its first kept entry (undefined: not on the path). */
interface SeriesCompaction {
  pos: number;
  keptPos: number | undefined;
}

/** Where the positions of a path are among its seq ranges. */
class PathPositions {
  /** position of each range's first seq */
  private readonly offsets: number[] = [];
  readonly length: number;

  constructor(readonly ranges: readonly SeqRange[]) {
    let offset = 0;
    for (const r of ranges) {
      this.offsets.push(offset);
      offset += rangeSize(r);
    }
    this.length = offset;
  }

  /** the position of a seq on the path, undefined when it is not on it */
  positionOf(seq: number): number | undefined {
    for (let i = 0; i < this.ranges.length; i++) {
      const r = this.ranges[i] as SeqRange;
      if (r.from <= seq && seq <= r.to) return (this.offsets[i] as number) + seq - r.from;
    }
    return undefined;
  }

  /** the seq spans of positions [from, to] (inclusive), in path order */
  spans(from: number, to: number): SeqRange[] {
    const out: SeqRange[] = [];
    for (let i = 0; i < this.ranges.length && from <= to; i++) {
      const r = this.ranges[i] as SeqRange;
      const start = this.offsets[i] as number;
      const end = start + rangeSize(r) - 1;
      if (end < from) continue;
      if (start > to) break;
      out.push({ from: r.from + Math.max(from, start) - start, to: r.from + Math.min(to, end) - start });
    }
    return out;
  }

  seqAt(pos: number): number {
    return (this.spans(pos, pos)[0] as SeqRange).from;
  }
}

export class SeriesReader {
  constructor(
    private readonly sql: Statements,
    private readonly paths: PathReader,
  ) {}

  /** The series of a regular session's path (`ranges`), at most about `buckets` points plus two per compaction. */
  series(sessionId: string, ranges: readonly SeqRange[], buckets: number): SizeSeries {
    const path = new PathPositions(ranges);
    if (path.length === 0) return { pathLength: 0, points: [] };
    const leafSeq = (ranges[ranges.length - 1] as SeqRange).to;
    // the path's compactions, root first: seq, estimate (its summary's), first kept entry
    const compactionSeqs = this.paths.chain(sessionId, leafSeq, "anchor_seq").reverse();
    const rows = this.compactionRows(sessionId, compactionSeqs);
    const compactions: (SeriesCompaction & { tokens: number })[] = [];
    for (const seq of compactionSeqs) {
      const row = rows.get(seq);
      const pos = path.positionOf(seq);
      if (!row || pos === undefined) continue;
      const keptSeq = row.keptId === null ? undefined : this.paths.seqOf(sessionId, row.keptId);
      compactions.push({ pos, keptPos: keptSeq === undefined ? undefined : path.positionOf(keptSeq), tokens: row.tokens });
    }
    const shown = thinPositions(
      path.length,
      compactions.map((c) => c.pos),
      buckets,
    );

    // prefix sums (compactions count 0: a compaction's estimate is its summary, counted as the base)
    // at every position a value needs: the shown ones and the one before each kept part
    const needed = new Set<number>(shown);
    const startOf = (c: SeriesCompaction): number => (c.keptPos !== undefined && c.keptPos <= c.pos ? c.keptPos : c.pos + 1);
    for (const c of compactions) if (startOf(c) > 0) needed.add(startOf(c) - 1);
    const prefix = this.prefixSums(sessionId, path, [...needed].sort((a, b) => a - b));

    const ids = this.paths.idsAt(
      sessionId,
      shown.map((p) => path.seqAt(p)),
    );
    const compactionAt = new Set(compactions.map((c) => c.pos));
    let k = -1;
    return {
      pathLength: path.length,
      points: shown.map((pos, i) => {
        while (k + 1 < compactions.length && (compactions[k + 1] as SeriesCompaction).pos <= pos) k++;
        const c = compactions[k];
        const start = c ? startOf(c) : 0;
        const before = start > 0 ? (prefix.get(start - 1) as number) : 0;
        const tokens = (c ? c.tokens : 0) + (prefix.get(pos) as number) - before;
        return { pos, entryId: ids[i] as string, tokens, compaction: compactionAt.has(pos) };
      }),
    };
  }

  /**
   * sum of the estimates (compactions as 0) from the root to each position in `positions`
   * (ascending): one statement adds up every span between two positions (SQLite, on the covering
   * index), the running totals are taken here
   */
  private prefixSums(sessionId: string, path: PathPositions, positions: readonly number[]): Map<number, number> {
    const spans: [number, number][] = [];
    /** index in `spans` after the last span of each position */
    const ends: number[] = [];
    let done = -1;
    for (const pos of positions) {
      for (const span of path.spans(done + 1, pos)) spans.push([span.from, span.to]);
      ends.push(spans.length);
      done = pos;
    }
    const sums = this.sql
      .get(
        `SELECT (SELECT total(tokens) FROM entries INDEXED BY entries_path
                 WHERE session_id = @session AND seq BETWEEN w.value ->> 0 AND w.value ->> 1 AND type <> 'compaction')
         FROM json_each(@spans) AS w ORDER BY w.key`,
      )
      .pluck()
      .all({ session: sessionId, spans: JSON.stringify(spans) }) as number[];
    const out = new Map<number, number>();
    let total = 0;
    let next = 0;
    positions.forEach((pos, i) => {
      for (const end = ends[i] as number; next < end; next++) total += sums[next] as number;
      out.set(pos, total);
    });
    return out;
  }

  private compactionRows(sessionId: string, seqs: readonly number[]): Map<number, { tokens: number; keptId: string | null }> {
    if (seqs.length === 0) return new Map();
    const rows = this.sql
      .get("SELECT e.seq, e.tokens, e.ref_id FROM json_each(?) AS w CROSS JOIN entries e ON e.session_id = ? AND e.seq = w.value WHERE e.type = 'compaction'")
      .raw()
      .all(JSON.stringify(seqs), sessionId) as [number, number, string | null][];
    return new Map(rows.map(([seq, tokens, keptId]) => [seq, { tokens, keptId }]));
  }
}

/** The size series of path nodes (irregular sessions, whose path is walked). */
export function seriesOfNodes(nodes: readonly PathNode[], buckets: number): SizeSeries {
  const compactions = nodes.flatMap((n, pos) => (n.type === "compaction" ? [{ pos }] : []));
  const values = contextTokensAlongPath(nodes.map(contextStepOfNode));
  const at = new Set(compactions.map((c) => c.pos));
  const shown = thinPositions(
    nodes.length,
    compactions.map((c) => c.pos),
    buckets,
  );
  return { pathLength: nodes.length, points: shown.map((pos) => ({ pos, entryId: (nodes[pos] as PathNode).id, tokens: values[pos] as number, compaction: at.has(pos) })) };
}
