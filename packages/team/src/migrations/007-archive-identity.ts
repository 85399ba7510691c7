import type { ArchiveMigration } from "./types";

/**
 * A session in the archive is (project, who pushed it, session id): two members who push sessions
 * with one id into one project keep two sessions, and a push changes only its pusher's own row
 * (title, cwd, entries). Every existing row was unique by (project, id), so it is unique by
 * (project, pusher, id) too: the rows stay as they are, only the key changes.
 */
export const migration007ArchiveIdentity: ArchiveMigration = {
  version: 7,
  name: "archive-identity",
  async up(client) {
    await client.query(`
      ALTER TABLE sessions DROP CONSTRAINT sessions_project_id_session_id_key;
      ALTER TABLE sessions ADD CONSTRAINT sessions_identity UNIQUE (project_id, pushed_by, session_id);
      CREATE INDEX sessions_by_id ON sessions (session_id text_pattern_ops);
    `);
  },
};
