/**
 * The amnesia report over the sessions a person may read in the archive (`GET /api/amnesia`,
 * `bonsai amnesia --all --archive URL [--project NAME]`, the page's report on an archive), computed
 * here on the server rather than by the client downloading sessions:
 *
 * - one query finds the sessions worth reading, among the caller's projects only: those with a
 *   compaction or a pruned output (the partial index of migration 005 holds just those entries,
 *   so the thousands of sessions without one are never read);
 * - each session's row of the report (core's amnesiaSessionRow) is kept in `amnesia_rows` for the
 *   entry count it was made from, so a session is read and scored once per push, by whichever
 *   server process is asked first; later calls read only the kept rows;
 * - who a session is (title, project, pusher, and its key "project/person/id" as its sessionId) is
 *   taken from the sessions table at each call, never from a kept row.
 *
 * A session is scored on its entries in order with the last one as the leaf (an archived session's
 * leaf, as the archive store has it), by `score` (amnesia-scorer.ts: on a worker thread in
 * `team serve`), one session at a time.
 */
import { amnesiaOverview, type AmnesiaOverview, type AmnesiaSessionRow } from "@bonsai/core";
import type pg from "pg";
import { scoreInThisThread, type AmnesiaScore } from "./amnesia-scorer";
import { archiveKey } from "./archive-identity";
import type { Principal } from "./people";
import { ReadableSessionsSql } from "./readable-sql";

interface CandidateRow {
  id: string;
  session_id: string;
  project: string;
  pushed_by: string;
  agent: string;
  title: string | null;
  entry_count: number;
  kept_count: number | null;
  row_json: string | null;
}

/** The sessions with a compaction or pruned output that the caller may read (in `project` when given), with their kept rows. */
async function candidates(pool: pg.Pool, principal: Principal, project: string | undefined): Promise<CandidateRow[]> {
  const sql = new ReadableSessionsSql(principal).inProject(project);
  // the condition on entries is the partial index's own (migration 005), so the index answers it
  const rows = await pool.query<CandidateRow>(
    `SELECT s.id, s.session_id, p.name AS project, u.name AS pushed_by, s.agent, s.title, s.entry_count, k.entry_count AS kept_count, k.row_json
       FROM sessions s JOIN projects p ON p.id = s.project_id JOIN people u ON u.id = s.pushed_by
       LEFT JOIN amnesia_rows k ON k.session_pk = s.id
      WHERE ${sql.where}
        AND s.id IN (SELECT e.session_pk FROM entries e WHERE e.type = 'compaction' OR (e.type = 'message' AND strpos(e.entry, '"prunedAt":') > 0))
      ORDER BY s.pushed_at DESC, s.id DESC`,
    sql.params,
  );
  return rows.rows;
}

/** Reads and scores one session, and keeps its row for the entry count it read (another process may have kept one meanwhile: the later wins, both right). */
async function scoreSession(pool: pg.Pool, candidate: CandidateRow, score: AmnesiaScore): Promise<AmnesiaSessionRow | null> {
  const read = await pool.query<{ entry: string }>("SELECT entry FROM entries WHERE session_pk = $1 ORDER BY seq", [candidate.id]);
  const lines = read.rows.map((r) => r.entry);
  const info = { sessionId: candidate.session_id, project: null, pushedBy: null, title: null, agent: candidate.agent };
  const row = await score(info, lines);
  await pool.query(
    `INSERT INTO amnesia_rows (session_pk, entry_count, row_json) VALUES ($1, $2, $3)
     ON CONFLICT (session_pk) DO UPDATE SET entry_count = EXCLUDED.entry_count, row_json = EXCLUDED.row_json, made_at = now()`,
    [candidate.id, lines.length, JSON.stringify(row)],
  );
  return row;
}

/** The report over the sessions the caller may read (of one project when `project` is given; an unknown or unreadable project gives an empty report, as for a project with no session). */
export async function archiveAmnesia(pool: pg.Pool, principal: Principal, options: { project?: string } = {}, score: AmnesiaScore = scoreInThisThread): Promise<AmnesiaOverview> {
  const rows: AmnesiaSessionRow[] = [];
  for (const candidate of await candidates(pool, principal, options.project)) {
    let row: AmnesiaSessionRow | null;
    if (candidate.kept_count === candidate.entry_count && candidate.row_json !== null) {
      row = JSON.parse(candidate.row_json) as AmnesiaSessionRow | null;
    } else {
      row = await scoreSession(pool, candidate, score);
    }
    if (row) rows.push({ ...row, sessionId: archiveKey({ project: candidate.project, pushedBy: candidate.pushed_by, sessionId: candidate.session_id }), project: candidate.project, pushedBy: candidate.pushed_by, title: candidate.title, agent: candidate.agent });
  }
  return amnesiaOverview(rows);
}
