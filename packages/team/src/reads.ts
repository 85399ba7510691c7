/**
 * What a person may read in the archive: the sessions of their projects, a session as JSONL (the
 * same text `bonsai export --format jsonl` gives, so every local read command answers on it), and
 * search. Every query is limited to the caller's projects; a session of another project is answered
 * exactly as one that does not exist.
 */
import { isSubstringTerm } from "@bonsai/formats";
import { parseQuery, snippetMaker, type QueryTerm } from "@bonsai/store/search-text";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { copyBinaryLines } from "./copy-lines";
import type { PushedCommit } from "./receive";
import { ArchiveError } from "./errors";
import { namedQuery } from "./named-query";
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
  /** the commits it produced (pushed with a session imported from a checkpoint branch) */
  commits: PushedCommit[];
  /** its position in the list: `after` this gives the sessions that follow it */
  cursor: string;
}

export interface ArchiveSearchHit {
  sessionId: string;
  sessionTitle: string | null;
  project: string;
  /** who pushed the session */
  pushedBy: string;
  entryId: string;
  type: string;
  role: string | null;
  timestamp: string;
  snippet: string;
  /** lower is better, as the local search's bm25 */
  rank: number;
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


/**
 * How one term narrows the search: `index`, a condition an index answers (the word, trigram or
 * word-pair index), and `exact`, a check of the rows it yields (a phrase's word positions), kept
 * apart so that PostgreSQL does not also walk the word index for a phrase's common words.
 */
interface TermSql {
  /** given the parameters of the query it goes in (it may add one) */
  index: (params: unknown[]) => string;
  exact: string | null;
  /** the whole condition on one row, for the scan of the recent sessions (no index helper) */
  check: string;
  rank: string | null;
}

async function termCondition(pool: pg.Pool, term: QueryTerm, params: unknown[]): Promise<TermSql> {
  // scripts written without spaces between words: found inside the text (trigrams), as the local store does
  if (isSubstringTerm(term.text)) {
    params.push(`%${term.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const like = `e.search_text ILIKE $${params.length}`;
    return { index: () => like, exact: null, check: like, rank: null };
  }
  if (term.prefix) {
    const word = term.text.replace(/[^\p{L}\p{N}_]+/gu, " ").trim().split(/\s+/).join(" & ");
    params.push(`${word}:*`);
    const q = `to_tsquery('simple', $${params.length})`;
    return { index: () => `e.search @@ ${q}`, exact: null, check: `e.search @@ ${q}`, rank: `ts_rank(e.search, ${q})` };
  }
  params.push(term.text);
  const q = `phraseto_tsquery('simple', $${params.length})`;
  const rank = `ts_rank(e.search, ${q})`;
  // a phrase of several words: its pairs of words found in the word-pair index (migration 002), its positions checked after
  const pairs = (await pool.query<{ pairs: string[] }>("SELECT archive_word_pairs(to_tsvector('simple', $1)) AS pairs", [term.text])).rows[0]?.pairs ?? [];
  const check = `e.search @@ ${q}`;
  if (pairs.length === 0) return { index: () => check, exact: null, check, rank };
  const index = (queryParams: unknown[]): string => {
    queryParams.push(pairs);
    return `archive_word_pairs(e.search) @> $${queryParams.length}::text[]`;
  };
  return { index, exact: check, check, rank };
}

/** A snippet for terms found inside words too (the unspaced scripts), where the word snippet finds none. */
function substringSnippet(text: string, terms: readonly QueryTerm[]): string {
  const lower = text.toLowerCase();
  for (const term of terms) {
    const at = lower.indexOf(term.text.toLowerCase());
    if (at === -1) continue;
    const start = Math.max(0, at - 60);
    const end = Math.min(text.length, at + term.text.length + 100);
    const cut = `${text.slice(start, at)}[${text.slice(at, at + term.text.length)}]${text.slice(at + term.text.length, end)}`;
    return `${start > 0 ? "…" : ""}${cut.replace(/\s+/g, " ").trim()}${end < text.length ? "…" : ""}`;
  }
  return "";
}

function roleOf(entryJson: string): string | null {
  try {
    const message = (JSON.parse(entryJson) as { message?: { role?: unknown } }).message;
    return typeof message?.role === "string" ? message.role : null;
  } catch {
    return null;
  }
}

/** how many matches a search ranks at most */
const CANDIDATES = 2000;

/** how many entries of the caller's most recent sessions a search reads row by row before it asks the indexes */
export const RECENT_ENTRIES = 10_000;

/** how many of the recent entries' matches a common term is ranked among (at least the largest `limit`) */
const RECENT_MATCHES = 500;

type SearchRow = { session_id: string; title: string | null; project: string; pushed_by: string; entry_id: string; type: string; at: string | null; entry: string; search_text: string; rank: number };

/**
 * A search ranks a pool of candidates, then gives the best `limit`. The pool is found in one of two
 * ways, because PostgreSQL's word index always reads the whole list of a word's matches (a common
 * word's list is a large part of the archive, and grows with it):
 *
 * 1. the first RECENT_MATCHES matches among RECENT_ENTRIES entries of the latest sessions the
 *    caller may read, read row by row through the sessions' keys (the inner LIMIT, a fence as
 *    OFFSET 0 is, keeps the word index out of it and bounds the rows read even when one session is
 *    very large); when there are at least `limit` of them, they are the pool (a common term: the
 *    best of the recent matches);
 * 2. otherwise (a rarer term), the first CANDIDATES matches the word, trigram or word-pair indexes
 *    yield over everything the caller may read (in no order: an ordering makes PostgreSQL walk the
 *    key and test each row). The index conditions sit behind an OFFSET 0 fence, so that a phrase's
 *    position check is done on the rows the word-pair index yields, not planned as one more (large)
 *    scan of the word index.
 */
export async function searchArchive(pool: pg.Pool, principal: Principal, query: string, options: { limit?: number; sessionId?: string; project?: string } = {}): Promise<ArchiveSearchHit[]> {
  const terms = parseQuery(query);
  if (terms.length === 0) return [];
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
  const readable = new ReadableSessionsSql(principal, limit);
  const params = readable.params;
  const conditions: TermSql[] = [];
  for (const term of terms) conditions.push(await termCondition(pool, term, params));
  if (options.sessionId !== undefined) readable.and(`s.session_id = ${readable.param(options.sessionId)}`);
  const sessions = readable.inProject(options.project).where;
  const ranks = conditions.map((c) => c.rank).filter((r): r is string => r !== null);
  const rank = ranks.length > 0 ? ranks.join(" + ") : "0";
  const exact = conditions.map((c) => c.exact).filter((x): x is string => x !== null);
  // the hits carry their rank; only the best `limit` of them are joined to their entries' text
  const ranked = (hits: string, queryParams: unknown[] = params): Promise<pg.QueryResult<SearchRow>> =>
    pool.query<SearchRow>(
      namedQuery(
        `WITH hits AS MATERIALIZED (${hits}),
         best AS MATERIALIZED (
           SELECT h.session_pk, h.seq, h.rank, s.pushed_at FROM hits h JOIN sessions s ON s.id = h.session_pk
            ORDER BY h.rank DESC, s.pushed_at DESC, h.seq LIMIT $2)
         SELECT s.session_id, s.title, p.name AS project, u.name AS pushed_by, e.entry_id, e.type, e.at, e.entry, e.search_text, b.rank::float8 AS rank
           FROM best b JOIN entries e ON e.session_pk = b.session_pk AND e.seq = b.seq JOIN sessions s ON s.id = b.session_pk
           JOIN projects p ON p.id = s.project_id JOIN people u ON u.id = s.pushed_by
          ORDER BY b.rank DESC, b.pushed_at DESC, b.seq`,
        queryParams,
      ),
    );
  const recent = await ranked(`
    SELECT e.session_pk, e.seq, ${rank} AS rank FROM (
      SELECT e.session_pk, e.seq, e.search, e.search_text FROM entries e
       WHERE e.session_pk IN (
         SELECT r.id FROM (
           SELECT s.id, sum(s.entry_count) OVER (ORDER BY s.pushed_at DESC, s.id DESC) - s.entry_count AS before
             FROM sessions s WHERE ${sessions} ORDER BY s.pushed_at DESC, s.id DESC LIMIT 200) r
          WHERE r.before < ${RECENT_ENTRIES})
      LIMIT ${RECENT_ENTRIES}) e
     WHERE ${conditions.map((c) => c.check).join(" AND ")}
     LIMIT ${RECENT_MATCHES}`);
  const indexParams = [...params];
  const rows =
    recent.rows.length >= limit
      ? recent
      : await ranked(
          `
    SELECT e.session_pk, e.seq, ${rank} AS rank FROM (
      SELECT e.session_pk, e.seq, e.search FROM entries e
       WHERE e.session_pk IN (SELECT s.id FROM sessions s WHERE ${sessions}) AND ${conditions.map((c) => c.index(indexParams)).join(" AND ")}
      OFFSET 0) e
     WHERE ${exact.length > 0 ? exact.join(" AND ") : "TRUE"}
     LIMIT ${CANDIDATES}`,
          indexParams,
        );
  const snippet = snippetMaker(terms);
  return rows.rows.map((r) => {
    const role = roleOf(r.entry);
    return {
      sessionId: r.session_id,
      sessionTitle: r.title,
      project: r.project,
      pushedBy: r.pushed_by,
      entryId: r.entry_id,
      type: r.type,
      role,
      timestamp: r.at ?? "",
      snippet: snippet(r.search_text) || substringSnippet(r.search_text, terms),
      rank: -r.rank,
    };
  });
}
