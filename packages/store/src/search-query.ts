/**
 * A search over both indexes (search-index.ts). Each term goes where it can be found
 * (search-text.ts routeTerms): words and prefixes to the word index, substrings in scripts written
 * without spaces to the trigram index, all required together; the index of the first kind present
 * ranks (bm25), after closeness: with two or more word terms, an entry where they stand next to each
 * other in the query's order comes first, then one where they are near (closerTiers), then the rest. Substrings shorter than a trigram (one or two characters, as "迁移") are looked for
 * in the entries' stored JSON: inside the matches of the other terms when there are any, else in the
 * newest SHORT_SCAN_ENTRIES entries (of the session searched, or of all), ranked by how often they
 * occur.
 */
import type { SessionEntry } from "@bonsai/core";
import { deriveColumns } from "./derive";
import type { Statements } from "./reads/path";
import { parseQuery, routeTerms, snippetMaker, toMatchExpression, type QueryTerm, type RoutedTerms } from "./search-text";
import type { SearchHit, SearchOptions } from "./session-store";

/** bm25 ranks at most this many of the newest matches */
const RANK_WINDOW = 2000;

/** a query of only one- or two-character substrings reads at most this many of the newest entries */
export const SHORT_SCAN_ENTRIES = 10_000;

type Row = [sessionId: string, title: string | null, entryId: string, type: string, role: string | null, timestamp: string, json: string, rank: number];

const HIT_COLUMNS = "e.session_id, s.title, e.id, e.type, e.role, e.timestamp, j.json";
const HIT_JOINS = "JOIN entries e ON e.pk = f.rowid JOIN entry_json j ON j.pk = e.pk JOIN sessions s ON s.id = e.session_id";

/** a LIKE pattern that finds the text anywhere (its % _ and \ literal, with ESCAPE '\') */
function containsPattern(t: QueryTerm): string {
  return `%${t.text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** how much a tier of closeness outweighs bm25 (whose scores are far smaller): the rank stays "lower is better" */
const TIER_WEIGHT = 1_000_000;

/**
 * Closeness of several word terms as a rank to add (lower is better): "" when there is one term,
 * else a CASE of the word index's matches with the terms adjacent in order (`"a" + "b"`, an FTS5
 * phrase), then within NEAR_WORDS words of each other, with its parameters. Each tier's matches are
 * read only from the ranked window's lowest key on (the window is the newest matches): reading all
 * of a common pair's matches took five times the search itself on 100,000 entries.
 */
function closerTiers(words: readonly QueryTerm[]): { sql: string; params: string[] } {
  if (words.length < 2) return { sql: "", params: [] };
  const quoted = words.map((t) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? "*" : ""}`);
  const tier = "f.rowid IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? AND rowid >= (SELECT min(rowid) FROM f))";
  return {
    sql: ` - ${TIER_WEIGHT} * (CASE WHEN ${tier} THEN 2 WHEN ${tier} THEN 1 ELSE 0 END)`,
    params: [quoted.join(" + "), `NEAR(${quoted.join(" ")}, ${NEAR_WORDS})`],
  };
}

/** how many words apart terms may stand to be near (the second tier of closerTiers) */
const NEAR_WORDS = 8;

function indexedRows(st: Statements, routed: RoutedTerms, sessionId: string | undefined, limit: number): Row[] {
  const words = toMatchExpression(routed.words);
  const trigrams = toMatchExpression(routed.trigrams);
  const table = words !== null ? "entries_fts" : "entries_trigram";
  const closer = closerTiers(routed.words);
  const params: unknown[] = [words ?? trigrams];
  let where = "";
  if (words !== null && trigrams !== null) {
    // "+rowid": a filter on the word matches, never one word query per trigram match
    where += " AND +rowid IN (SELECT rowid FROM entries_trigram WHERE entries_trigram MATCH ?)";
    params.push(trigrams);
  }
  if (sessionId !== undefined) {
    where += " AND rowid IN (SELECT pk FROM entries WHERE session_id = ?)";
    params.push(sessionId);
  }
  for (const t of routed.short) {
    where += ` AND EXISTS (SELECT 1 FROM entry_json x WHERE x.pk = ${table}.rowid AND x.json LIKE ? ESCAPE '\\')`;
    params.push(containsPattern(t));
  }
  params.push(...closer.params, limit);
  // bm25 ranks the newest RANK_WINDOW matches (FTS5 walks matches in rowid order, so a word
  // found in every entry costs RANK_WINDOW scores, not one per entry of the database)
  return st
    .get(
      `WITH f AS MATERIALIZED (SELECT rowid, rank FROM ${table} WHERE ${table} MATCH ?${where} ORDER BY rowid DESC LIMIT ${RANK_WINDOW})
       SELECT ${HIT_COLUMNS}, f.rank${closer.sql} AS ranked
       FROM f ${HIT_JOINS}
       ORDER BY ranked LIMIT ?`,
    )
    .raw()
    .all(...params) as Row[];
}

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Short substrings alone: the newest entries whose text holds every one, most occurrences first. */
function scannedRows(st: Statements, short: readonly QueryTerm[], sessionId: string | undefined, limit: number): Row[] {
  const newest =
    sessionId === undefined
      ? `SELECT pk AS rowid FROM entries ORDER BY pk DESC LIMIT ${SHORT_SCAN_ENTRIES}`
      : `SELECT pk AS rowid FROM entries WHERE session_id = ? ORDER BY seq DESC LIMIT ${SHORT_SCAN_ENTRIES}`;
  const like = short.map(() => "j.json LIKE ? ESCAPE '\\'").join(" AND ");
  const params = [...(sessionId === undefined ? [] : [sessionId]), ...short.map(containsPattern)];
  const rows = st.get(`SELECT ${HIT_COLUMNS}, 0 FROM (${newest}) f ${HIT_JOINS} WHERE ${like} ORDER BY f.rowid DESC`).raw().all(...params) as Row[];
  const ranked: Row[] = [];
  for (const row of rows) {
    const d = deriveColumns(JSON.parse(row[6]) as SessionEntry);
    const text = `${d.body}\n${d.tools}\n${d.paths}`.toLowerCase();
    const counts = short.map((t) => occurrences(text, t.text.toLowerCase()));
    if (counts.every((c) => c > 0)) ranked.push([row[0], row[1], row[2], row[3], row[4], row[5], row[6], -counts.reduce((a, b) => a + b, 0)]);
  }
  // a stable sort: equal counts stay newest first
  return ranked.sort((a, b) => a[7] - b[7]).slice(0, limit);
}

/** The search behind SessionStore.search, once the indexes are up to date. */
export function searchIndexes(st: Statements, query: string, options: SearchOptions): SearchHit[] {
  const terms = parseQuery(query);
  if (terms.length === 0) return [];
  const routed = routeTerms(terms);
  const limit = Math.min(Math.max(1, options.limit ?? 50), 500);
  const rows = routed.words.length + routed.trigrams.length > 0 ? indexedRows(st, routed, options.sessionId, limit) : scannedRows(st, routed.short, options.sessionId, limit);
  const snippet = snippetMaker(terms);
  return rows.map(([sessionId, sessionTitle, entryId, type, role, timestamp, json, rank]) => {
    const d = deriveColumns(JSON.parse(json) as SessionEntry);
    const text = snippet(d.body) || snippet(d.tools) || snippet(d.paths.replace(/\n/g, " ")) || d.preview;
    return { sessionId, sessionTitle, entryId, type, role, timestamp, snippet: text, rank };
  });
}
