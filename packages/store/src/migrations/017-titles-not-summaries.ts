import type { Migration } from "./types";

/**
 * A past version titled a session without a title of its own by its latest compaction's short
 * summary ("## Goal … ## Next Steps …"). A title is the agent's or the user's: a session whose
 * stored title is one of its compactions' short summaries, and whose header has no title, gets its
 * latest `session_info` name, else none (the list shows its first prompt).
 */
export const migration017TitlesNotSummaries: Migration = {
  version: 17,
  name: "titles-not-summaries",
  up(db) {
    db.exec(`
      UPDATE sessions SET title = (
          SELECT json_extract(j.json, '$.name') FROM entries e JOIN entry_json j ON j.pk = e.pk
          WHERE e.session_id = sessions.id AND e.type = 'session_info' AND json_type(j.json, '$.name') = 'text' AND json_extract(j.json, '$.name') != ''
          ORDER BY e.seq DESC LIMIT 1)
        WHERE title IS NOT NULL
          AND json_type(header_json, '$.title') IS NOT 'text'
          AND EXISTS (
            SELECT 1 FROM entries e JOIN entry_json j ON j.pk = e.pk
            WHERE e.session_id = sessions.id AND e.type = 'compaction' AND json_extract(j.json, '$.shortSummary') = sessions.title);
    `);
  },
};
