/**
 * The packed skeletons of big sessions, kept in the database between starts (migration 13): the
 * first open of a 100,000-entry session after the app starts read it in 500-650 ms of a store
 * worker's CPU; with its JSON kept, the open reads one row.
 *
 * A kept skeleton holds while the session is in the state it was read in (skeletonState): the
 * same generation (a whole read again starts a new one), the same skeleton_rev (raised by a trigger
 * whenever a row changes a column a skeleton shows: prunes, restores, links fixed after an import),
 * the same last seq (rows are only ever added after the last one), the same leaf (which previews
 * travel depends on the active path), and this build's schema and wire form. The state and the
 * skeleton are read in one transaction (one snapshot), so a change committed in
 * between cannot pair a skeleton with a state it was not read in.
 */
import { SKELETON_WIRE_VERSION, type PackedSkeleton } from "@bonsai/core";
import { withoutWaiting } from "../database";
import { SCHEMA_VERSION } from "../migrations/index";
import type { Statements } from "./path";

/** sessions with fewer entries are read every time (a 10,000-entry skeleton reads in about 50 ms) */
export const SKELETON_CACHE_MIN_ENTRIES = 10_000;

interface StateRow {
  origin: string;
  generation: number;
  skeleton_rev: number;
  leaf_id: string | null;
  last: number | null;
}

/** What a session's skeleton was read in: its rows (generation, skeleton_rev, last seq) and its leaf. */
export interface SkeletonState {
  /**
   * the session row itself (rowid, creation, the file's first bytes): a session removed and made
   * again under the same id starts at the same generation and revision (the kept row went with it;
   * what a store holds in memory is told apart by this)
   */
  origin: string;
  generation: number;
  rev: number;
  /** the last seq (-1: no rows) */
  last: number;
  leafId: string | null;
}

/** the session's skeleton state; undefined when there is no such session */
export function skeletonState(sql: Statements, sessionId: string): SkeletonState | undefined {
  const row = sql
    .get("SELECT rowid || ':' || created_at || ':' || ifnull(head_hash, '') AS origin, generation, skeleton_rev, leaf_id, (SELECT max(seq) FROM entries WHERE session_id = s.id) AS last FROM sessions s WHERE id = ?")
    .get(sessionId) as StateRow | undefined;
  if (!row) return undefined;
  return { origin: row.origin, generation: row.generation, rev: row.skeleton_rev, last: row.last ?? -1, leafId: row.leaf_id };
}

/** the state as the kept row records it (with this build's schema and wire form) */
function stateText(s: SkeletonState): string {
  return JSON.stringify([SCHEMA_VERSION, SKELETON_WIRE_VERSION, s.generation, s.rev, s.last, s.leafId]);
}

/** a packed skeleton's JSON text and the state it was read in (undefined: no such session): what a store job answers */
export interface PackedSkeletonRead {
  json: string;
  state?: SkeletonState;
}

/** a packed skeleton read, and what keeps it when it was read (null: nothing to keep) */
export interface SkeletonJson extends PackedSkeletonRead {
  /** stores the skeleton just read for the next start; run it once the answer is out (it writes 5 MB for 100,000 entries) */
  keep: (() => void) | null;
}

/**
 * The session's packed skeleton as JSON text: the kept one when it holds, else `read()` (with a
 * `keep` when the session is big). `minEntries`: the size from which skeletons are kept.
 */
export function packedSkeletonJson(sql: Statements, sessionId: string, read: () => PackedSkeleton, minEntries = SKELETON_CACHE_MIN_ENTRIES): SkeletonJson {
  const db = sql.db;
  const { json, now, fresh } = db.transaction(() => {
    const now = skeletonState(sql, sessionId);
    if (now === undefined) return { json: JSON.stringify(read()), now, fresh: false }; // read() reports the missing session
    const kept = sql.get("SELECT state, json FROM skeleton_cache WHERE session_id = ?").get(sessionId) as { state: string; json: string } | undefined;
    if (kept && kept.state === stateText(now)) return { json: kept.json, now, fresh: false };
    return { json: JSON.stringify(read()), now, fresh: true };
  })();
  const keepIt = fresh && now !== undefined && now.last + 1 >= minEntries;
  return { json, keep: keepIt ? () => keep(sql, sessionId, stateText(now), now.leafId, json) : null, ...(now ? { state: now } : {}) };
}

/**
 * Keeps a skeleton read in `state`, without waiting: when another connection is writing, none is
 * kept (the next open reads it again) instead of holding up the answer.
 */
function keep(sql: Statements, sessionId: string, state: string, leafId: string | null, json: string): void {
  if (!sql.db.open) return; // closed meanwhile
  withoutWaiting(sql.db, () =>
    sql.get("INSERT INTO skeleton_cache (session_id, state, leaf_id, json) VALUES (?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, leaf_id = excluded.leaf_id, json = excluded.json").run(sessionId, state, leafId, json),
  );
}
