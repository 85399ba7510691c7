/**
 * What a person may read in the archive: the sessions of their projects, a session as JSONL (the
 * same text `bonsai export --format jsonl` gives, so every local read command answers on it); search
 * is archive-search.ts. Every query is limited to the caller's projects; a session of another project is answered
 * exactly as one that does not exist.
 */
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { copyBinaryLines } from "./copy-lines";
import { ArchiveError } from "./errors";
import type { Principal } from "./people";
import { ReadableSessionsSql } from "./readable-sql";

export interface ArchivedSession {
  id: string;
  project: string;
  pushedBy: string;
  agent: string;
  title: string | null;
  cwd: string;
  startedAt: string | null;
  pushedAt: string;
  entryCount: number;
  /** its position in the list: `after` this gives the sessions that follow it */
  cursor: string;
}

const NOT_FOUND = (id: string): ArchiveError => new ArchiveError("not-found", `no session ${JSON.stringify(id)} that you may read in the archive`);

/** The one session an id (or unique prefix) names among those the caller may read. */
async function resolveSession(pool: pg.Pool, principal: Principal, idOrPrefix: string, project?: string): Promise<{ pk: string; id: string; header: string }> {
  const escaped = idOrPrefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  const sql = new ReadableSessionsSql(principal, idOrPrefix, `${escaped}%`).and("(s.session_id = $2 OR s.session_id LIKE $3)").inProject(project);
  const rows = (
    await pool.query<{ id: string; session_id: string; header: string; project: string }>(
      `SELECT s.id, s.session_id, s.header, p.name AS project FROM sessions s JOIN projects p ON p.id = s.project_id WHERE ${sql.where} ORDER BY s.session_id = $2 DESC LIMIT 6`,
      sql.params,
    )
  ).rows;
  const exact = rows.filter((r) => r.session_id === idOrPrefix);
  const chosen = exact.length > 0 ? exact : rows;
  if (chosen.length === 0) throw NOT_FOUND(idOrPrefix);
  if (chosen.length > 1) {
    const names = chosen.map((r) => `${r.project}/${r.session_id}`).join(", ");
    throw new ArchiveError("bad-request", `${JSON.stringify(idOrPrefix)} names more than one session (${names}); give more of the id or --project`);
  }
  const row = chosen[0] as { id: string; session_id: string; header: string };
  return { pk: row.id, id: row.session_id, header: row.header };
}

/** A session the caller may read, resolved; `chunks` yields its JSONL as UTF-8 bytes, header line first, then its entries in order. */
export interface ArchivedSessionStream {
  sessionId: string;
  chunks: AsyncGenerator<Buffer, void, undefined>;
}

/**
 * The session as JSONL: its header line, then its entries in order. The id is resolved (or refused)
 * before anything is read; the entries are then read by one `COPY … TO STDOUT (FORMAT binary)`,
 * which sees one snapshot (a push appending meanwhile is not half seen) and hands over each entry's
 * bytes as stored, passed on without being decoded and encoded again, and without one string of
 * the whole session. A connection is taken only once `chunks` is iterated, and given back when it
 * ends or is abandoned.
 */
export async function openArchivedSession(pool: pg.Pool, principal: Principal, idOrPrefix: string, project?: string): Promise<ArchivedSessionStream> {
  const session = await resolveSession(pool, principal, idOrPrefix, project);
  return { sessionId: session.id, chunks: sessionChunks(pool, session) };
}

/**
 * The entries at positions `fromSeq` and after of the session `sessionId` (exactly that id), as
 * JSONL lines without the header (one COPY, as openArchivedSession): what a copy made earlier
 * lacks after a push appended. `sessionPk` is the archive's row, so that the copy can check it
 * is still the session it copied.
 */
export async function openArchivedEntriesFrom(pool: pg.Pool, principal: Principal, sessionId: string, fromSeq: number, project?: string): Promise<{ sessionPk: string; chunks: AsyncGenerator<Buffer, void, undefined> }> {
  const session = await resolveSession(pool, principal, sessionId, project);
  if (session.id !== sessionId) throw NOT_FOUND(sessionId);
  if (!Number.isSafeInteger(fromSeq) || fromSeq < 0) throw new ArchiveError("bad-request", `not a position in a session: ${fromSeq}`);
  return { sessionPk: session.pk, chunks: entryChunks(pool, session.pk, fromSeq) };
}

async function* sessionChunks(pool: pg.Pool, session: { pk: string; header: string }): AsyncGenerator<Buffer, void, undefined> {
  yield Buffer.from(`${session.header}\n`);
  yield* entryChunks(pool, session.pk, 0);
}

async function* entryChunks(pool: pg.Pool, sessionPk: string, fromSeq: number): AsyncGenerator<Buffer, void, undefined> {
  // COPY takes no parameters: the key is the archive's own bigint and the position an integer, both checked
  if (!/^\d+$/.test(sessionPk) || !Number.isSafeInteger(fromSeq)) throw new Error(`not a session key and position: ${sessionPk} ${fromSeq}`);
  const client = await pool.connect();
  let finished = false;
  try {
    const rows = client.query(copyTo(`COPY (SELECT entry FROM entries WHERE session_pk = ${sessionPk} AND seq >= ${fromSeq} ORDER BY seq) TO STDOUT (FORMAT binary)`));
    yield* copyBinaryLines(rows);
    finished = true;
  } finally {
    // failed, or abandoned by a reader that went away: the connection is closed, not reused mid-COPY
    client.release(finished ? undefined : true);
  }
}

/** The session's whole JSONL as one string (for small sessions and tests; the server streams). */
export async function archivedSessionJsonl(pool: pg.Pool, principal: Principal, idOrPrefix: string, project?: string): Promise<{ sessionId: string; jsonl: string }> {
  const { sessionId, chunks } = await openArchivedSession(pool, principal, idOrPrefix, project);
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { sessionId, jsonl: Buffer.concat(parts).toString("utf8") };
}
