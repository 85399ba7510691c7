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
 * - `entries_path` covers what the reads of a path take from each row (the links, type, role, token
 *   estimate, flags, id, tool name): walking a path and scanning its ranges read this index alone,
 *   never the table's wide rows (previews, timestamps) — a few pages instead of the whole session.
 * - `entries.model_seq` / `thinking_seq`: the nearest model change / thinking level change on the
 *   path to the entry (itself included), like settings_seq for every settings type: the models and
 *   the thinking level of a context follow these links instead of every settings entry.
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
    for (const column of ["run_seq", "model_seq", "thinking_seq"]) if (!cols.has(column)) db.exec(`ALTER TABLE entries ADD COLUMN ${column} INTEGER`);
    db.exec(`
      DROP INDEX IF EXISTS entries_path;
      CREATE INDEX entries_path ON entries(session_id, seq, parent_seq, run_seq, type, role, tokens, flags, id, tool_name);
    `);
    backfillRuns(db);
    backfillSettingLinks(db);
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

/** model_seq / thinking_seq inherited along the parent links, session by session (parents come first in a regular session) */
function backfillSettingLinks(db: Database.Database): void {
  const update = db.prepare("UPDATE entries SET model_seq = ?, thinking_seq = ? WHERE session_id = ? AND seq = ?");
  for (const sessionId of db.prepare("SELECT id FROM sessions").pluck().all() as string[]) {
    const rows = db.prepare("SELECT seq, parent_seq, type FROM entries WHERE session_id = ? ORDER BY seq").raw().all(sessionId) as [number, number | null, string][];
    const model = new Int32Array(rows.length).fill(-1);
    const thinking = new Int32Array(rows.length).fill(-1);
    for (const [seq, parent, type] of rows) {
      if (seq >= rows.length) continue;
      const inherit = parent !== null && parent < seq;
      model[seq] = type === "model_change" ? seq : inherit ? (model[parent] as number) : -1;
      thinking[seq] = type === "thinking_level_change" ? seq : inherit ? (thinking[parent] as number) : -1;
      if (model[seq] !== -1 || thinking[seq] !== -1) update.run(model[seq] === -1 ? null : model[seq], thinking[seq] === -1 ? null : thinking[seq], sessionId, seq);
    }
  }
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
