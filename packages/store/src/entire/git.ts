/**
 * Git, read-only: the plumbing commands the checkpoint import runs in a user's repository, with
 * every option that could make git write something turned off (no gc or maintenance, no optional
 * locks or index refresh, no fsmonitor, no prompts, no pager). Nothing here checks out, fetches,
 * sets a ref or writes config: only rev-parse, for-each-ref, ls-tree, log, diff-tree and cat-file.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

const SAFE_CONFIG = [
  "-c", "core.fsmonitor=false",
  "-c", "core.untrackedCache=false",
  "-c", "gc.auto=0",
  "-c", "maintenance.auto=false",
  "-c", "fetch.writeCommitGraph=false",
  "-c", "core.commitGraph=true",
  "-c", "log.showSignature=false",
  "-c", "core.quotePath=false",
];

function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", PAGER: "cat", LC_ALL: "C" };
  // a caller's GIT_DIR / GIT_WORK_TREE / GIT_INDEX_FILE must not redirect the reads
  for (const k of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES"]) delete env[k];
  return env;
}

/** git failed, or the folder is not a repository: one sentence. */
export class GitReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitReadError";
  }
}

/** A repository read through git's plumbing. */
export class GitRepository {
  private constructor(
    /** the repository's folder: the top of its work tree (whichever folder of it was given), else its git directory */
    readonly path: string,
    /** the repository's git directory, absolute */
    readonly gitDir: string,
  ) {}

  /** Opens `dir` (a work tree or a bare repository); refuses anything git does not see as one. */
  static open(dir: string): GitRepository {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch {
      throw new GitReadError(`${dir}: no such folder`);
    }
    if (!fs.statSync(real).isDirectory()) throw new GitReadError(`${dir} is not a folder`);
    const r = spawnSync("git", [...SAFE_CONFIG, "-C", real, "rev-parse", "--absolute-git-dir"], { env: gitEnv(), encoding: "utf8" });
    if (r.error) throw new GitReadError(`cannot run git: ${r.error.message}`);
    if (r.status !== 0) throw new GitReadError(`${dir} is not a git repository (${firstLine(r.stderr) || "git rev-parse failed"})`);
    const gitDir = r.stdout.trim();
    // a folder inside the work tree is the repository at its top: git would read trees relative to the folder
    const top = spawnSync("git", [...SAFE_CONFIG, "-C", real, "rev-parse", "--show-toplevel"], { env: gitEnv(), encoding: "utf8" });
    const topDir = top.status === 0 ? top.stdout.trim() : "";
    return new GitRepository(topDir !== "" ? fs.realpathSync(topDir) : gitDir, gitDir);
  }

  /** Runs a read-only git command and returns its stdout (throws GitReadError with git's first line). */
  run(args: readonly string[], input?: string): Buffer {
    const r = spawnSync("git", [...SAFE_CONFIG, "-C", this.path, ...args], { env: gitEnv(), input, maxBuffer: 1 << 30 });
    if (r.error) throw new GitReadError(`cannot run git: ${r.error.message}`);
    if (r.status !== 0) throw new GitReadError(`git ${args[0]} failed in ${this.path}: ${firstLine(r.stderr.toString("utf8")) || `exit ${r.status}`}`);
    return r.stdout;
  }

  /** The commit a ref name points at, or null when there is no such ref. */
  resolveCommit(ref: string): string | null {
    const r = spawnSync("git", [...SAFE_CONFIG, "-C", this.path, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { env: gitEnv(), encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : null;
  }

  /** Full ref names matching a for-each-ref pattern. */
  refs(pattern: string): string[] {
    return this.run(["for-each-ref", "--format=%(refname)", pattern]).toString("utf8").split("\n").filter(Boolean);
  }

  /**
   * Streams blobs through one `git cat-file --batch`: `onChunk(id, chunk)` for each piece of each
   * blob in the order asked, then `onEnd(id, size)`; `onMissing(id)` for an object the repository
   * does not hold (a partial clone, a branch fetched without its blobs).
   */
  async readBlobs(ids: readonly string[], sink: BlobSink, signal?: AbortSignal): Promise<void> {
    if (ids.length === 0) return;
    const child = spawn("git", [...SAFE_CONFIG, "-C", this.path, "cat-file", "--batch"], { env: gitEnv(), stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const onAbort = (): void => void child.kill();
    signal?.addEventListener("abort", onAbort, { once: true });
    const exited = new Promise<number | null>((resolve, reject) => {
      child.once("error", (err) => reject(new GitReadError(`cannot run git: ${err.message}`)));
      child.once("close", (code) => resolve(code));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(ids.join("\n") + "\n");
    const parser = new BatchParser(ids, sink);
    try {
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        if (signal?.aborted) break;
        parser.push(chunk);
      }
      const code = await exited;
      if (signal?.aborted) throw signal.reason ?? new Error("aborted");
      if (code !== 0) throw new GitReadError(`git cat-file failed in ${this.path}: ${firstLine(stderr) || `exit ${code}`}`);
      parser.finish();
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (child.exitCode === null) child.kill();
    }
  }
}

export interface BlobSink {
  onChunk(id: string, chunk: Buffer): void;
  onEnd(id: string, size: number): void;
  onMissing(id: string): void;
}

/** Parses `git cat-file --batch` output: `<id> <type> <size>\n<bytes>\n` per object. */
class BatchParser {
  #pending = Buffer.alloc(0);
  #next = 0;
  /** the object being read and the bytes of it still due */
  #current: { id: string; size: number; left: number } | null = null;

  constructor(
    private readonly ids: readonly string[],
    private readonly sink: BlobSink,
  ) {}

  push(chunk: Buffer): void {
    let buf = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    for (;;) {
      const cur = this.#current;
      if (cur) {
        if (cur.left > 0) {
          const take = Math.min(cur.left, buf.length);
          if (take > 0) this.sink.onChunk(cur.id, buf.subarray(0, take));
          cur.left -= take;
          buf = buf.subarray(take);
        }
        if (cur.left > 0) break;
        if (buf.length === 0) break; // the newline after the object is still due
        buf = buf.subarray(1);
        this.#current = null;
        this.sink.onEnd(cur.id, cur.size);
        continue;
      }
      const nl = buf.indexOf(10);
      if (nl < 0) break;
      const header = buf.subarray(0, nl).toString("utf8");
      buf = buf.subarray(nl + 1);
      const asked = this.ids[this.#next++] ?? "";
      const parts = header.split(" ");
      if (parts[1] === "missing") {
        this.sink.onMissing(asked);
        continue;
      }
      if (parts.length !== 3) throw new GitReadError(`git cat-file answered "${header.slice(0, 80)}" for ${asked}`);
      this.#current = { id: asked, size: Number(parts[2]), left: Number(parts[2]) };
    }
    this.#pending = Buffer.from(buf);
  }

  finish(): void {
    if (this.#current || this.#next < this.ids.length) throw new GitReadError("git cat-file stopped before every object was read");
  }
}

function firstLine(text: string): string {
  return text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}
