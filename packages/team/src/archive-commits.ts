/**
 * The commits pushed sessions produced (sessions.commits, migration 007), read for a person: one
 * session's, and how many each readable session has (keyed as the page names sessions).
 */
import type pg from "pg";
import type { Principal } from "./people";
import type { PushedCommit } from "./receive";
import { ReadableSessionsSql } from "./readable-sql";

/** The commits of the archived session with this row key ([] when it was pushed without any). */
export async function archivedCommits(pool: pg.Pool, pk: string): Promise<PushedCommit[]> {
  const row = (await pool.query<{ commits: PushedCommit[] | null }>("SELECT commits FROM sessions WHERE id = $1", [pk])).rows[0];
  return row?.commits ?? [];
}

/** project and session id -> how many commits, for the sessions the person may read that have any. */
export async function archivedCommitCounts(pool: pg.Pool, principal: Principal): Promise<{ project: string; sessionId: string; count: number }[]> {
  const readable = new ReadableSessionsSql(principal).and("s.commits IS NOT NULL");
  const rows = await pool.query<{ project: string; session_id: string; count: number }>(
    `SELECT p.name AS project, s.session_id, jsonb_array_length(s.commits)::int AS count FROM sessions s JOIN projects p ON p.id = s.project_id WHERE ${readable.where}`,
    readable.params,
  );
  return rows.rows.map((r) => ({ project: r.project, sessionId: r.session_id, count: r.count }));
}
