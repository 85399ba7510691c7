/**
 * The session list of the archive: the sessions a person may read, a page at a time, newest push
 * first, narrowed in PostgreSQL (a project, a person's pushes, words of a text), so that a filtered
 * list is every matching session and not the matches among one page.
 */
import type pg from "pg";
import { archiveKey } from "./archive-identity";
import { ArchiveError } from "./errors";
import type { Principal } from "./people";
import type { ArchivedSession } from "./reads";
import type { PushedCommit } from "./receive";
import { ReadableSessionsSql } from "./readable-sql";

export interface ListOptions {
  project?: string;
  /** only the sessions this person pushed (by name) */
  pushedBy?: string;
  /** only the sessions with every word of this text in their title, folder, id, agent, project or person (any case) */
  text?: string;
  /** default 200, at most 1000 */
  limit?: number;
  /** the sessions after this position: the `cursor` of the last session of the previous page */
  after?: string;
}

/** A page of the session list: its sessions, and the cursor of the next page (null: this was the last). */
export interface ArchivedPage {
  sessions: ArchivedSession[];
  next: string | null;
}

/** a list position: the session's pushed_at in microseconds since 1970 and its row, both integers */
const CURSOR = /^(\d{1,19}):(\d{1,19})$/;

/**
 * A page of the sessions the caller may read, newest push first, filtered in PostgreSQL (so that a
 * filtered list is every matching session, not the matches among one page). Paged by keyset on
 * (pushed_at, row), the order of the index `sessions_recent`: a page costs the same at any depth.
 */
export async function listArchivedPage(pool: pg.Pool, principal: Principal, options: ListOptions = {}): Promise<ArchivedPage> {
  const limit = Math.min(Math.max(options.limit ?? 200, 1), 1000);
  const sql = new ReadableSessionsSql(principal, limit + 1).inProject(options.project);
  if (options.pushedBy !== undefined) sql.and(`u.name = ${sql.param(options.pushedBy)}`);
  // every word of the text in the title, the folder, the id, the agent, the project or the person (as the page's own filter)
  for (const word of (options.text ?? "").split(/\s+/u).filter(Boolean).slice(0, 10)) {
    sql.and(`concat_ws(' ', s.title, s.cwd, s.session_id, s.agent, p.name, u.name) ILIKE ${sql.param(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  }
  if (options.after !== undefined) {
    const at = CURSOR.exec(options.after);
    if (!at) throw new ArchiveError("bad-request", `not a position in the session list: ${JSON.stringify(options.after.slice(0, 60))}`);
    sql.and(`(s.pushed_at, s.id) < (timestamptz 'epoch' + ${sql.param(at[1])}::bigint * interval '1 microsecond', ${sql.param(at[2])}::bigint)`);
  }
  const rows = await pool.query<{ pk: string; micros: string; session_id: string; project: string; pushed_by: string; agent: string; title: string | null; cwd: string | null; started_at: string | null; pushed_at: Date; entry_count: number; commits: PushedCommit[] | null }>(
    `SELECT s.id AS pk, ((extract(epoch FROM s.pushed_at) * 1000000)::bigint)::text AS micros, s.session_id, p.name AS project, u.name AS pushed_by, s.agent, s.title, s.cwd, s.started_at, s.pushed_at, s.entry_count, s.commits
       FROM sessions s JOIN projects p ON p.id = s.project_id JOIN people u ON u.id = s.pushed_by
      WHERE ${sql.where}
      ORDER BY s.pushed_at DESC, s.id DESC
      LIMIT $2`,
    sql.params,
  );
  const page = rows.rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    sessions: page.map((r) => ({
      key: archiveKey({ project: r.project, pushedBy: r.pushed_by, sessionId: r.session_id }),
      id: r.session_id,
      project: r.project,
      pushedBy: r.pushed_by,
      agent: r.agent,
      title: r.title,
      cwd: r.cwd ?? "",
      startedAt: r.started_at,
      pushedAt: r.pushed_at.toISOString(),
      entryCount: r.entry_count,
      commits: r.commits ?? [],
      cursor: `${r.micros}:${r.pk}`,
    })),
    next: rows.rows.length > limit && last ? `${last.micros}:${last.pk}` : null,
  };
}

/** One page of the sessions the caller may read (listArchivedPage without the next page's cursor). */
export async function listArchivedSessions(pool: pg.Pool, principal: Principal, options: ListOptions = {}): Promise<ArchivedSession[]> {
  return (await listArchivedPage(pool, principal, options)).sessions;
}
