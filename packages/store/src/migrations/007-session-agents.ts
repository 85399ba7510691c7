import type { Migration } from "./types";

/**
 * `session_agents`: which agent wrote each session and what the formats layer knows of it.
 * - `agent`: pi | omp | claude-code | codex (pi files: from `pi_traits` and the folder).
 * - `pi_traits`: pi / oh-my-pi files only: 1 = an oh-my-pi-only trait was read (header title,
 *   fromExtension, ttsr_injection, ...), 2 = a pi-mono-only one (fromHook, model_change with
 *   provider + modelId); the agent is omp when only the first was seen.
 * - `compactions`: compaction entries stored (what `bonsai ls` shows without counting).
 * - `foreign_json`: Claude Code and Codex files (read-only sources): what the reader gives besides
 *   the entries — `{original, links, stats}` (final newline and trailing blank lines for the byte-
 *   for-byte export, sub-agent links, line counts).
 * Sessions stored before this migration get a row from their header and path (a title or a
 * ~/.omp folder: omp) and their compaction count.
 */
export const migration007SessionAgents: Migration = {
  version: 7,
  name: "session-agents",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS session_agents (
        session_id   TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        agent        TEXT NOT NULL,
        pi_traits    INTEGER NOT NULL DEFAULT 0,
        compactions  INTEGER NOT NULL DEFAULT 0,
        foreign_json TEXT
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO session_agents (session_id, agent, pi_traits, compactions)
        SELECT s.id,
               CASE WHEN s.source_path LIKE '%/.omp/%' OR s.source_path LIKE '%\\.omp\\%' OR json_type(s.header_json, '$.title') = 'text' THEN 'omp' ELSE 'pi' END,
               CASE WHEN json_type(s.header_json, '$.title') = 'text' THEN 1 ELSE 0 END,
               (SELECT count(*) FROM entries e WHERE e.session_id = s.id AND e.type = 'compaction')
        FROM sessions s;
    `);
  },
};
