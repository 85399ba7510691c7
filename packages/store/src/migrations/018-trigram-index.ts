import type { Migration } from "./types";

/**
 * Search in scripts written without spaces (Chinese, Japanese, Thai, ...): beside the word index
 * `entries_fts` (unicode61, which reads a run of such text as one word), `entries_trigram` indexes
 * every three characters of the same text (FTS5's trigram tokenizer), so that a word is found
 * inside a sentence (search-index.ts). Contentless like the word index: the text lives once, in
 * entry_json.
 *
 * The entries already in the word index are put in the trigram index later, not here (opening a
 * 100,000-entry store must not wait for it): `trigram_backfill` holds the range of entry keys that
 * still lack it (`next_pk` < pk <= `end_pk`, among rows with indexed = 1), and the search indexer
 * works through it a batch at a time, in the background and before each search.
 */
export const migration018TrigramIndex: Migration = {
  version: 18,
  name: "trigram-index",
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS entries_trigram USING fts5(
        body, paths,
        content = '', contentless_delete = 1,
        tokenize = 'trigram'
      );
      CREATE TABLE IF NOT EXISTS trigram_backfill (
        id       INTEGER PRIMARY KEY CHECK (id = 1),
        next_pk  INTEGER NOT NULL,  -- entries up to here are in the trigram index
        end_pk   INTEGER NOT NULL   -- the last entry key that was in the word index at the migration
      );
      INSERT OR IGNORE INTO trigram_backfill (id, next_pk, end_pk)
        SELECT 1, 0, max(pk) FROM entries HAVING max(pk) IS NOT NULL;
    `);
  },
};
