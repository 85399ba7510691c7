/**
 * The one resolver of the archive: which session a reference names among those a caller may read
 * (archive-identity.ts: "project/person/id", "project/id" or "id", the id whole or a unique
 * prefix). A whole id is taken before prefixes of longer ones. A reference that names no session
 * the caller may read, and one that names several, are refused with the store's one lookup error
 * (SessionLookupError; its candidates are the keys of the sessions it could mean, all readable by
 * the caller): a session of another project is answered exactly as one that does not exist.
 */
import { SessionLookupError } from "@bonsai/store";
import type pg from "pg";
import { archiveKey, parseArchiveReference } from "./archive-identity";
import type { Principal } from "./people";
import { ReadableSessionsSql } from "./readable-sql";

/** A session of the archive the caller may read, as one read of it needs it. */
export interface ArchivedSessionRow {
  /** the archive's row: what every later statement of the read is limited to */
  pk: string;
  sessionId: string;
  project: string;
  pushedBy: string;
  /** the entries the row counts (a push landing meanwhile adds entries past them) */
  entryCount: number;
  pushedAt: string;
  /** the header line as pushed */
  header: string;
  /** "project/person/id" */
  key: string;
}

interface Row {
  id: string;
  session_id: string;
  entry_count: number;
  project: string;
  pushed_by: string;
  pushed_at: Date;
  header: string;
}

/** how many candidates an ambiguous reference names */
const SHOWN = 10;

export async function resolveArchivedSession(pool: pg.Pool, principal: Principal, reference: string): Promise<ArchivedSessionRow> {
  const ref = parseArchiveReference(reference);
  if (ref.id === "") throw new SessionLookupError(reference.trim() === "" ? "empty session id" : `no session ${JSON.stringify(reference)} that you may read in the archive`);
  const like = `${ref.id.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const sql = new ReadableSessionsSql(principal, ref.id, like).and("s.session_id LIKE $3");
  if (ref.project !== undefined) sql.and(`p.name = ${sql.param(ref.project)}`);
  if (ref.pushedBy !== undefined) sql.and(`u.name = ${sql.param(ref.pushedBy)}`);
  const rows = (
    await pool.query<Row>(
      `SELECT s.id, s.session_id, s.entry_count, p.name AS project, u.name AS pushed_by, s.pushed_at, s.header
         FROM sessions s JOIN projects p ON p.id = s.project_id JOIN people u ON u.id = s.pushed_by
        WHERE ${sql.where}
        ORDER BY s.session_id = $2 DESC, p.name, u.name, s.session_id LIMIT ${SHOWN + 1}`,
      sql.params,
    )
  ).rows;
  const exact = rows.filter((r) => r.session_id === ref.id);
  const chosen = exact.length > 0 ? exact : rows;
  const row = chosen[0];
  if (!row) throw new SessionLookupError(`no session ${JSON.stringify(reference)} that you may read in the archive`);
  if (chosen.length > 1) {
    const keys = chosen.slice(0, SHOWN).map(rowKey);
    const count = chosen.length > SHOWN ? `more than ${SHOWN}` : String(chosen.length);
    throw new SessionLookupError(`${JSON.stringify(reference)} names ${count} sessions: ${keys.join(", ")}; name one as project/person/id`, keys);
  }
  return { pk: row.id, sessionId: row.session_id, project: row.project, pushedBy: row.pushed_by, entryCount: Number(row.entry_count), pushedAt: row.pushed_at.toISOString(), header: row.header, key: rowKey(row) };
}

function rowKey(row: Row): string {
  return archiveKey({ project: row.project, pushedBy: row.pushed_by, sessionId: row.session_id });
}
