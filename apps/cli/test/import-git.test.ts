/**
 * `bonsai import --git REPO` in the built CLI, on a repository built with git (testkit
 * entire-repo.ts) holding real pi, Claude Code and Codex transcripts: what it says, then `ls
 * --json`, `context --json` and `search` by a commit sha prefix and by a file, against the database.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EntireRepo } from "@bonsai/testkit/entire-repo";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const REAL = path.resolve(root, "../shared/fixtures/real");
const PI = path.join(REAL, "pi", "raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl");
const CLAUDE = path.join(REAL, "claude-code", "entireio__external-agents__01_8c2b5cd218_0_full.jsonl");
const CODEX = path.join(REAL, "codex", "iampkuhz__feipi-session-browser__rollout-2026-06-19T12-32-38-019ede26-ff03-7a82-bb34-cfab716a498a.jsonl");
const HAVE = [PI, CLAUDE, CODEX].every((f) => fs.existsSync(f));

let dir = "";
let data = "";
let repo: EntireRepo;
let shas: { one: string; two: string };

function run(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir, env: { ...process.env, BONSAI_DEBUG: "", HOME: dir } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!HAVE) return;
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-import-git-"));
  data = path.join(dir, "data");
  repo = EntireRepo.create(dir);
  repo.addCheckpoint("aa11bb22cc33", [
    { sessionId: "pi-1", agent: "Pi", createdAt: "2026-04-26T10:00:00Z", transcript: fs.readFileSync(PI) },
    { sessionId: "cc-1", agent: "Claude Code", createdAt: "2026-04-26T10:00:01Z", transcript: fs.readFileSync(CLAUDE) },
  ]);
  const one = repo.commitCode("lib/one.go", "package lib\n", "Add one", ["aa11bb22cc33"]);
  repo.addCheckpoint("dd44ee55ff66", [{ sessionId: "codex-1", agent: "Codex", createdAt: "2026-04-26T11:00:00Z", transcript: fs.readFileSync(CODEX) }]);
  const two = repo.commitCode("lib/two.go", "package lib\n", "Add two", ["dd44ee55ff66"]);
  shas = { one, two };
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE)("bonsai import --git", () => {
  it("imports the checkpoint branch, says how many checkpoints it read, and again only the new ones", () => {
    const first = run("import", "--git", repo.dir, "--data-dir", data);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^imported {3}aa\/11bb22cc33\/0\/full\.jsonl \(Pi pi-1\) -> /m);
    expect(first.stdout).toMatch(/: 2 checkpoints read; sessions: 3 imported; 2 commits newly linked\n$/);
    const again = run("import", "--git", repo.dir, "--data-dir", data);
    expect(again.stdout).toMatch(/: 0 new or changed checkpoints read \(of 2\); sessions: no new sessions; 0 commits newly linked\n$/);
    const json = JSON.parse(run("import", "--git", repo.dir, "--data-dir", data, "--json").stdout) as { checkpointsRead: number; checkpointsTotal: number };
    expect([json.checkpointsRead, json.checkpointsTotal]).toEqual([0, 2]);
  });

  it("ls --json and context --json carry each session's commits; search finds a session by a sha prefix or a file", () => {
    const sessions = JSON.parse(run("ls", "--json", "--data-dir", data).stdout) as { id: string; agent: string; commits: { sha: string; subject: string; date: string; files: string[] }[] }[];
    const commitsOf = (agent: string) => sessions.find((s) => s.agent === agent)!.commits;
    expect(commitsOf("pi").map((c) => [c.sha, c.subject, c.files])).toEqual([[shas.one, "Add one", ["lib/one.go"]]]);
    expect(commitsOf("claude-code").map((c) => c.sha)).toEqual([shas.one]);
    expect(commitsOf("codex").map((c) => [c.sha, c.subject, c.files])).toEqual([[shas.two, "Add two", ["lib/two.go"]]]);
    expect(commitsOf("codex")[0]!.date).toMatch(/^\d{4}-\d\d-\d\dT/);
    const text = run("ls", "--data-dir", data).stdout;
    expect(text).toContain(`produced 1 commit:\n`);
    expect(text).toContain(`${shas.two.slice(0, 10)} `);

    const codex = sessions.find((s) => s.agent === "codex")!;
    const context = JSON.parse(run("context", codex.id, "--json", "--data-dir", data).stdout) as { commits: { sha: string }[] };
    expect(context.commits.map((c) => c.sha)).toEqual([shas.two]);
    const pi = sessions.find((s) => s.agent === "pi")!;
    const piContext = JSON.parse(run("context", pi.id, "--json", "--data-dir", data).stdout) as { commits: { sha: string; files: string[] }[] };
    expect(piContext.commits.map((c) => [c.sha, c.files])).toEqual([[shas.one, ["lib/one.go"]]]);

    const bySha = JSON.parse(run("search", shas.two.slice(0, 8), "--json", "--data-dir", data).stdout) as { sessionId: string; type: string; entryId: string }[];
    expect(bySha.filter((h) => h.type === "commit").map((h) => [h.sessionId, h.entryId])).toEqual([[codex.id, shas.two]]);
    const byFile = JSON.parse(run("search", "lib/one.go", "--json", "--data-dir", data).stdout) as { sessionId: string; type: string; file?: string }[];
    expect(new Set(byFile.filter((h) => h.type === "commit").map((h) => h.sessionId))).toEqual(new Set(sessions.filter((s) => s.agent !== "codex").map((s) => s.id)));
  });

  it("refuses a folder that is no repository, or has no checkpoint branch, in one line", () => {
    const plain = path.join(dir, "plain");
    fs.mkdirSync(plain);
    const r = run("import", "--git", plain, "--data-dir", data);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/is not a git repository/);
    const empty = EntireRepo.create(path.join(dir, "empty"));
    const e = run("import", "--git", empty.dir, "--data-dir", data);
    expect(e.code).not.toBe(0);
    expect(e.stderr).toMatch(/has no entire\/checkpoints\/v1 branch/);
  });
});
