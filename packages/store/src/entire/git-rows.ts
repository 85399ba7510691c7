/**
 * The rows of migration 019: repositories imported, their checkpoints and the agent sessions in
 * them, and the commits that name those checkpoints; read back as a session's commits and as the
 * sessions a commit sha prefix or a file leads to.
 */
import type Database from "better-sqlite3";
import type { CheckpointMetadata, SessionInCheckpoint } from "@bonsai/formats";
import type { CommitLink } from "./checkpoint-branch";

/** A commit a session produced, as `ls --json` and `context --json` carry it. */
export interface SessionCommit {
  sha: string;
  subject: string;
  date: string;
  files: string[];
}

export interface RepoRow {
  id: number;
  path: string;
  branch_ref: string | null;
  branch_tip: string | null;
}

export function repoRow(db: Database.Database, repoPath: string): RepoRow | undefined {
  return db.prepare("SELECT id, path, branch_ref, branch_tip FROM git_repos WHERE path = ?").get(repoPath) as RepoRow | undefined;
}

export function ensureRepoRow(db: Database.Database, repoPath: string, now: string): RepoRow {
  db.prepare("INSERT INTO git_repos (path, imported_at) VALUES (?, ?) ON CONFLICT(path) DO NOTHING").run(repoPath, now);
  return repoRow(db, repoPath)!;
}

export function setRepoTip(db: Database.Database, repoId: number, ref: string | null, tip: string | null, now: string): void {
  db.prepare("UPDATE git_repos SET branch_ref = ?, branch_tip = ?, imported_at = ? WHERE id = ?").run(ref, tip, now, repoId);
}

/** checkpoint id -> the tree id it was read at */
export function checkpointTrees(db: Database.Database, repoId: number): Map<string, string> {
  const rows = db.prepare("SELECT checkpoint_id, tree FROM git_checkpoints WHERE repo_id = ?").all(repoId) as { checkpoint_id: string; tree: string }[];
  return new Map(rows.map((r) => [r.checkpoint_id, r.tree]));
}

export function saveCheckpoint(db: Database.Database, repoId: number, id: string, tree: string, meta: CheckpointMetadata): void {
  db.prepare("INSERT OR REPLACE INTO git_checkpoints (repo_id, checkpoint_id, tree, metadata_json) VALUES (?, ?, ?, ?)").run(repoId, id, tree, JSON.stringify(meta.raw));
  db.prepare("DELETE FROM git_checkpoint_sessions WHERE repo_id = ? AND checkpoint_id = ?").run(repoId, id);
}

export function saveSighting(db: Database.Database, repoId: number, s: SessionInCheckpoint): void {
  db.prepare(
    `INSERT OR REPLACE INTO git_checkpoint_sessions (repo_id, checkpoint_id, idx, agent_session_id, session_id, agent, model, created_at, metadata_json)
     VALUES (?, ?, ?, ?, (SELECT session_id FROM git_checkpoint_sessions WHERE repo_id = ? AND agent_session_id = ? AND session_id IS NOT NULL LIMIT 1), ?, ?, ?, ?)`,
  ).run(repoId, s.checkpointId, s.index, s.meta.sessionId, repoId, s.meta.sessionId, s.meta.agent, s.meta.model, s.meta.createdAt, JSON.stringify(s.meta.raw));
}

/** The latest created_at stored for an agent session (null: never seen). */
export function latestSeen(db: Database.Database, repoId: number, agentSessionId: string): { checkpoint_id: string; created_at: string | null } | undefined {
  return db
    .prepare("SELECT checkpoint_id, created_at FROM git_checkpoint_sessions WHERE repo_id = ? AND agent_session_id = ? ORDER BY created_at DESC, checkpoint_id DESC LIMIT 1")
    .get(repoId, agentSessionId) as { checkpoint_id: string; created_at: string | null } | undefined;
}

/** Every sighting of the agent session now belongs to Bonsai session `sessionId`. */
export function linkAgentSession(db: Database.Database, repoId: number, agentSessionId: string, sessionId: string): void {
  db.prepare("UPDATE git_checkpoint_sessions SET session_id = ? WHERE repo_id = ? AND agent_session_id = ?").run(sessionId, repoId, agentSessionId);
}

