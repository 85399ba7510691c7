import type { Migration } from "./types";

/**
 * Sessions imported from a repository's Entire checkpoint branch (`bonsai import --git`) and the
 * commits they produced (src/entire/):
 * - `git_repos`: each repository imported (its folder, the checkpoint branch's tip read last);
 * - `git_checkpoints`: each checkpoint folder read (its git tree id, so that a later import reads
 *   only checkpoints added or changed since) and its metadata.json verbatim;
 * - `git_checkpoint_sessions`: each agent session seen in a checkpoint, its session metadata.json
 *   verbatim, and the Bonsai session it was imported as (one per agent session: its latest transcript);
 * - `git_commits` / `git_commit_checkpoints`: commits of the repository's branches whose messages
 *   carry `Entire-Checkpoint:` trailers, their subject, date and files, and the checkpoints they name.
 * A session's commits are the commits naming any checkpoint the session appears in.
 */
export const migration019GitCheckpoints: Migration = {
  version: 19,
  name: "git-checkpoints",
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS git_repos (
        id           INTEGER PRIMARY KEY,
        path         TEXT NOT NULL UNIQUE,
        branch_ref   TEXT,
        branch_tip   TEXT,
        imported_at  TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS git_checkpoints (
        repo_id        INTEGER NOT NULL REFERENCES git_repos(id) ON DELETE CASCADE,
        checkpoint_id  TEXT NOT NULL,
        tree           TEXT NOT NULL,
        metadata_json  TEXT NOT NULL,
        PRIMARY KEY (repo_id, checkpoint_id)
      );
      CREATE TABLE IF NOT EXISTS git_checkpoint_sessions (
        repo_id           INTEGER NOT NULL REFERENCES git_repos(id) ON DELETE CASCADE,
        checkpoint_id     TEXT NOT NULL,
        idx               INTEGER NOT NULL,
        agent_session_id  TEXT NOT NULL,
        session_id        TEXT,
        agent             TEXT,
        model             TEXT,
        created_at        TEXT,
        metadata_json     TEXT NOT NULL,
        PRIMARY KEY (repo_id, checkpoint_id, idx)
      );
      CREATE INDEX IF NOT EXISTS git_checkpoint_sessions_by_session ON git_checkpoint_sessions(session_id);
      CREATE INDEX IF NOT EXISTS git_checkpoint_sessions_by_agent ON git_checkpoint_sessions(repo_id, agent_session_id);
      CREATE TABLE IF NOT EXISTS git_commits (
        repo_id     INTEGER NOT NULL REFERENCES git_repos(id) ON DELETE CASCADE,
        sha         TEXT NOT NULL,
        subject     TEXT NOT NULL,
        date        TEXT NOT NULL,
        files_json  TEXT NOT NULL,
        PRIMARY KEY (repo_id, sha)
      );
      CREATE TABLE IF NOT EXISTS git_commit_checkpoints (
        repo_id        INTEGER NOT NULL REFERENCES git_repos(id) ON DELETE CASCADE,
        sha            TEXT NOT NULL,
        checkpoint_id  TEXT NOT NULL,
        PRIMARY KEY (repo_id, sha, checkpoint_id)
      );
      CREATE INDEX IF NOT EXISTS git_commit_checkpoints_by_checkpoint ON git_commit_checkpoints(repo_id, checkpoint_id);
    `);
  },
};
