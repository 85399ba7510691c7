/**
 * What Bonsai keeps about a session besides its entries: the title a user gave it in Bonsai
 * (table session_titles, migration 008), and the counts the session list shows.
 */
import type Database from "better-sqlite3";
import { compactionCountStep, type SessionEntry } from "@bonsai/core";

export function readSessionTitles(db: Database.Database): Map<string, string> {
  const rows = db.prepare("SELECT session_id, title FROM session_titles").all() as { session_id: string; title: string }[];
  return new Map(rows.map((r) => [r.session_id, r.title]));
}

/** null or "" removes Bonsai's title (the file's title shows again) */
export function writeSessionTitle(db: Database.Database, sessionId: string, title: string | null): void {
  const value = title?.trim() ?? "";
  if (value === "") db.prepare("DELETE FROM session_titles WHERE session_id = ?").run(sessionId);
  else db.prepare("INSERT INTO session_titles (session_id, title) VALUES (?, ?) ON CONFLICT (session_id) DO UPDATE SET title = excluded.title").run(sessionId, value);
}

/** Compaction entries not undone (undo-markers.ts), and branch tips: entries that are no entry's parent. */
export function countSessionShape(db: Database.Database, sessionId: string): { compactions: number; branches: number } {
  const row = db
    .prepare(
      `SELECT count(*) AS entries, count(DISTINCT parent_seq) AS parents, coalesce(sum(type = 'compaction'), 0) AS compactions,
              coalesce(sum(type = 'custom'), 0) AS customs
       FROM entries WHERE session_id = ?`,
    )
    .get(sessionId) as { entries: number; parents: number; compactions: number; customs: number };
  let compactions = row.compactions;
  if (row.customs > 0 && row.compactions > 0) {
    const markers = db
      .prepare("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.type = 'custom' ORDER BY e.seq")
      .pluck()
      .all(sessionId) as string[];
    for (const json of markers) compactions += compactionCountStep(JSON.parse(json) as SessionEntry);
  }
  return { compactions: Math.max(0, compactions), branches: Math.max(row.entries > 0 ? 1 : 0, row.entries - row.parents) };
}
