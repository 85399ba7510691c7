import type { SessionEntry } from "@bonsai/core";
import { deriveColumns } from "../derive";
import type { Migration } from "./types";

/**
 * `entries.file_ops`: an assistant message's file operations (derive.ts `fileOps`: the read, write
 * and edit calls' paths, as core's fileOpCodesOf codes in a JSON array; NULL without any), so that a
 * compaction plan lists the files of the history it summarizes from these rows instead of parsing
 * every summarized message; `entries_file_ops` holds them in path order (their rows only). Existing
 * assistant messages are backfilled from their JSON.
 *
 * `entries_settings`: the settings entries of a session (thinking/model/mode changes, ttsr
 * injections: a few hundred rows in a long session), so that a context finds those on its path from
 * this small index and the path's ranges instead of following settings_seq / model_seq links from
 * table row to table row (a page of the table per link).
 */
/** the condition of entries_settings' rows as this migration wrote it (migration 014 writes another) */
const SETTINGS_ROWS_011 = "type IN ('thinking_level_change', 'model_change', 'mode_change', 'ttsr_injection')";

export const migration011FileOps: Migration = {
  version: 11,
  name: "file-ops",
  up(db) {
    const cols = new Set((db.prepare("PRAGMA table_info(entries)").all() as { name: string }[]).map((c) => c.name));
    if (!cols.has("file_ops")) db.exec("ALTER TABLE entries ADD COLUMN file_ops TEXT");
    const rows = db
      .prepare("SELECT e.pk, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.type = 'message' AND e.role = 'assistant' AND e.tool_name IS NOT NULL")
      .raw()
      .iterate() as IterableIterator<[number, string]>;
    const updates: [string, number][] = [];
    for (const [pk, json] of rows) {
      let entry: SessionEntry;
      try {
        entry = JSON.parse(json) as SessionEntry;
      } catch {
        continue;
      }
      const ops = deriveColumns(entry, false).fileOps;
      if (ops !== null) updates.push([ops, pk]);
    }
    const update = db.prepare("UPDATE entries SET file_ops = ? WHERE pk = ?");
    for (const [ops, pk] of updates) update.run(ops, pk);
    db.exec(`
      CREATE INDEX IF NOT EXISTS entries_file_ops ON entries(session_id, seq, file_ops) WHERE file_ops IS NOT NULL;
      CREATE INDEX IF NOT EXISTS entries_settings ON entries(session_id, type, seq) WHERE ${SETTINGS_ROWS_011};
    `);
  },
};
