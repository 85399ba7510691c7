/**
 * `bonsai import --git REPO`: the sessions of a repository's Entire checkpoint branch, read through
 * git's plumbing without touching the repository (git.ts), imported by the store's own import (the
 * format detected from the content, as for any file), and linked to the commits that name their
 * checkpoints. Each agent session is one Bonsai session whose source is a copy of its latest
 * transcript under the data folder (source/owned-copy.ts); a later checkpoint of it appends to
 * that copy. An import reads only the checkpoints added or changed since the last one (their git
 * tree ids are kept); the rows are saved after the sessions are imported, so an interrupted import
 * reads the same checkpoints again next time.
 */
import crypto from "node:crypto";
import path from "node:path";
import fs from "node:fs";
import {
  CHECKPOINT_BRANCH,
  CHECKPOINT_REFS,
  checkpointFolders,
  isLater,
  latestBySession,
  parseCheckpointMetadata,
  parseSessionMetadata,
  sessionIndexOf,
  sessionRefsOf,
  type CheckpointFolder,
  type CheckpointMetadata,
  type SessionInCheckpoint,
} from "@bonsai/formats";
import type Database from "better-sqlite3";
import type { ImportOptions, ImportReport } from "../session-store";
import { writeOwnedCopy, type CopyChange } from "../source/owned-copy";
import { addCheckpointRefFiles, findCheckpointRef, findCheckpointRefs, readBranchTree, readCommitLinks, readTextBlobs, type BranchTree } from "./checkpoint-branch";
import { GitReadError, GitRepository } from "./git";
import * as rows from "./git-rows";

export interface GitImportProgress {
  phase: "metadata" | "transcripts" | "commits";
  done: number;
  total: number;
}

/**
 * Where the transcripts go: the store's connection (for the checkpoint and commit rows) and its
 * import of one file (SqliteSessionStore itself, or a host's store worker: `jobs.call("importFile")`).
 */
export interface GitImportTarget {
  readonly db: Database.Database;
  importFile(file: string, options?: ImportOptions): Promise<ImportReport>;
}

export interface GitImportOptions {
  /** where the transcript copies go (default: the database's folder) */
  dataDir?: string;
  signal?: AbortSignal;
  onProgress?: (p: GitImportProgress) => void;
}

/** One agent session whose transcript this import brought in. */
export interface GitSessionImport {
  agentSessionId: string;
  /** the agent named by the checkpoint's metadata ("Claude Code", "Codex", "Pi", …) */
  agent: string | null;
  checkpointId: string;
  /** the transcript's path in the branch */
  transcript: string;
  copy: CopyChange;
  report: ImportReport;
}

export interface GitImportResult {
  repository: string;
  branchRef: string;
  tip: string;
  /** checkpoints in the branch */
  checkpointsTotal: number;
  /** checkpoints read by this import (added or changed since the last one) */
  checkpointsRead: number;
  sessions: GitSessionImport[];
  /** checkpoints or sessions whose metadata could not be read: what and why */
  skipped: { path: string; reason: string }[];
  /** commits newly linked to checkpoints by their trailers */
  commitsLinked: number;
  aborted: boolean;
}

/** The checkpoint whose folder holds a path (`01/8c2b5cd218/0/full.jsonl` -> `018c2b5cd218`). */
function idOfPath(folders: readonly CheckpointFolder[], p: string): string {
  return folders.find((f) => p.startsWith(`${f.path}/`))?.id ?? p;
}

/** The folder of a repository's transcript copies: readable, and unique per repository path. */
export function copyFolderOf(dataDir: string, repoPath: string): string {
  const hash = crypto.createHash("sha256").update(repoPath).digest("hex").slice(0, 12);
  const name = path.basename(repoPath).replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "") || "repository";
  return path.join(dataDir, "git-checkpoints", `${name}-${hash}`);
}

function copyFileOf(folder: string, agentSessionId: string): string {
  const safe = /^[A-Za-z0-9._-]{1,120}$/.test(agentSessionId) && !agentSessionId.startsWith(".") ? agentSessionId : crypto.createHash("sha256").update(agentSessionId).digest("hex").slice(0, 32);
  return path.join(folder, `${safe}.jsonl`);
}

