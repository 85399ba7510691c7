import type { Migration } from "./types";

/**
 * `sessions.detached`: why the session's changes are no longer written to its source file (the file
 * or its folder is read-only, or write-through is turned off); NULL while it is written through.
 */
export const migration003DetachedSource: Migration = {
  version: 3,
  name: "detached-source",
  up(db) {
    const cols = new Set((db.prepare("PRAGMA table_info(sessions)").all() as { name: string }[]).map((c) => c.name));
    if (!cols.has("detached")) db.exec("ALTER TABLE sessions ADD COLUMN detached TEXT");
  },
};
