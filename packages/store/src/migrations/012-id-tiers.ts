import type { Migration } from "./types";

/**
 * `entries.id_tier` and `entries_by_id_tier` on (session_id, id_tier, id, seq), in place of
 * `entries_by_id_seq` on (session_id, id, seq): appended rows go to a small recent tier of the id
 * index instead of random places all over it (id-tiers.ts). Every stored row is settled (tier 0).
 */
export const migration012IdTiers: Migration = {
  version: 12,
  name: "id-tiers",
  up(db) {
    const cols = new Set((db.prepare("PRAGMA table_info(entries)").all() as { name: string }[]).map((c) => c.name));
    if (!cols.has("id_tier")) db.exec("ALTER TABLE entries ADD COLUMN id_tier INTEGER NOT NULL DEFAULT 0");
    db.exec(`
      DROP INDEX IF EXISTS entries_by_id_seq;
      CREATE INDEX IF NOT EXISTS entries_by_id_tier ON entries(session_id, id_tier, id, seq);
    `);
  },
};
