import type { Migration } from "./types";

/**
 * `entries_settings` (migration 011) again, with its rows' condition written as comparisons joined by
 * OR instead of `type IN (...)`. SQLite evaluates a partial index's condition for every row written,
 * and an IN list there opened a temporary B-tree of its values for each one: every entry an import
 * or an append wrote paid for it (about 3 ms of a 1,000-line append, docs/PERFORMANCE.md,
 * "Smaller choices"). The rows and the queries that use the index are the same.
 */
/** the condition of entries_settings' rows (a query repeats it word for word for SQLite to use the index) */
export const SETTINGS_ROWS = "(type = 'thinking_level_change' OR type = 'model_change' OR type = 'mode_change' OR type = 'ttsr_injection')";

export const SETTINGS_INDEX = `CREATE INDEX entries_settings ON entries(session_id, type, seq) WHERE ${SETTINGS_ROWS}`;

export const migration014SettingsRows: Migration = {
  version: 14,
  name: "settings-rows",
  up(db) {
    const current = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'entries_settings'").pluck().get() as string | undefined;
    if (current === SETTINGS_INDEX) return;
    db.exec(`DROP INDEX IF EXISTS entries_settings; ${SETTINGS_INDEX};`);
  },
};
