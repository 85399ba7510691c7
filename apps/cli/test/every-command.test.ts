/**
 * Every `bonsai` command (apps/cli/src/commands) through the built bin with `--data-dir`, against a
 * data folder that already holds imported sessions of pi, Claude Code and Codex (copies of
 * ../shared/fixtures/real files in a temporary folder: the writing commands write the copies).
 * Each exits 0 with the output it promises, or with a documented one-line refusal (Claude Code and
 * Codex sessions are read-only). `prompt` talks to the testkit's OpenAI-compatible server. Run
 * `node scripts/build.mjs cli` first (`pnpm test` does).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/commands/index";
import { realSession, REAL_SESSIONS } from "./real-sessions";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const FIXTURES = {
  pi: REAL_SESSIONS.pi.find((f) => f.startsWith("codyborders__yinshi__34_")),
  "claude-code": REAL_SESSIONS["claude-code"].find((f) => f.startsWith("entireio__external-agents__01_")),
  codex: REAL_SESSIONS.codex.find((f) => f.startsWith("iampkuhz__feipi-session-browser__rollout")),
} as const;
type Agent = keyof typeof FIXTURES;
const SKIP = Object.values(FIXTURES).every((f) => f !== undefined) ? "" : "the real pi, Claude Code and Codex fixtures are not here: skipped";

let dir = "";
let data = "";
let server: MockOpenAiServer;
const ids = {} as Record<Agent, string>;
const files = {} as Record<Agent, string>;
const covered = new Set<string>();

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

const env = (): NodeJS.ProcessEnv => ({ ...process.env, BONSAI_DB: "", HOME: dir });

function bonsai(...args: string[]): Run {
  covered.add(args[0]!);
  return spawnSync(process.execPath, [bin, ...args, "--data-dir", data], { encoding: "utf8", env: env(), timeout: 240_000 });
}

/** bonsai without blocking this process: the model server in it must answer */
function bonsaiAsync(...args: string[]): Promise<Run> {
  covered.add(args[0]!);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args, "--data-dir", data], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

/** exit 0, no error line, and stdout matching `out` */
function ok(r: Run, out: RegExp): void {
  expect(r.stderr, r.stdout).not.toMatch(/unexpected error|this is a bug/u);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(out);
}

/** the documented refusal of a write to a Claude Code or Codex session: one line, exit 1 */
function refusedReadOnly(r: Run): void {
  expect(r.stderr).not.toMatch(/unexpected error|this is a bug/u);
  expect(r.status, r.stdout).toBe(1);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(/read-only|never writes/u);
}

