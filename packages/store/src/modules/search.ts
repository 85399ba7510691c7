/**
 * Search: the FTS5 word and trigram indexes of what is stored (search-index.ts, search-query.ts), kept up to date by an indexer in the background (driven
 * by the "entries written" event), and the ranked query.
 */
import { withoutWaiting } from "../database";
import { indexForSearch, unindexedForSearch } from "../search-index";
import { searchIndexes } from "../search-query";
import { parseQuery } from "../search-text";
import type { SearchHit, SearchOptions } from "../session-store";
import type { StoreContext } from "./context";

/** entries indexed for search per transaction in the background */
const INDEX_BATCH = 500;
/** when another connection holds the write lock, background indexing tries again after this */
const BUSY_RETRY_MS = 200;

export function search(ctx: StoreContext, query: string, options: SearchOptions = {}): SearchHit[] {
  if (parseQuery(query).length === 0) return [];
  // entries stored a moment ago are found once indexed; a writer busy elsewhere is not waited for
  withoutWaiting(ctx.db, () => indexSearch(ctx, options.indexLimit ?? Infinity));
  return searchIndexes(ctx.statements, query, options);
}

/**
 * Brings the search indexes up to date (entries are indexed after they are stored, so that an
 * import never waits for it). Returns how many entries were indexed. Batches of one transaction.
 */
export function indexSearch(ctx: StoreContext, maxEntries = Infinity): number {
  return indexForSearch(ctx.statements, maxEntries, INDEX_BATCH);
}

export function unindexedCount(ctx: StoreContext, sessionId?: string): number {
  return unindexedForSearch(ctx.statements, sessionId);
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