export async function importGitRepository(store: GitImportTarget, repoPath: string, options: GitImportOptions = {}): Promise<GitImportResult> {
  const repo = GitRepository.open(repoPath);
  const found = findCheckpointRef(repo);
  // Entire 0.10 keeps each checkpoint on a ref of its own; a repository may have both
  const perRef = findCheckpointRefs(repo);
  if (!found && perRef.length === 0) throw new GitReadError(`${repoPath} has no ${CHECKPOINT_BRANCH} branch and no ${CHECKPOINT_REFS} refs (where Entire keeps its checkpoints; a clone fetches those refs with: git fetch origin 'refs/entire/*:refs/entire/*')`);
  const dataDir = options.dataDir ?? (store.db.name === ":memory:" ? null : path.dirname(path.resolve(store.db.name)));
  if (!dataDir) throw new Error("importGitRepository: a store in memory needs options.dataDir");
  const db = store.db;
  const repoId = rows.ensureRepoRow(db, repo.path, new Date().toISOString()).id;
  const tree: BranchTree = found ? readBranchTree(repo, found.tip) : { trees: new Map(), blobs: new Map() };
  const onBranch = checkpointFolders(tree.trees);
  const folders = [...onBranch, ...perRef.filter((r) => !onBranch.some((f) => f.id === r.folder.id)).map((r) => r.folder)];
  const stored = rows.checkpointTrees(db, repoId);
  const fresh = folders.filter((f) => stored.get(f.id) !== f.tree);
  addCheckpointRefFiles(repo, tree, perRef.filter((r) => fresh.includes(r.folder)));
  const branchRef = [found?.ref, perRef.length > 0 ? `${CHECKPOINT_REFS}* (${perRef.length} refs)` : undefined].filter((r) => r !== undefined).join(" + ");
  const result: GitImportResult = { repository: repo.path, branchRef, tip: found?.tip ?? "", checkpointsTotal: folders.length, checkpointsRead: fresh.length, sessions: [], skipped: [], commitsLinked: 0, aborted: false };

  options.onProgress?.({ phase: "metadata", done: 0, total: fresh.length });
  // checkpoints with a file the repository lacks are read again next time
  const unread = new Set<string>();
  let read: ReadCheckpoints;
  try {
    read = await readCheckpoints(repo, tree, fresh, result.skipped, options.signal);
    for (const k of result.skipped) if (k.reason === MISSING) unread.add(idOfPath(folders, k.path));
    const due = transcriptsDue(db, repoId, read.sightings);
    await importTranscripts(store, repo, copyFolderOf(dataDir, repo.path), due, result, unread, options);
  } catch (err) {
    if (!options.signal?.aborted) throw err;
    // stopped: nothing of the checkpoints is saved, so the next import reads them again
    return { ...result, aborted: true };
  }
  const done = read;

  options.onProgress?.({ phase: "commits", done: 0, total: 1 });
  const commits = readCommitLinks(repo, rows.knownCommits(db, repoId));
  db.transaction(() => {
    for (const c of done.checkpoints) if (!unread.has(c.folder.id)) rows.saveCheckpoint(db, repoId, c.folder.id, c.folder.tree, c.meta);
    for (const s of done.sightings) if (!unread.has(s.checkpointId)) rows.saveSighting(db, repoId, s);
    for (const s of result.sessions) if (s.report.sessionId) rows.linkAgentSession(db, repoId, s.agentSessionId, s.report.sessionId);
    for (const c of commits) rows.saveCommit(db, repoId, c);
    rows.setRepoTip(db, repoId, branchRef, found?.tip ?? null, new Date().toISOString());
  })();
  result.commitsLinked = commits.length;
  options.onProgress?.({ phase: "commits", done: 1, total: 1 });
  return result;
}

const MISSING = "missing from the repository (fetch the branch with its files to import it)";

interface ReadCheckpoints {
  checkpoints: { folder: CheckpointFolder; meta: CheckpointMetadata }[];
  sightings: SessionInCheckpoint[];
}

