import type { ArchiveMigration } from "./types";

/**
 * People, projects, who may read which project, sign-in tokens (only a salted hash is kept), and the
 * pushed sessions with their entries. Entries are keyed by their position in the session (`seq`),
 * so a push sends only the positions the archive lacks and a repeated push changes nothing.
 * Entries and headers are kept as the JSON text that was pushed (JSONB cannot hold every string a
 * session may contain, such as U+0000). `search_text` is what search reads: a word index (`to_tsvector('simple', …)`) and a trigram index
 * (pg_trgm) that finds words inside Chinese, Japanese or Thai sentences.
 */
export const migration001PeopleAndSessions: ArchiveMigration = {
  version: 1,
  name: "people-and-sessions",
  async up(client) {
    await client.query(`
      CREATE EXTENSION IF NOT EXISTS pg_trgm;

      CREATE TABLE people (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );

      CREATE TABLE projects (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );

      CREATE TABLE grants (
        person_id BIGINT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        PRIMARY KEY (person_id, project_id)
      );

      CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        person_id BIGINT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        salt BYTEA NOT NULL,
        hash BYTEA NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        revoked_at TIMESTAMPTZ
      );
      CREATE INDEX tokens_person ON tokens(person_id);

      CREATE TABLE sessions (
        id BIGSERIAL PRIMARY KEY,
        project_id BIGINT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        session_id TEXT NOT NULL,
        pushed_by BIGINT NOT NULL REFERENCES people(id),
        agent TEXT NOT NULL,
        title TEXT,
        cwd TEXT,
        header TEXT NOT NULL,
        started_at TEXT,
        entry_count INTEGER NOT NULL DEFAULT 0,
        pushed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (project_id, session_id)
      );
      CREATE INDEX sessions_recent ON sessions(pushed_at DESC, id DESC);

      CREATE TABLE entries (
        session_pk BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        entry_id TEXT NOT NULL,
        parent_id TEXT,
        type TEXT NOT NULL,
        at TEXT,
        entry TEXT NOT NULL,
        search_text TEXT NOT NULL DEFAULT '',
        search TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
        PRIMARY KEY (session_pk, seq),
        UNIQUE (session_pk, entry_id)
      );
      CREATE INDEX entries_words ON entries USING GIN (search);
      CREATE INDEX entries_trigrams ON entries USING GIN (search_text gin_trgm_ops);
    `);
  },
};
