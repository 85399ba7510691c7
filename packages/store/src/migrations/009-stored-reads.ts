import type Database from "better-sqlite3";
import type { SessionEntry } from "@bonsai/core";
import { deriveColumns } from "../derive";
import type { Migration } from "./types";

/**
 * What reading stored sessions without loading them needs (src/reads/):
 * - `entries_by_id_seq` on (session_id, id, seq) replaces `entries_by_id` (session_id, id): a lookup
 *   "the last entry with this id" (ORDER BY seq DESC LIMIT 1) is one index seek; with the old index
 *   SQLite walked the session's rows backwards by seq instead, so every id that is not there yet
 *   (each appended line, each new id) cost a scan of the whole session.
 * - `entries.run_seq`: the seq where the entry's linear run starts (a run: consecutive rows whose
 *   parent is the row just before). A path is then a few seq ranges, found with one lookup per run.
 * - flag bits the derived-column readers rely on (FLAG_ODD_MESSAGE, FLAG_EXCLUDED,
 *   FLAG_EMPTY_SUMMARY in derive.ts): recomputed from the JSON of the only rows that can have them.
 */
export const migration009StoredReads: Migration = {
  version: 9,
  name: "stored-reads",
  up(db) {
    db.exec(`
      CREATE INDEX IF NOT EXISTS entries_by_id_seq ON entries(session_id, id, seq);
      DROP INDEX IF EXISTS entries_by_id;
    `);
    const cols = new Set((db.prepare("PRAGMA table_info(entries)").all() as { name: string }[]).map((c) => c.name));
    if (!cols.has("run_seq")) db.exec("ALTER TABLE entries ADD COLUMN run_seq INTEGER");
    backfillRuns(db);
    backfillFlags(db);
  },
};

/** run_seq = the latest seq at or before the row that does not continue the row before it. */
function backfillRuns(db: Database.Database): void {
  db.exec(`
    UPDATE entries SET run_seq = runs.run FROM (
      SELECT pk, max(CASE WHEN parent_seq IS NOT NULL AND parent_seq = seq - 1 THEN NULL ELSE seq END)
             OVER (PARTITION BY session_id ORDER BY seq ROWS UNBOUNDED PRECEDING) AS run
      FROM entries
    ) AS runs WHERE entries.pk = runs.pk
  `);
}

function backfillFlags(db: Database.Database): void {
  const rows = db
    .prepare(
      `SELECT e.pk, e.flags, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk
       WHERE (e.type = 'message' AND (e.role IS NULL OR e.role IN ('bashExecution', 'pythonExecution'))) OR e.type = 'branch_summary'`,
    )
    .raw()
    .all() as [number, number, string][];
  const update = db.prepare("UPDATE entries SET flags = ? WHERE pk = ?");
  for (const [pk, flags, json] of rows) {
    let entry: SessionEntry;
    try {
      entry = JSON.parse(json) as SessionEntry;
    } catch {
      continue;
    }
    const derived = deriveColumns(entry, false).flags;
    if (derived !== flags) update.run(derived, pk);
  }
}