/** The metadata of the fresh checkpoints and of their sessions (two cat-file runs). */
async function readCheckpoints(repo: GitRepository, tree: BranchTree, fresh: readonly CheckpointFolder[], skipped: GitImportResult["skipped"], signal?: AbortSignal): Promise<ReadCheckpoints> {
  const metaBlob = (p: string): string | undefined => tree.blobs.get(p);
  const texts = await readTextBlobs(repo, fresh.map((f) => metaBlob(`${f.path}/metadata.json`)).filter((b): b is string => b !== undefined), signal);
  const checkpoints: ReadCheckpoints["checkpoints"] = [];
  const refs: { folder: CheckpointFolder; metadata: string; transcript: string }[] = [];
  for (const folder of fresh) {
    const blob = metaBlob(`${folder.path}/metadata.json`);
    if (!blob) {
      skipped.push({ path: folder.path, reason: "no metadata.json" });
      continue;
    }
    const text = texts.get(blob);
    if (text === undefined) {
      skipped.push({ path: `${folder.path}/metadata.json`, reason: MISSING });
      continue;
    }
    try {
      const meta = parseCheckpointMetadata(text, folder);
      checkpoints.push({ folder, meta });
      for (const s of sessionRefsOf(meta, folder, tree.blobs)) refs.push({ folder, metadata: s.metadata, transcript: s.transcript });
    } catch (err) {
      skipped.push({ path: `${folder.path}/metadata.json`, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  const sessionTexts = await readTextBlobs(repo, refs.map((r) => metaBlob(r.metadata)).filter((b): b is string => b !== undefined), signal);
  const sightings: SessionInCheckpoint[] = [];
  for (const r of refs) {
    const metaId = metaBlob(r.metadata);
    const transcriptBlob = metaBlob(r.transcript);
    if (!metaId || !transcriptBlob) {
      skipped.push({ path: r.transcript, reason: metaId ? "the transcript is not in the branch" : "the session's metadata.json is not in the branch" });
      continue;
    }
    const text = sessionTexts.get(metaId);
    if (text === undefined) {
      skipped.push({ path: r.metadata, reason: MISSING });
      continue;
    }
    try {
      const meta = parseSessionMetadata(text, r.metadata);
      sightings.push({ checkpointId: r.folder.id, index: sessionIndexOf(r.metadata), meta, transcriptBlob, transcriptPath: r.transcript });
    } catch (err) {
      skipped.push({ path: r.metadata, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return { checkpoints, sightings };
}

/** The latest sighting of each agent session seen, unless an import before saw a later one. */
function transcriptsDue(db: Database.Database, repoId: number, sightings: readonly SessionInCheckpoint[]): SessionInCheckpoint[] {
  const due: SessionInCheckpoint[] = [];
  for (const s of latestBySession(sightings).values()) {
    const before = rows.latestSeen(db, repoId, s.meta.sessionId);
    if (before && before.checkpoint_id !== s.checkpointId) {
      const was: SessionInCheckpoint = { checkpointId: before.checkpoint_id, index: 0, meta: { ...s.meta, createdAt: before.created_at }, transcriptBlob: "", transcriptPath: "" };
      if (isLater(was, s)) continue;
    }
    due.push(s);
  }
  return due.sort((a, b) => a.meta.sessionId.localeCompare(b.meta.sessionId));
}

/** Streams the due transcripts into their copies (one cat-file run), then imports each copy. */
async function importTranscripts(store: GitImportTarget, repo: GitRepository, folder: string, due: readonly SessionInCheckpoint[], result: GitImportResult, unread: Set<string>, options: GitImportOptions): Promise<void> {
  const byBlob = new Map<string, SessionInCheckpoint[]>();
  for (const s of due) byBlob.set(s.transcriptBlob, [...(byBlob.get(s.transcriptBlob) ?? []), s]);
  const written: { s: SessionInCheckpoint; file: string; copy: CopyChange }[] = [];
  let parts: Buffer[] = [];
  let done = 0;
  const total = due.length;
  options.onProgress?.({ phase: "transcripts", done, total });
  await repo.readBlobs(
    [...byBlob.keys()],
    {
      onChunk: (_id, chunk) => parts.push(Buffer.from(chunk)),
      onEnd: (id) => {
        const bytes = Buffer.concat(parts);
        parts = [];
        for (const s of byBlob.get(id) ?? []) {
          const file = copyFileOf(folder, s.meta.sessionId);
          written.push({ s, file, copy: writeOwnedCopy(file, bytes) });
        }
      },
      onMissing: (id) => {
        for (const s of byBlob.get(id) ?? []) {
          result.skipped.push({ path: s.transcriptPath, reason: MISSING });
          unread.add(s.checkpointId);
        }
      },
    },
    options.signal,
  );
  for (const w of written) {
    const report = await store.importFile(w.file, { signal: options.signal });
    // a transcript of an agent Bonsai does not read leaves no copy behind
    if (report.status === "not-a-session") fs.rmSync(w.file, { force: true });
    result.sessions.push({ agentSessionId: w.s.meta.sessionId, agent: w.s.meta.agent, checkpointId: w.s.checkpointId, transcript: w.s.transcriptPath, copy: w.copy, report });
    options.onProgress?.({ phase: "transcripts", done: ++done, total });
  }
}
