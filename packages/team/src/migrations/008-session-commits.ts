import type { ArchiveMigration } from "./types";

/**
 * `sessions.commits`: the commits a pushed session produced (a session imported with `bonsai
 * import --git`, linked by the `Entire-Checkpoint:` trailers of its repository's commits), as a
 * JSON array of `{sha, subject, date, files}`, redacted like the rest of the push; NULL for a
 * session pushed without any. Each push replaces it with the pusher's current links.
 */
export const migration008SessionCommits: ArchiveMigration = {
  version: 8,
  name: "session-commits",
  async up(client) {
    await client.query("ALTER TABLE sessions ADD COLUMN commits jsonb");
  },
};
