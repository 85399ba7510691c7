import type { SeqRange } from "./path";

/** The seqs of `sorted` (ascending) that fall in the ranges, in the ranges' order. */
export function seqsInRanges(sorted: readonly number[], ranges: readonly SeqRange[]): number[] {
  const out: number[] = [];
  if (sorted.length === 0) return out;
  for (const r of ranges) {
    // the first at or after the range's start
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < r.from) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < sorted.length && (sorted[i] as number) <= r.to; i++) out.push(sorted[i] as number);
  }
  return out;
}
