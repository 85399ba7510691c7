/**
 * Search of the archive: the entries of the sessions the caller may read that match a query, best
 * first, as the local store's search answers. Any text is searched as text: a term with no letter or
 * digit (`:*`, `.*`, quotes, backslashes) is found inside the entries' text, never read as query
 * syntax. With several word terms, entries where they stand next to each other in the query's order
 * rank first, then by cover density (`ts_rank_cd`: closer terms rank higher).
 */
import { isSubstringTerm } from "@bonsai/formats";
import { parseQuery, snippetMaker, type QueryTerm } from "@bonsai/store/search-text";
import type { SearchHit } from "@bonsai/store";
import type pg from "pg";
import { archiveKey } from "./archive-identity";
import { namedQuery } from "./named-query";
import type { Principal } from "./people";
import { ReadableSessionsSql } from "./readable-sql";

/** A search hit of the local store's shape (SearchHit), with the session's key, project and who pushed it. */
export interface ArchiveSearchHit extends SearchHit {
  /** "project/person/id" of the hit's session (archive-identity.ts) */
  key: string;
  project: string;
  /** who pushed the session */
  pushedBy: string;
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
  /** the term as a tsquery (a word term), for the closeness of several terms */
  query: string | null;
}

/** how much standing next to each other outweighs the other ranks (ts_rank values are below 1 per term) */
const ADJACENT_WEIGHT = 1000;

/** a term the word index cannot answer: a script written without spaces, or no letter or digit at all */
const searchedAsText = (text: string): boolean => isSubstringTerm(text) || !/[\p{L}\p{N}]/u.test(text);

async function termCondition(pool: pg.Pool, term: QueryTerm, params: unknown[]): Promise<TermSql> {
  // scripts written without spaces between words, and punctuation alone: found inside the text (trigrams), as the local store does
  if (searchedAsText(term.text)) {
    params.push(`%${term.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const like = `e.search_text ILIKE $${params.length}`;
    return { index: () => like, exact: null, check: like, rank: null, query: null };
  }
  if (term.prefix) {
    // only letters, digits and _ reach to_tsquery, each word quoted: nothing in the term is read as its syntax
    const words = term.text.replace(/[^\p{L}\p{N}_]+/gu, " ").trim().split(/\s+/);
    params.push(words.map((w, i) => `'${w}'${i === words.length - 1 ? ":*" : ""}`).join(" & "));
    const q = `to_tsquery('simple', $${params.length})`;
    return { index: () => `e.search @@ ${q}`, exact: null, check: `e.search @@ ${q}`, rank: `ts_rank(e.search, ${q})`, query: q };
  }
  params.push(term.text);
  const q = `phraseto_tsquery('simple', $${params.length})`;
  const rank = `ts_rank(e.search, ${q})`;
  // a phrase of several words: its pairs of words found in the word-pair index (migration 002), its positions checked after
  const pairs = (await pool.query<{ pairs: string[] }>("SELECT archive_word_pairs(to_tsvector('simple', $1)) AS pairs", [term.text])).rows[0]?.pairs ?? [];
  const check = `e.search @@ ${q}`;
  if (pairs.length === 0) return { index: () => check, exact: null, check, rank, query: q };
  const index = (queryParams: unknown[]): string => {
    queryParams.push(pairs);
    return `archive_word_pairs(e.search) @> $${queryParams.length}::text[]`;
  };
  return { index, exact: check, check, rank, query: q };
}

/**
 * A row's rank (higher is better): with several word terms, ADJACENT_WEIGHT when they stand next to
 * each other in order, plus their cover density (closer is higher); else the terms' ts_rank.
 */
function rankOf(conditions: readonly TermSql[]): string {
  const queries = conditions.map((c) => c.query).filter((q): q is string => q !== null);
  if (queries.length >= 2) return `(CASE WHEN e.search @@ (${queries.join(" <-> ")}) THEN ${ADJACENT_WEIGHT} ELSE 0 END + ts_rank_cd(e.search, ${queries.join(" && ")}))`;
  const ranks = conditions.map((c) => c.rank).filter((r): r is string => r !== null);
  return ranks.length > 0 ? ranks.join(" + ") : "0";
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
export async function searchArchive(pool: pg.Pool, principal: Principal, query: string, options: { limit?: number; sessionPk?: string; project?: string } = {}): Promise<ArchiveSearchHit[]> {
  const terms = parseQuery(query);
  if (terms.length === 0) return [];
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
  const readable = new ReadableSessionsSql(principal, limit);
  const params = readable.params;
  const conditions: TermSql[] = [];
  for (const term of terms) conditions.push(await termCondition(pool, term, params));
  if (options.sessionPk !== undefined) readable.and(`s.id = ${readable.param(options.sessionPk)}::bigint`);
  const sessions = readable.inProject(options.project).where;
  const rank = rankOf(conditions);
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
      key: archiveKey({ project: r.project, pushedBy: r.pushed_by, sessionId: r.session_id }),
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