beforeAll(async () => {
  if (SKIP) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-every-command-"));
  data = path.join(dir, "data");
  for (const agent of Object.keys(FIXTURES) as Agent[]) {
    files[agent] = path.join(dir, "sessions", agent, FIXTURES[agent]!);
    fs.mkdirSync(path.dirname(files[agent]), { recursive: true });
    fs.copyFileSync(realSession(agent, FIXTURES[agent]!), files[agent]);
    fs.chmodSync(files[agent], 0o644);
  }
  ok(bonsai("import", path.join(dir, "sessions")), /3 files: 3 imported/u);
  const listed = JSON.parse(bonsai("ls", "--json").stdout) as { id: string; sourcePath: string }[];
  for (const agent of Object.keys(FIXTURES) as Agent[]) ids[agent] = listed.find((s) => s.sourcePath === files[agent])!.id;
  server = await startMockOpenAiServer();
}, 300_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(SKIP)(`every bonsai command through the built bin, with --data-dir, on stored sessions ${SKIP}`, () => {
  it("the store commands: import (again), ls, search, config", () => {
    ok(bonsai("import", path.join(dir, "sessions")), /3 files: 3 unchanged/u);
    const ls = bonsai("ls");
    ok(ls, /claude-code/u);
    for (const agent of Object.keys(FIXTURES) as Agent[]) expect(ls.stdout).toContain(ids[agent]);
    ok(bonsai("search", "the"), /\S/u);
    ok(bonsai("search", "the", "--session", ids.codex, "--json"), /^\[/u);
    ok(bonsai("config", "get"), /compaction/u);
    ok(bonsai("config", "set", "compaction.reserveTokens", "12000"), /\S/u);
    ok(bonsai("config", "get", "compaction.reserveTokens"), /12000/u);
    ok(bonsai("config", "unset", "compaction.reserveTokens"), /\S/u);
  }, 600_000);

  it.each(["pi", "claude-code", "codex"] as const)("the read commands on a stored %s session: context, plan, branch, prune --dry-run, export (every format), whatif, amnesia", (agent) => {
    const id = ids[agent];
    ok(bonsai("context", id), /tok/u);
    ok(bonsai("context", id, "--json"), /"contextTokens"/u);
    ok(bonsai("plan", id), /\S/u);
    const leaf = (JSON.parse(bonsai("context", id, "--json").stdout) as { leafId: string }).leafId;
    ok(bonsai("branch", id, "--to", leaf), /\S/u);
    ok(bonsai("prune", id, "--dry-run"), /\S/u);
    for (const format of ["jsonl", "md", "pi", "html"]) ok(bonsai("export", id, "--format", format, "-o", path.join(dir, `out-${agent}.${format}`)), /^$|\S/u);
    expect(fs.statSync(path.join(dir, `out-${agent}.html`)).size).toBeGreaterThan(1000);
    ok(bonsai("whatif", id), /\S/u);
    ok(bonsai("amnesia", id), /\S/u);
  }, 600_000);

  it("whatif --all and migrate", () => {
    ok(bonsai("whatif", "--all"), /\S/u);
    ok(bonsai("migrate", files.pi, "-o", path.join(dir, "migrated.jsonl")), /^$|\S/u);
    expect(fs.readFileSync(path.join(dir, "migrated.jsonl"), "utf8").split("\n")[0]).toContain('"version":3');
  }, 600_000);

  it("the writing commands on the stored pi session: navigate, compact, prune, prompt", async () => {
    const id = ids.pi;
    const entries = fs.readFileSync(files.pi, "utf8").trimEnd().split("\n").slice(1).map((l) => JSON.parse(l) as { id: string; type: string });
    const target = entries.filter((e) => e.type === "message").at(-3)!.id;
    ok(bonsai("navigate", id, target), /Moved the leaf/u);
    ok(bonsai("navigate", id, entries.at(-1)!.id, "--summarize", "--offline"), /Moved the leaf/u);
    ok(bonsai("compact", id, "--offline"), /Compacted session|[Nn]othing to compact/u);
    ok(bonsai("prune", id), /\S/u);
    ok(await bonsaiAsync("prompt", id, "What next?", "--base-url", server.baseUrl, "--model", "mock-model"), /\S/u);
    expect(server.requests.length, "the model was asked").toBeGreaterThan(0);
  }, 600_000);

  it("the writing commands refuse a Claude Code or Codex session in one line, exit 1", () => {
    for (const agent of ["claude-code", "codex"] as const) {
      const id = ids[agent];
      const leaf = (JSON.parse(bonsai("context", id, "--json").stdout) as { leafId: string }).leafId;
      refusedReadOnly(bonsai("compact", id, "--offline"));
      refusedReadOnly(bonsai("navigate", id, leaf, "--summarize", "--offline"));
      refusedReadOnly(bonsai("prune", id));
      refusedReadOnly(bonsai("prompt", id, "hello", "--base-url", server.baseUrl, "--model", "mock-model"));
    }
  }, 600_000);

  it("serve: starts on the data folder and answers on its address (or, without the built app, says so)", async () => {
    covered.add("serve");
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--no-open", "--data-dir", data], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const address = await new Promise<string | null>((resolve) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+\/\S*/u.exec(out);
        if (m) resolve(m[0]);
      });
      void exited.then(() => resolve(null));
    });
    if (!fs.existsSync(path.join(root, "apps/desktop/out/renderer"))) {
      // `node scripts/build.mjs cli` builds no renderer; `pnpm test` builds it
      expect(address).toBeNull();
      expect(await exited).toBe(1);
      expect(err).toMatch(/^bonsai: the app is not built \(apps\/desktop\/out\/renderer is missing\): run `pnpm build` in the Bonsai checkout first\n$/u);
      return;
    }
    expect(address, err).not.toBeNull();
    // the lines after the address may come in a later chunk
    for (let i = 0; i < 100 && !out.includes(data); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(out).toContain(data);
    expect((await fetch(address!)).status).toBe(200);
    child.kill("SIGINT");
    expect(await exited, err).toBe(0);
  }, 300_000);

  it("every command of the registry was run, and each that reads the local store takes --data-dir", () => {
    // the team archive's commands need a PostgreSQL server: they run through the built bin in team.test.ts
    const elsewhere = ["push", "team"];
    expect([...covered, ...elsewhere].sort()).toEqual(COMMANDS.map((c) => c.spec.name).sort());
    // `team` works on the archive's own database (--database), never on a local store
    for (const c of COMMANDS.filter((c) => c.spec.name !== "team")) expect(c.spec.options.map((o) => o.name), c.spec.name).toContain("data-dir");
  });
});
