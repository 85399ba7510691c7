/**
 * The commits pushed sessions produced (sessions.commits, migration 008), read for a person: one
 * session's, and how many each readable session has (keyed as the page names sessions).
 */
import type pg from "pg";
import type { Principal } from "./people";
import { archiveKey } from "./archive-identity";
import type { PushedCommit } from "./receive";
import { ReadableSessionsSql } from "./readable-sql";

/** The commits of the archived session with this row key ([] when it was pushed without any). */
export async function archivedCommits(pool: pg.Pool, pk: string): Promise<PushedCommit[]> {
  const row = (await pool.query<{ commits: PushedCommit[] | null }>("SELECT commits FROM sessions WHERE id = $1", [pk])).rows[0];
  return row?.commits ?? [];
}

/** Each readable session's key (archive-identity.ts) -> how many commits, for the sessions the person may read that have any. */
export async function archivedCommitCounts(pool: pg.Pool, principal: Principal): Promise<[string, number][]> {
  const readable = new ReadableSessionsSql(principal).and("s.commits IS NOT NULL");
  const rows = await pool.query<{ project: string; pushed_by: string; session_id: string; count: number }>(
    `SELECT p.name AS project, u.name AS pushed_by, s.session_id, jsonb_array_length(s.commits)::int AS count
       FROM sessions s JOIN projects p ON p.id = s.project_id JOIN people u ON u.id = s.pushed_by WHERE ${readable.where}`,
    readable.params,
  );
  return rows.rows.map((r) => [archiveKey({ project: r.project, pushedBy: r.pushed_by, sessionId: r.session_id }), r.count]);
}
