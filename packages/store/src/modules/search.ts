/**
 * Search: the FTS5 index of what is stored, kept up to date by an indexer in the background (driven
 * by the "entries written" event), and the ranked query.
 */
import type { SessionEntry } from "@bonsai/core";
import { withoutWaiting } from "../database";
import { deriveColumns } from "../derive";
import { parseQuery, snippetMaker, toFtsQuery } from "../search-text";
import type { SearchHit, SearchOptions } from "../session-store";
import { sql, type StoreContext } from "./context";

/** search ranks at most this many of the newest matches */
const RANK_WINDOW = 2000;
/** entries indexed for search per transaction in the background */
const INDEX_BATCH = 500;
/** when another connection holds the write lock, background indexing tries again after this */
const BUSY_RETRY_MS = 200;

export function search(ctx: StoreContext, query: string, options: SearchOptions = {}): SearchHit[] {
  const match = toFtsQuery(query);
  if (match === null) return [];
  // entries stored a moment ago are found once indexed; a writer busy elsewhere is not waited for
  withoutWaiting(ctx.db, () => indexSearch(ctx, options.indexLimit ?? Infinity));
  const snippet = snippetMaker(parseQuery(query));
  const limit = Math.min(Math.max(1, options.limit ?? 50), 500);
  const where = options.sessionId ? "AND rowid IN (SELECT pk FROM entries WHERE session_id = ?)" : "";
  const params: unknown[] = [match];
  if (options.sessionId) params.push(options.sessionId);
  params.push(limit);
  const rows = sql(
    ctx,
    // bm25 ranks the newest RANK_WINDOW matches (FTS5 walks matches in rowid order, so a word
    // found in every entry costs RANK_WINDOW scores, not one per entry of the database)
    `SELECT e.session_id, s.title, e.id, e.type, e.role, e.timestamp, j.json, f.rank
     FROM (SELECT rowid, rank FROM entries_fts WHERE entries_fts MATCH ? ${where} ORDER BY rowid DESC LIMIT ${RANK_WINDOW}) f
     JOIN entries e ON e.pk = f.rowid JOIN entry_json j ON j.pk = e.pk JOIN sessions s ON s.id = e.session_id
     ORDER BY f.rank LIMIT ?`,
  )
    .raw()
    .all(...params) as [string, string | null, string, string, string | null, string, string, number][];
  return rows.map(([sessionId, sessionTitle, entryId, type, role, timestamp, json, rank]) => {
    const d = deriveColumns(JSON.parse(json) as SessionEntry);
    const text = snippet(d.body) || snippet(d.tools) || snippet(d.paths.replace(/\n/g, " ")) || d.preview;
    return { sessionId, sessionTitle, entryId, type, role, timestamp, snippet: text, rank };
  });
}

/**
 * Brings the search index up to date (entries are indexed after they are stored, so that an
 * import never waits for it). Returns how many entries were indexed. Batches of one transaction.
 */
export function indexSearch(ctx: StoreContext, maxEntries = Infinity): number {
  const next = sql(ctx, "SELECT e.pk, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.indexed = 0 ORDER BY e.pk LIMIT ?").raw();
  const insert = sql(ctx, "INSERT INTO entries_fts (rowid, body, tools, paths) VALUES (?, ?, ?, ?)");
  const mark = sql(ctx, "UPDATE entries SET indexed = 1 WHERE pk = ?");
  let done = 0;
  while (done < maxEntries) {
    // the batch is read inside the write transaction: another connection indexing at the same
    // time (a store worker's background indexing, a search on the host's thread) never indexes
    // the same entries again
    const count = ctx.db
      .transaction(() => {
        const batch = next.all(Math.min(INDEX_BATCH, maxEntries - done)) as [number, string][];
        for (const [pk, json] of batch) {
          const d = deriveColumns(JSON.parse(json) as SessionEntry);
          if (d.body !== "" || d.tools !== "" || d.paths !== "") insert.run(pk, d.body, d.tools, d.paths);
          mark.run(pk);
        }
        return batch.length;
      })
      .immediate();
    if (count === 0) break;
    done += count;
  }
  return done;
}

export function unindexedCount(ctx: StoreContext, sessionId?: string): number {
  if (sessionId === undefined) return sql(ctx, "SELECT count(*) FROM entries INDEXED BY entries_unindexed WHERE indexed = 0").pluck().get() as number;
  return sql(ctx, "SELECT count(*) FROM entries INDEXED BY entries_unindexed WHERE indexed = 0 AND session_id = ?").pluck().get(sessionId) as number;
}

/**
 * Background indexing waits `ms` from now: a tree about to be drawn gets the CPU (on two cores,
 * indexing the 100,000 entries an import brought in would take one from the page for seconds).
 * Searches index what they need themselves, so nothing waits for it.
 */
export function quietIndexing(ctx: StoreContext, ms: number): void {
  ctx.state.indexingQuietUntil = Math.max(ctx.state.indexingQuietUntil, Date.now() + ms);
}

/** Indexes what each write stores, in the background (when the store indexes in the background). */
export function startBackgroundIndexing(ctx: StoreContext): void {
  ctx.events.onEntriesWritten(() => scheduleIndexing(ctx));
}

/** Indexes pending entries in the background, one batch per turn of the event loop. */
export function scheduleIndexing(ctx: StoreContext): void {
  const state = ctx.state;
  if (!ctx.backgroundIndexing) return;
  if (state.indexingScheduled || state.closed || ctx.db.inTransaction) {
    if (ctx.db.inTransaction) queueMicrotask(() => scheduleIndexing(ctx));
    return;
  }
  state.indexingScheduled = true;
  const step = (): void => {
    if (state.closed) return;
    const quiet = state.indexingQuietUntil - Date.now();
    if (quiet > 0) {
      setTimeout(step, quiet).unref();
      return;
    }
    let n: number | undefined;
    try {
      // another connection writing (a store worker's import) is waited for by trying later, never here
      n = withoutWaiting(ctx.db, () => indexSearch(ctx, INDEX_BATCH));
    } catch {
      n = 0; // retried on the next search or write
    }
    if (n === undefined) setTimeout(step, BUSY_RETRY_MS).unref();
    else if (n === INDEX_BATCH) setImmediate(step);
    else {
      state.indexingScheduled = false;
      checkpoint(ctx);
    }
  };
  setImmediate(step);
}

/** Copies the WAL into the database file without waiting for readers (idle time). */
function checkpoint(ctx: StoreContext): void {
  try {
    ctx.db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // busy: SQLite's own auto-checkpoint catches up later
  }
}
