import type { ArchiveMigration } from "./types";

/**
 * The kept open answers (opened_sessions, 003) stored as the gzip of their JSON, as the page
 * downloads them (a large answer goes beside the WebSocket, gzip-encoded: ipc's LargeAnswers): a
 * server sends the bytes as they are, without decompressing, parsing or compressing them. The
 * column is stored as it is (STORAGE EXTERNAL: PostgreSQL does not try to compress gzip again). The
 * answers kept as text are dropped, which loses nothing (derived data: the next open of each long
 * session makes its answer again).
 *
 * open_answer_downloads holds the one-time addresses of those downloads (app/answer-downloads.ts):
 * kept here, not in a process's memory, so that whichever process behind a load balancer takes the
 * GET answers it. An address is stored as its SHA-256 and lives a minute. export_downloads does the
 * same for the page's exports (app/export-downloads.ts): the request, so that a process that did not
 * write the file makes the same export again; five minutes.
 */
export const migration006GzippedOpenAnswers: ArchiveMigration = {
  version: 6,
  name: "gzipped-open-answers",
  async up(client) {
    await client.query(`
      DELETE FROM opened_sessions;
      ALTER TABLE opened_sessions DROP COLUMN answer;
      ALTER TABLE opened_sessions ADD COLUMN answer_gzip BYTEA NOT NULL;
      ALTER TABLE opened_sessions ALTER COLUMN answer_gzip SET STORAGE EXTERNAL;

      CREATE TABLE open_answer_downloads (
        id_hash BYTEA PRIMARY KEY,
        session_pk BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        entry_count INTEGER NOT NULL,
        person_id BIGINT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        expires_at TIMESTAMPTZ NOT NULL
      );

      CREATE TABLE export_downloads (
        id_hash BYTEA PRIMARY KEY,
        person_id BIGINT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        request JSONB NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
    `);
  },
};
