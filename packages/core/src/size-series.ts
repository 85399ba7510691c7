/**
 * The estimated context size along a path (root -> leaf): what the context would hold if each entry
 * were the leaf. It grows with each entry's estimate and drops at each compaction to the compaction's
 * own estimate (its summary) plus the kept part (from its first kept entry on). Computed from columns
 * (token estimates, where the compactions are and what they keep), so a store that keeps those
 * columns answers it without reading any entry; `thinSeries` picks the points a chart can show.
 */

/**
 * The positions a chart of `buckets` columns shows of a series of `length` points: in each stretch of
 * the path (length / buckets points) its last point, and every compaction with the point just
 * before it, in path order; every position when there are no more than `buckets`. The series only
 * grows between compactions (estimates are never negative), so these are the highest points of each
 * stretch and the peaks before each drop: no value is needed to choose them.
 */
export function thinPositions(length: number, compactionPositions: readonly number[], buckets: number): number[] {
  if (length <= buckets) return Array.from({ length }, (_, i) => i);
  const chosen = new Set<number>();
  for (let b = 1; b <= buckets; b++) chosen.add(Math.min(length, Math.floor((b * length) / buckets)) - 1);
  for (const c of compactionPositions) {
    if (c > 0) chosen.add(c - 1);
    chosen.add(c);
  }
  return [...chosen].filter((p) => p >= 0 && p < length).sort((a, b) => a - b);
}
