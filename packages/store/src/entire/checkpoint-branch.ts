/**
 * What the checkpoint import reads of a repository through git (git.ts): the checkpoint branch's
 * ref and tree, small blobs as text, and the commits of the branches that carry
 * `Entire-Checkpoint:` trailers with their files. Reading only: see git.ts.
 */
import { CHECKPOINT_BRANCH, CHECKPOINT_REFS, checkpointFolderOfRef, checkpointIdsOfTrailers, type CheckpointFolder } from "@bonsai/formats";
import { GitRepository } from "./git";

/** The checkpoint branch: the local one, else a remote-tracking one (a fresh clone has only that). */
export function findCheckpointRef(repo: GitRepository): { ref: string; tip: string } | null {
  const local = `refs/heads/${CHECKPOINT_BRANCH}`;
  const tip = repo.resolveCommit(local);
  if (tip) return { ref: local, tip };
  for (const ref of repo.refs("refs/remotes/")) {
    if (!ref.endsWith(`/${CHECKPOINT_BRANCH}`)) continue;
    const t = repo.resolveCommit(ref);
    if (t) return { ref, tip: t };
  }
  return null;
}

/** A checkpoint on a ref of its own (Entire 0.10): its folder (path, root tree) and the ref's commit. */
export interface CheckpointRef {
  ref: string;
  commit: string;
  folder: CheckpointFolder;
}

/** The per-checkpoint refs (`refs/entire/checkpoints/<xx>/<ULID>`), one for-each-ref run. */
export function findCheckpointRefs(repo: GitRepository): CheckpointRef[] {
  const out: CheckpointRef[] = [];
  const listed = repo.run(["for-each-ref", "--format=%(refname) %(objectname) %(tree)", CHECKPOINT_REFS]).toString("utf8");
  for (const line of listed.split("\n")) {
    const [ref, commit, tree] = line.split(" ");
    if (!ref || !commit || !tree) continue;
    const folder = checkpointFolderOfRef(ref, tree);
    if (folder) out.push({ ref, commit, folder });
  }
  return out;
}

/** Whether the folder is a git repository with Entire checkpoints, on the branch or on refs of their own (false for anything else). */
export function hasCheckpointBranch(dir: string): boolean {
  try {
    const repo = GitRepository.open(dir);
    return findCheckpointRef(repo) !== null || findCheckpointRefs(repo).length > 0;
  } catch {
    return false;
  }
}

export interface BranchTree {
  /** folder path -> tree id */
  trees: Map<string, string>;
  /** file path -> blob id */
  blobs: Map<string, string>;
}

/** Every folder and file of the commit's tree (`git ls-tree -r -t -z`). */
export function readBranchTree(repo: GitRepository, commit: string): BranchTree {
  const out = repo.run(["ls-tree", "-r", "-t", "-z", commit]).toString("utf8");
  const trees = new Map<string, string>();
  const blobs = new Map<string, string>();
  for (const rec of out.split("\0")) {
    if (rec === "") continue;
    const tab = rec.indexOf("\t");
    const [, type, id] = rec.slice(0, tab).split(" ");
    const p = rec.slice(tab + 1);
    if (type === "tree") trees.set(p, id!);
    else if (type === "blob") blobs.set(p, id!);
  }
  return { trees, blobs };
}

/** Adds the files of per-checkpoint refs to a tree, under their folders' paths (`ls-tree -r` of each). */
export function addCheckpointRefFiles(repo: GitRepository, tree: BranchTree, refs: readonly CheckpointRef[]): void {
  for (const r of refs) {
    const listed = readBranchTree(repo, r.commit);
    tree.trees.set(r.folder.path, r.folder.tree);
    for (const [p, id] of listed.trees) tree.trees.set(`${r.folder.path}/${p}`, id);
    for (const [p, id] of listed.blobs) tree.blobs.set(`${r.folder.path}/${p}`, id);
  }
}

/** Small blobs (metadata.json files) as text, by blob id; those the repository lacks are absent. */
export async function readTextBlobs(repo: GitRepository, ids: readonly string[], signal?: AbortSignal): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const parts = new Map<string, Buffer[]>();
  const out = new Map<string, string>();
  await repo.readBlobs(
    unique,
    {
      onChunk: (id, chunk) => {
        const list = parts.get(id) ?? [];
        list.push(Buffer.from(chunk));
        parts.set(id, list);
      },
      onEnd: (id) => {
        out.set(id, Buffer.concat(parts.get(id) ?? []).toString("utf8"));
        parts.delete(id);
      },
      onMissing: () => undefined,
    },
    signal,
  );
  return out;
}

export interface CommitLink {
  sha: string;
  subject: string;
  /** committer date, ISO 8601 */
  date: string;
  checkpointIds: string[];
  /** files the commit changed (against its first parent) */
  files: string[];
}

const SEP = "\x1f";
const END = "\x1e";

/**
 * Commits of the repository's branches (local and remote-tracking) naming checkpoints in
 * `Entire-Checkpoint:` trailers, except those in `known` (read before); files for the new ones only.
 */
export function readCommitLinks(repo: GitRepository, known: ReadonlySet<string>): CommitLink[] {
  const format = `%H${SEP}%cI${SEP}%s${SEP}%(trailers:key=Entire-Checkpoint,valueonly,separator=%x2c)${END}`;
  const out = repo.run(["log", "--branches", "--remotes", "--no-color", `--format=${format}`]).toString("utf8");
  const links: CommitLink[] = [];
  for (const rec of out.split(END)) {
    const [sha, date, subject, trailers] = rec.replace(/^\n/, "").split(SEP);
    if (!sha || trailers === undefined || known.has(sha)) continue;
    const checkpointIds = checkpointIdsOfTrailers(trailers.replace(/\n/g, ","));
    if (checkpointIds.length > 0) links.push({ sha, date: date ?? "", subject: subject ?? "", checkpointIds, files: [] });
  }
  if (links.length === 0) return links;
  const filesOf = new Map(links.map((l) => [l.sha, l.files]));
  const diff = repo.run(["diff-tree", "--stdin", "-r", "--root", "--no-renames", "--name-only", "-z"], links.map((l) => l.sha).join("\n") + "\n").toString("utf8");
  let current: string[] | undefined;
  for (const token of diff.split("\0")) {
    if (token === "") continue;
    const commit = /^[0-9a-f]{40,64}$/.test(token) ? filesOf.get(token) : undefined;
    if (commit) current = commit;
    else current?.push(token);
  }
  return links;
}
