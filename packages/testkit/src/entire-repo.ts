/**
 * Test and bench support: a git repository built with `git` itself, holding code commits with
 * `Entire-Checkpoint:` trailers and an `entire/checkpoints/v1` branch in Entire's layout (one folder
 * per checkpoint sharded by the first two characters of its id, a metadata.json listing its
 * sessions, a folder per session with metadata.json, full.jsonl, prompt.txt, content_hash.txt), or
 * checkpoints on refs of their own as Entire 0.10 keeps them (addCheckpointRef).
 * Transcripts are given as bytes (tests read them from the shared fixtures at run time).
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface CheckpointSession {
  sessionId: string;
  agent: string;
  model?: string;
  createdAt: string;
  transcript: Buffer;
  filesTouched?: string[];
  prompt?: string;
}

const IDENT = {
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.invalid",
  GIT_COMMITTER_NAME: "Test Author",
  GIT_COMMITTER_EMAIL: "author@example.invalid",
};

export class EntireRepo {
  /** the checkpoint branch's files, as Entire lays them out (path -> bytes) */
  readonly #files = new Map<string, Buffer>();
  /** path -> blob id of the files already written to the object store */
  readonly #blobs = new Map<string, string>();
  #clock = Date.parse("2026-03-01T10:00:00Z");

  constructor(readonly dir: string) {}

  /** `git init` of a work tree with one first commit on main. */
  static create(parent = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-entire-"))): EntireRepo {
    const repo = new EntireRepo(path.join(parent, "repo"));
    fs.mkdirSync(repo.dir, { recursive: true });
    repo.git(["init", "-q", "-b", "main"]);
    repo.commitCode("README.md", "# project\n", "Initial commit");
    return repo;
  }

  git(args: readonly string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): string {
    const date = new Date((this.#clock += 60_000)).toISOString();
    return execFileSync("git", ["-C", this.dir, ...args], {
      input: options.input,
      env: { ...process.env, ...IDENT, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, ...options.env },
      maxBuffer: 1 << 30,
    }).toString("utf8");
  }

  /** A code commit on the current branch changing `file`; `trailers` are checkpoint ids. */
  commitCode(file: string, content: string, subject: string, checkpointIds: readonly string[] = []): string {
    const full = path.join(this.dir, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
    this.git(["add", "--", file]);
    const message = checkpointIds.length > 0 ? `${subject}\n\nBody of the change.\n\n${checkpointIds.map((id) => `Entire-Checkpoint: ${id}`).join("\n")}\n` : `${subject}\n`;
    this.git(["commit", "-q", "-F", "-"], { input: message });
    return this.git(["rev-parse", "HEAD"]).trim();
  }

  /**
   * A checkpoint committed to entire/checkpoints/v1 (created on first use), without touching the
   * work tree or HEAD: the tree is built with a private index file.
   */
  addCheckpoint(id: string, sessions: readonly CheckpointSession[], branch = "main"): string {
    return this.addCheckpointAt(id, sessions.map((s, index) => ({ index, s })), branch);
  }

  /** addCheckpoint with each session's folder number given (a real checkpoint's `0/`, `2/`). */
  addCheckpointAt(id: string, placed: readonly { index: number; s: CheckpointSession }[], branch = "main"): string {
    this.#layOut(id, placed, branch);
    const first = placed[0]?.s;
    return this.#commitBranch(`Checkpoint: ${id}\n\nEntire-Session: ${first?.sessionId ?? ""}\nEntire-Agent: ${first?.agent ?? ""}\n`);
  }

  /** Many checkpoints in one commit of the branch (a bench's 500 without 500 commits). */
  addCheckpoints(list: readonly { id: string; sessions: readonly CheckpointSession[] }[], branch = "main"): string {
    for (const c of list) this.#layOut(c.id, c.sessions.map((s, index) => ({ index, s })), branch);
    return this.#commitBranch(`Checkpoints: ${list.length}\n`);
  }

  /** The checkpoint's files in Entire's layout, added to the branch's files. */
  #layOut(id: string, placed: readonly { index: number; s: CheckpointSession }[], branch: string): void {
    const base = `${id.slice(0, 2)}/${id.slice(2)}`;
    for (const [p, bytes] of checkpointFiles(id, placed, branch, "0.5.0", `/${base}/`)) this.#put(`${base}/${p}`, bytes);
  }

  /**
   * A checkpoint as Entire 0.10 keeps it: a ref of its own, `refs/entire/checkpoints/<last two
   * characters>/<ULID>`, whose commit's tree is the checkpoint folder (session paths relative to it).
   */
  addCheckpointRef(ulid: string, sessions: readonly CheckpointSession[], branch = "main"): string {
    const files = checkpointFiles(ulid, sessions.map((s, index) => ({ index, s })), branch, "0.10.0", "/");
    const scratch = fs.mkdtempSync(path.join(path.dirname(this.dir), "ref-"));
    const env = { GIT_INDEX_FILE: path.join(scratch, "index") };
    try {
      const entries = [...files];
      const paths = entries.map(([, bytes], i) => {
        const f = path.join(scratch, String(i));
        fs.writeFileSync(f, bytes);
        return f;
      });
      const ids = this.git(["hash-object", "-w", "--no-filters", "--stdin-paths"], { input: paths.join("\n") + "\n" }).trim().split("\n");
      this.git(["update-index", "--add", "--index-info"], { input: entries.map(([p], i) => `100644 ${ids[i]!} 0\t${p}`).join("\n") + "\n", env });
      const tree = this.git(["write-tree"], { env }).trim();
      const commit = this.git(["commit-tree", tree, "-F", "-"], { input: `Finalize transcript for Checkpoint: ${ulid}\n` }).trim();
      this.git(["update-ref", `refs/entire/checkpoints/${ulid.slice(-2)}/${ulid}`, commit]);
      return commit;
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }

  #put(p: string, bytes: Buffer): void {
    this.#files.set(p, bytes);
    this.#blobs.delete(p);
  }

  /**
   * Commits the branch's files on top of the branch: new blobs written with one `hash-object -w
   * --stdin-paths`, the tree with a private index file (the work tree, HEAD and index untouched).
   */
  #commitBranch(message: string): string {
    const scratch = fs.mkdtempSync(path.join(path.dirname(this.dir), "blobs-"));
    const index = path.join(scratch, "index");
    const env = { GIT_INDEX_FILE: index };
    try {
      const fresh = [...this.#files].filter(([p]) => !this.#blobs.has(p));
      const paths = fresh.map(([, bytes], i) => {
        const f = path.join(scratch, String(i));
        fs.writeFileSync(f, bytes);
        return f;
      });
      if (paths.length > 0) {
        const ids = this.git(["hash-object", "-w", "--no-filters", "--stdin-paths"], { input: paths.join("\n") + "\n" }).trim().split("\n");
        fresh.forEach(([p], i) => this.#blobs.set(p, ids[i]!));
      }
      const lines = [...this.#files.keys()].map((p) => `100644 ${this.#blobs.get(p)!} 0\t${p}`);
      this.git(["update-index", "--index-info"], { input: lines.join("\n") + "\n", env });
      const tree = this.git(["write-tree"], { env }).trim();
      const ref = "refs/heads/entire/checkpoints/v1";
      let parent: string | null = null;
      try {
        parent = this.git(["rev-parse", "--verify", "--quiet", ref]).trim() || null;
      } catch {
        parent = null;
      }
      const commit = this.git(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-F", "-"], { input: message }).trim();
      this.git(["update-ref", ref, commit]);
      return commit;
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }

  /**
   * Everything a reader could have changed: `git status --porcelain`, every ref, the reflogs, and a
   * hash of every file under .git (name, mode and bytes).
   */
  snapshot(): { status: string; refs: string; reflog: string; gitFiles: string } {
    const env = { GIT_OPTIONAL_LOCKS: "0" };
    const status = this.git(["status", "--porcelain", "--untracked-files=all"], { env });
    const refs = this.git(["for-each-ref", "--format=%(refname) %(objectname)"], { env });
    const reflog = this.git(["log", "-g", "--all", "--format=%H %gD %gs"], { env });
    const hash = crypto.createHash("sha256");
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        const p = path.join(d, e.name);
        const st = fs.lstatSync(p);
        hash.update(`${path.relative(this.dir, p)}\0${st.mode}\0`);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) hash.update(fs.readFileSync(p));
      }
    };
    walk(path.join(this.dir, ".git"));
    return { status, refs, reflog, gitFiles: hash.digest("hex") };
  }
}

/** A checkpoint folder's files (path in the folder -> bytes); the metadata lists session paths under `listed`. */
function checkpointFiles(id: string, placed: readonly { index: number; s: CheckpointSession }[], branch: string, cliVersion: string, listed: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const refs = placed.map(({ index, s }) => {
    const dir = String(index);
    const hash = crypto.createHash("sha256").update(s.transcript).digest("hex");
    out.set(`${dir}/full.jsonl`, s.transcript);
    out.set(`${dir}/content_hash.txt`, Buffer.from(`sha256:${hash}`));
    if (s.prompt !== undefined) out.set(`${dir}/prompt.txt`, Buffer.from(s.prompt));
    const meta = {
      cli_version: cliVersion,
      checkpoint_id: id,
      session_id: s.sessionId,
      strategy: "manual-commit",
      created_at: s.createdAt,
      branch,
      checkpoints_count: 1,
      files_touched: s.filesTouched ?? [],
      agent: s.agent,
      ...(s.model ? { model: s.model } : {}),
      token_usage: { input_tokens: 10, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 5, api_call_count: 1 },
    };
    out.set(`${dir}/metadata.json`, Buffer.from(JSON.stringify(meta, null, 2)));
    const at = `${listed}${dir}`;
    return { metadata: `${at}/metadata.json`, transcript: `${at}/full.jsonl`, content_hash: `${at}/content_hash.txt`, prompt: s.prompt !== undefined ? `${at}/prompt.txt` : "" };
  });
  const files = [...new Set(placed.flatMap((p) => p.s.filesTouched ?? []))];
  out.set("metadata.json", Buffer.from(JSON.stringify({ cli_version: cliVersion, checkpoint_id: id, strategy: "manual-commit", branch, checkpoints_count: 1, files_touched: files, sessions: refs, token_usage: { input_tokens: 10 } }, null, 2)));
  return out;
}
