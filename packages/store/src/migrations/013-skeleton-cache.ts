import type { Migration } from "./types";

/**
 * The packed skeletons of big sessions, kept between starts (reads/skeleton-cache.ts), and what
 * tells whether one still holds:
 * - `sessions.skeleton_rev`, raised by a trigger whenever a row of the session changes a column a
 *   skeleton shows (the derived columns a prune or a restore rewrites, parent links fixed after an
 *   import); rows added raise the session's last seq instead, and rows removed come with a new
 *   generation (a whole read again) or the session's removal;
 * - `skeleton_cache`: per session, the JSON text and the state it was read in. Removed with its
 *   session. A later migration that changes what a skeleton shows empties it.
 */
export const migration013SkeletonCache: Migration = {
  version: 13,
  name: "skeleton-cache",
  up(db) {
    const cols = new Set((db.prepare("PRAGMA table_info(sessions)").all() as { name: string }[]).map((c) => c.name));
    if (!cols.has("skeleton_rev")) db.exec("ALTER TABLE sessions ADD COLUMN skeleton_rev INTEGER NOT NULL DEFAULT 0");
    db.exec(`
      CREATE TRIGGER IF NOT EXISTS entries_skeleton_rev
        AFTER UPDATE OF session_id, seq, id, parent_id, parent_seq, type, role, timestamp, tokens, preview, tool_name, flags, stop_reason, custom_type, ref_id, tokens_before ON entries
      BEGIN
        UPDATE sessions SET skeleton_rev = skeleton_rev + 1 WHERE id = NEW.session_id;
      END;
      CREATE TABLE IF NOT EXISTS skeleton_cache (
        session_id  TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        state       TEXT NOT NULL,   -- the session's state when it was read (skeleton-cache.ts)
        leaf_id     TEXT,            -- the leaf it was read with (the JSON's leafId)
        json        TEXT NOT NULL
      );
    `);
  },
};
