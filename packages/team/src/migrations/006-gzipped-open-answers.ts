import type { ArchiveMigration } from "./types";

/**
 * The kept open answers (opened_sessions, 003) stored as the gzip of their JSON, as the page
 * downloads them (a large answer goes beside the WebSocket, gzip-encoded: ipc's LargeAnswers): a
 * server sends the bytes as they are, without decompressing, parsing or compressing them. The
 * column is stored as it is (STORAGE EXTERNAL: PostgreSQL does not try to compress gzip again). The
 * answers kept as text are dropped, which loses nothing (derived data: the next open of each long
 * session makes its answer again).
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
    `);
  },
};
