/**
 * The two search indexes of the entries' text, kept together: the word index `entries_fts`
 * (unicode61: whole words, prefixes, bm25 over words) and the trigram index `entries_trigram`
 * (every run of three characters: substrings, for scripts written without spaces). Both are
 * contentless, keyed by entries.pk, filled after the rows are stored (`entries.indexed`), and the
 * trigram index of a database from before it is filled from `trigram_backfill`
 * (migrations/017-trigram-index.ts) by the same batches.
 */
import type { SessionEntry } from "@bonsai/core";
import { isSubstringTerm } from "@bonsai/formats";
import { deriveColumns } from "./derive";
import type { Statements } from "./reads/path";

/** entries (next_pk, end_pk] that were in the word index before the trigram index existed */
type Backfill = [next: number, end: number];

const BACKFILL = "SELECT next_pk, end_pk FROM trigram_backfill WHERE id = 1";
const PENDING = "SELECT e.pk, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.indexed = 0 ORDER BY e.pk LIMIT ?";
const TO_BACKFILL = "SELECT e.pk, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.pk > ? AND e.pk <= ? AND e.indexed = 1 ORDER BY e.pk LIMIT ?";
const INSERT_WORDS = "INSERT INTO entries_fts (rowid, body, tools, paths) VALUES (?, ?, ?, ?)";
const INSERT_TRIGRAMS = "INSERT INTO entries_trigram (rowid, body, paths) VALUES (?, ?, ?)";

function backfillOf(st: Statements): Backfill | undefined {
  return st.get(BACKFILL).raw().get() as Backfill | undefined;
}

function entryText(json: string): { body: string; tools: string; paths: string } {
  return deriveColumns(JSON.parse(json) as SessionEntry);
}

/**
 * Only text with a character of a script written without spaces goes into the trigram index: a
 * term routed to it holds such a character (search-text.ts routeTerms), so no other text can match
 * it, and the index stays small where sessions are in English (a trigram index of all text is
 * larger than the text itself).
 */
function insertTrigrams(st: Statements, pk: number, body: string, paths: string): void {
  if (isSubstringTerm(body) || isSubstringTerm(paths)) st.get(INSERT_TRIGRAMS).run(pk, body, paths);
}

/** Entries not indexed yet: both indexes (the word index only while the backfill has not reached them). */
function indexPendingBatch(st: Statements, limit: number, backfill: Backfill | undefined): number {
  const batch = st.get(PENDING).raw().all(limit) as [number, string][];
  const mark = st.get("UPDATE entries SET indexed = 1 WHERE pk = ?");
  for (const [pk, json] of batch) {
    const d = entryText(json);
    if (d.body !== "" || d.tools !== "" || d.paths !== "") st.get(INSERT_WORDS).run(pk, d.body, d.tools, d.paths);
    const awaitsBackfill = backfill !== undefined && pk > backfill[0] && pk <= backfill[1];
    if (!awaitsBackfill) insertTrigrams(st, pk, d.body, d.paths);
    mark.run(pk);
  }
  return batch.length;
}

/** Entries of the word index that the trigram index lacks, in key order; the range shrinks, then goes. */
function backfillBatch(st: Statements, [next, end]: Backfill, limit: number): number {
  const batch = st.get(TO_BACKFILL).raw().all(next, end, limit) as [number, string][];
  for (const [pk, json] of batch) {
    const d = entryText(json);
    insertTrigrams(st, pk, d.body, d.paths);
  }
  const reached = batch.length < limit ? end : (batch[batch.length - 1] as [number, string])[0];
  if (reached >= end) st.get("DELETE FROM trigram_backfill WHERE id = 1").run();
  else st.get("UPDATE trigram_backfill SET next_pk = ? WHERE id = 1").run(reached);
  return batch.length;
}

/**
 * Brings both indexes up to date, at most `maxEntries` entries, `batchSize` per write transaction;
 * returns how many entries were indexed. Each batch is read inside its transaction, so another
 * connection indexing at the same time never indexes the same entries again.
 */
export function indexForSearch(st: Statements, maxEntries: number, batchSize: number): number {
  let done = 0;
  while (done < maxEntries) {
    const count = st.db
      .transaction(() => {
        const limit = Math.min(batchSize, maxEntries - done);
        const backfill = backfillOf(st);
        const pending = indexPendingBatch(st, limit, backfill);
        if (pending >= limit || backfill === undefined) return pending;
        return pending + backfillBatch(st, backfillOf(st) ?? backfill, limit - pending);
      })
      .immediate();
    if (count === 0) break;
    done += count;
  }
  return done;
}

/** How many entries (of one session, or of all) a search cannot find yet: not indexed, or not in the trigram index. */
export function unindexedForSearch(st: Statements, sessionId?: string): number {
  const backfill = backfillOf(st);
  const session = sessionId === undefined ? "" : " AND session_id = ?";
  const params = sessionId === undefined ? [] : [sessionId];
  const pending = st.get(`SELECT count(*) FROM entries INDEXED BY entries_unindexed WHERE indexed = 0${session}`).pluck().get(...params) as number;
  if (backfill === undefined) return pending;
  const lacking = st.get(`SELECT count(*) FROM entries WHERE pk > ? AND pk <= ? AND indexed = 1${session}`).pluck().get(...backfill, ...params) as number;
  return pending + lacking;
}

/** Takes a session's indexed entries out of both indexes (before its rows are deleted). */
export function unindexSession(st: Statements, sessionId: string): void {
  st.get("DELETE FROM entries_fts WHERE rowid IN (SELECT pk FROM entries WHERE session_id = ? AND indexed = 1)").run(sessionId);
  st.get("DELETE FROM entries_trigram WHERE rowid IN (SELECT pk FROM entries WHERE session_id = ? AND indexed = 1)").run(sessionId);
}

/** Takes one entry out of both indexes (its text is about to change; it is indexed again afterwards). */
export function unindexEntry(st: Statements, pk: number): void {
  st.get("DELETE FROM entries_fts WHERE rowid = ?").run(pk);
  st.get("DELETE FROM entries_trigram WHERE rowid = ?").run(pk);
}
