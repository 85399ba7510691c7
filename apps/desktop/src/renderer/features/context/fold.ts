/**
 * Long message lists (a session never compacted has tens of thousands of messages in its context):
 * a list of more than LIST_HEAD + LIST_TAIL items shows its first LIST_HEAD (the compaction summary,
 * the start) and its newest LIST_TAIL, and says how many lie between; the page lists them all only
 * when asked, instead of drawing tens of thousands of rows.
 */
export const LIST_HEAD = 50;
export const LIST_TAIL = 450;

export interface FoldedList<T> {
  /** the items listed, each with its index in the whole list */
  listed: { item: T; index: number }[];
  /** how many items are not listed (0: all are) */
  hidden: number;
  /** the index of the first listed item after the hidden ones (where the list says what it hides) */
  resumesAt: number;
}

export function foldList<T>(items: readonly T[], showAll: boolean): FoldedList<T> {
  const count = items.length;
  if (showAll || count <= LIST_HEAD + LIST_TAIL) return { listed: items.map((item, index) => ({ item, index })), hidden: 0, resumesAt: count };
  const resumesAt = count - LIST_TAIL;
  const listed = [...items.slice(0, LIST_HEAD).map((item, index) => ({ item, index })), ...items.slice(resumesAt).map((item, k) => ({ item, index: resumesAt + k }))];
  return { listed, hidden: resumesAt - LIST_HEAD, resumesAt };
}

/** the largest value, at least 1 (no spread: a list may hold more items than a call takes arguments) */
export function largest(values: Iterable<number>): number {
  let max = 1;
  for (const v of values) if (v > max) max = v;
  return max;
}
