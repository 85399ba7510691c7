/**
 * Entries by id, through the id index's two tiers (migration 012).
 *
 * Entry ids are random, so a new row lands at a random place of an index keyed by id: 1,000 lines
 * appended to a 100,000-entry session touched nearly every leaf of the session's id index (57 pages
 * of 64 KiB, half of what the import wrote), where the other indexes take new rows at their end.
 * `entries_by_id_tier` is keyed (session_id, id_tier, id, seq) instead:
 * - tier 0 (settled): the rows of a whole-file import, and every row once settled;
 * - tier 1 (recent): rows appended since; a small part of the index, so appends touch a few of its
 *   pages. When a session has more than RECENT_IDS_LIMIT recent rows they are settled in one
 *   statement (each settled page is written once for thousands of rows instead of once per import).
 * A session's recent rows always come after its settled ones in file order (appends add at the
 * end; a whole read starts the session again at tier 0), so the last entry with an id is the
 * recent one when there is one: `ORDER BY id_tier DESC, seq DESC` is the index's own order.
 *
 * Every lookup by id goes through byId() or lastWithId() so that it names both tiers and SQLite seeks
 * the index.
 */
import type Database from "better-sqlite3";

/** id_tier of a settled row */
export const SETTLED = 0;
/** id_tier of a row appended since the session's last settling */
export const RECENT = 1;
/** recent rows a session may hold before they are settled */
export const RECENT_IDS_LIMIT = 8192;

const column = (alias: string | undefined, name: string): string => (alias ? `${alias}.${name}` : name);

/** WHERE condition for a session's entries with one id (binds the session id, then the entry id) */
export function byId(alias?: string): string {
  return `${column(alias, "session_id")} = ? AND ${column(alias, "id_tier")} IN (${SETTLED}, ${RECENT}) AND ${column(alias, "id")} = ?`;
}

/** ORDER BY that puts the entry lookups by id find first: the last one with the id in file order */
export function lastFirst(alias?: string): string {
  return `${column(alias, "id_tier")} DESC, ${column(alias, "seq")} DESC`;
}

/** ORDER BY that puts the first entry with the id in file order first */
export function firstFirst(alias?: string): string {
  return `${column(alias, "id_tier")}, ${column(alias, "seq")}`;
}

/**
 * A SELECT of `columns` of the last entry with an id (binds the session id and the entry id, twice):
 * the recent tier's last one, else the settled tier's. Two seeks of the index, one per tier,
 * without the IN list of byId(): SQLite seeks an index through an IN list by building a temporary
 * B-tree of its values at every run, which an append's lookup of each new id paid for. SQLite runs
 * the arms of a UNION ALL in their order, so LIMIT 1 keeps the recent tier's row when there is one.
 */
export function lastWithId(columns: string): string {
  const tier = (t: number): string => `SELECT * FROM (SELECT ${columns} FROM entries WHERE session_id = ? AND id_tier = ${t} AND id = ? ORDER BY seq DESC LIMIT 1)`;
  return `${tier(RECENT)} UNION ALL ${tier(SETTLED)} LIMIT 1`;
}

/**
 * Settles a session's recent rows when there are more than `limit`. The caller holds the write
 * transaction. Returns how many rows were settled (0 when under the limit).
 */
export function settleRecentIds(db: Database.Database, sessionId: string, limit = RECENT_IDS_LIMIT): number {
  const recent = db.prepare(`SELECT count(*) FROM entries INDEXED BY entries_by_id_tier WHERE session_id = ? AND id_tier = ${RECENT}`).pluck().get(sessionId) as number;
  if (recent <= limit) return 0;
  return db.prepare(`UPDATE entries SET id_tier = ${SETTLED} WHERE session_id = ? AND id_tier = ${RECENT}`).run(sessionId).changes;
}
