/** Entries of one session under other ids: for lines appended to a session, or copies of one. */

/** the fields of an entry that hold an entry's id: its own, then those that name another entry */
export const ENTRY_ID_FIELDS = ["id", "parentId", "firstKeptEntryId", "fromId", "targetId"] as const;

/**
 * A copy of `entry` (a parsed JSONL entry) with each id field that holds a string passed through
 * `rename`, and a root (no parentId) hung off `parent`: the fields keep their order.
 */
export function relinkEntry(entry: Readonly<Record<string, unknown>>, rename: (id: string) => string, parent: string | null): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...entry };
  for (const key of ENTRY_ID_FIELDS) {
    const value = copy[key];
    if (typeof value === "string") copy[key] = rename(value);
  }
  if (copy.parentId === null || copy.parentId === undefined) copy.parentId = parent;
  return copy;
}
