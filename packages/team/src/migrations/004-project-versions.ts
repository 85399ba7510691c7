import type { ArchiveMigration } from "./types";

/**
 * A counter per project that moves whenever one of its sessions is added, changed or removed (a
 * trigger on `sessions`, which every push batch updates), so that a server process may keep the
 * answers it gave (the session list, a search, a short session) and know, from the counters of the
 * caller's projects read with the caller's token, whether an answer it kept is still the answer.
 * A session changed by hand in SQL is seen the same way; only a change to `entries` alone is not
 * (nothing in Bonsai makes one).
 */
export const migration004ProjectVersions: ArchiveMigration = {
  version: 4,
  name: "project-versions",
  async up(client) {
    await client.query(`
      CREATE TABLE project_versions (
        project_id BIGINT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        version BIGINT NOT NULL
      );

      CREATE FUNCTION archive_bump_project_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO project_versions (project_id, version) VALUES (OLD.project_id, 1)
            ON CONFLICT (project_id) DO UPDATE SET version = project_versions.version + 1;
        END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.project_id IS DISTINCT FROM OLD.project_id) THEN
          INSERT INTO project_versions (project_id, version) VALUES (NEW.project_id, 1)
            ON CONFLICT (project_id) DO UPDATE SET version = project_versions.version + 1;
        END IF;
        RETURN NULL;
      END $$;

      CREATE TRIGGER sessions_bump_project_version AFTER INSERT OR UPDATE OR DELETE ON sessions
        FOR EACH ROW EXECUTE FUNCTION archive_bump_project_version();
    `);
  },
};