export function knownCommits(db: Database.Database, repoId: number): Set<string> {
  return new Set((db.prepare("SELECT sha FROM git_commits WHERE repo_id = ?").all(repoId) as { sha: string }[]).map((r) => r.sha));
}

export function saveCommit(db: Database.Database, repoId: number, c: CommitLink): void {
  db.prepare("INSERT OR REPLACE INTO git_commits (repo_id, sha, subject, date, files_json) VALUES (?, ?, ?, ?, ?)").run(repoId, c.sha, c.subject, c.date, JSON.stringify(c.files));
  for (const id of c.checkpointIds) db.prepare("INSERT OR IGNORE INTO git_commit_checkpoints (repo_id, sha, checkpoint_id) VALUES (?, ?, ?)").run(repoId, c.sha, id);
}

const COMMITS_OF_SESSION = `
  SELECT DISTINCT c.sha, c.subject, c.date, c.files_json FROM git_checkpoint_sessions s
  JOIN git_commit_checkpoints l ON l.repo_id = s.repo_id AND l.checkpoint_id = s.checkpoint_id
  JOIN git_commits c ON c.repo_id = l.repo_id AND c.sha = l.sha
  WHERE s.session_id = ? ORDER BY c.date, c.sha`;

function hasTables(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'git_commits'").get() !== undefined;
}

/** The commits a session produced (oldest first); [] for sessions not from a checkpoint branch. */
export function commitsOfSession(db: Database.Database, sessionId: string): SessionCommit[] {
  if (!hasTables(db)) return [];
  const rows = db.prepare(COMMITS_OF_SESSION).all(sessionId) as { sha: string; subject: string; date: string; files_json: string }[];
  return rows.map((r) => ({ sha: r.sha, subject: r.subject, date: r.date, files: JSON.parse(r.files_json) as string[] }));
}

/** Every session's commits at once (for a list), by session id. */
export function commitsBySession(db: Database.Database): Map<string, SessionCommit[]> {
  const out = new Map<string, SessionCommit[]>();
  if (!hasTables(db)) return out;
  const rows = db
    .prepare(
      `SELECT DISTINCT s.session_id, c.sha, c.subject, c.date, c.files_json FROM git_checkpoint_sessions s
       JOIN git_commit_checkpoints l ON l.repo_id = s.repo_id AND l.checkpoint_id = s.checkpoint_id
       JOIN git_commits c ON c.repo_id = l.repo_id AND c.sha = l.sha
       WHERE s.session_id IS NOT NULL ORDER BY c.date, c.sha`,
    )
    .all() as { session_id: string; sha: string; subject: string; date: string; files_json: string }[];
  for (const r of rows) {
    const list = out.get(r.session_id) ?? [];
    list.push({ sha: r.sha, subject: r.subject, date: r.date, files: JSON.parse(r.files_json) as string[] });
    out.set(r.session_id, list);
  }
  return out;
}

/** What led from a query to a session: a commit (by sha prefix) or a file one of its commits touched. */
export interface CommitMatch {
  sessionId: string;
  commit: SessionCommit;
  /** set when the match is by file */
  file?: string;
}

/**
 * Sessions found by a commit sha prefix (4+ hex characters) or by a file path one of their commits
 * changed (the whole path, or its end after a "/").
 */
export function sessionsByCommitOrFile(db: Database.Database, query: string): CommitMatch[] {
  const q = query.trim();
  if (q === "") return [];
  const out: CommitMatch[] = [];
  for (const [sessionId, commits] of commitsBySession(db)) {
    for (const commit of commits) {
      if (/^[0-9a-f]{4,64}$/i.test(q) && commit.sha.startsWith(q.toLowerCase())) {
        out.push({ sessionId, commit });
        continue;
      }
      const file = commit.files.find((f) => f === q || f.endsWith(`/${q}`));
      if (file) out.push({ sessionId, commit, file });
    }
  }
  return out;
}
