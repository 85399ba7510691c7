/**
 * The built `bonsai` CLI, spawned as a user runs it: JSON shapes, text output, and the error policy
 * (one line on stderr, non-zero exit, never a stack trace). Sessions are generated into a temp dir;
 * the reference comparison on ../shared/fixtures is skipped when that folder is absent.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const fixtures = path.resolve(root, "../shared/fixtures");
const haveFixtures = existsSync(path.join(fixtures, "large-session.jsonl")) && existsSync(path.join(fixtures, "expected/fixture-large-session.context.json"));
if (!haveFixtures) console.warn(`CLI reference comparison skipped: ${fixtures} not found`);

let dir = "";

function run(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir, env: { ...process.env, BONSAI_DEBUG: "" } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function expectOneLineError(r: { code: number; stdout: string; stderr: string }, code: number, pattern: RegExp): void {
  expect(r.code).toBe(code);
  expect(r.stdout).toBe("");
  const lines = r.stderr.split("\n").filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^bonsai: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const ts = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
const user = (text: string) => ({ role: "user", content: text, timestamp: 1 });
const assistant = (text: string) => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "m",
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
  stopReason: "stop",
  timestamp: 2,
});

function writeJsonl(name: string, values: unknown[], trailer = ""): string {
  const file = path.join(dir, name);
  writeFileSync(file, values.map((v) => `${JSON.stringify(v)}\n`).join("") + trailer);
  return file;
}

/** A v3 session: chain e0..e5 with a compaction keeping from e2, then an excluded bash run, then a branch. */
function v3Session(): string {
  const header = { type: "session", version: 3, id: "s1", timestamp: ts(0), cwd: "/p" };
  const e = (i: number, parentId: string | null, body: Record<string, unknown>) => ({ ...body, id: `e${i}`, parentId, timestamp: ts(i + 1) });
  return writeJsonl("v3.jsonl", [
    header,
    e(0, null, { type: "message", message: user("hello there") }),
    e(1, "e0", { type: "message", message: assistant("hi") }),
    e(2, "e1", { type: "message", message: user("second question") }),
    e(3, "e2", { type: "thinking_level_change", thinkingLevel: "high" }),
    e(4, "e3", { type: "message", message: assistant("second answer") }),
    e(5, "e4", { type: "compaction", summary: "SUMMARY", firstKeptEntryId: "e2", tokensBefore: 900 }),
    e(6, "e5", { type: "message", message: { role: "bashExecution", command: "ls", output: "a", exitCode: 0, cancelled: false, truncated: false, timestamp: 3, excludeFromContext: true } }),
    e(7, "e6", { type: "message", message: user("after") }),
    e(8, "e1", { type: "message", message: user("other branch") }),
  ]);
}

beforeAll(() => {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-"));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("bonsai (CLI framework)", () => {
  it("prints help for the program and for each command", () => {
    const main = run("--help");
    expect(main.code).toBe(0);
    expect(main.stdout).toMatch(/context\s+SESSION \[--leaf ID\] \[--all\] \[--json\]/);
    expect(main.stdout).toMatch(/migrate\s+SESSION \[-o OUT\]/);
    // every agent whose files Bonsai reads is named, not pi alone
    for (const agent of ["pi / oh-my-pi", "Claude Code", "Codex"]) expect(main.stdout).toContain(agent);
    expect(main.stdout).not.toMatch(/pi \/ oh-my-pi JSONL\)/);
    const ctx = run("context", "--help");
    expect(ctx.code).toBe(0);
    expect(ctx.stdout).toMatch(/^Usage: bonsai context SESSION \[--leaf ID\] \[--all\] \[--json\]/);
    expect(run("help", "migrate").stdout).toMatch(/^Usage: bonsai migrate/);
  });

  it("--version and -v print the CLI's version from its package.json", () => {
    const { version } = JSON.parse(readFileSync(path.join(root, "apps/cli/package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-v"]) expect(run(flag)).toEqual({ code: 0, stdout: `bonsai ${version}\n`, stderr: "" });
    expect(run("--help").stdout).toMatch(/bonsai --version/);
  });

  it("user mistakes: one line on stderr, non-zero exit, no stack trace", () => {
    const session = v3Session();
    writeFileSync(path.join(dir, "notes.txt"), "# just some notes\nnot json\n");
    writeJsonl("entry-first.jsonl", [{ type: "message", id: "1" }]);
    mkdirSync(path.join(dir, "folder"), { recursive: true });
    expectOneLineError(run(), 2, /missing command/);
    expectOneLineError(run("frobnicate"), 2, /unknown command "frobnicate"/);
    expectOneLineError(run("context"), 2, /missing SESSION: usage: bonsai context SESSION/);
    expectOneLineError(run("context", session, "extra"), 2, /unexpected argument "extra"/);
    expectOneLineError(run("context", session, "--bogus"), 2, /unknown option --bogus/);
    expectOneLineError(run("context", session, "--leaf"), 2, /--leaf needs a value/);
    expectOneLineError(run("context", session, "--json=1"), 2, /--json takes no value/);
    expectOneLineError(run("context", "missing.jsonl"), 1, /missing\.jsonl: no such file/);
    expectOneLineError(run("context", "folder"), 1, /folder: is a directory/);
    expectOneLineError(run("context", "notes.txt"), 1, /notes\.txt: not a session file/);
    expectOneLineError(run("context", "entry-first.jsonl"), 1, /not a session file: the first value is an entry of type "message".*\(line 1\)/);
    expectOneLineError(run("context", session, "--leaf", "nope"), 1, /--leaf nope: no entry with this id/);
    expectOneLineError(run("migrate", session, "-o", path.join(dir, "no/such/dir/out.jsonl")), 1, /cannot write .*no such file or directory/);
    expectOneLineError(run("migrate", session, "--json"), 2, /--json needs -o OUT/);
  });

  it("context --json: the documented shape, entry per message, roles before and after convertToLlm", () => {
    const r = run("context", v3Session(), "--json", "--leaf", "e7");
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(["leafId", "entryIds", "roles", "llmRoles", "estimatedTokens", "model", "thinkingLevel", "contextTokens", "contextBasis", "usage", "contextWindow", "contextWindowSource", "commits"]);
    const { contextTokens, contextBasis, usage, contextWindow, contextWindowSource, commits, ...reference } = out;
    // a session file is not imported from a checkpoint branch: it produced no commits
    expect(commits).toEqual([]);
    // the figure: the last reported usage (before the compaction e5 here: stale) -> the estimate
    expect({ contextTokens, contextBasis, contextWindowSource }).toEqual({ contextTokens: out.estimatedTokens, contextBasis: "estimate", contextWindowSource: "settings" });
    expect(usage === null || usage.age === "before-compaction").toBe(true);
    expect(contextWindow).toBe(200_000);
    expect(reference).toEqual({
      leafId: "e7",
      entryIds: ["e5", "e2", "e4", "e6", "e7"],
      roles: ["compactionSummary", "user", "assistant", "bashExecution", "user"],
      llmRoles: ["user", "user", "assistant", "user"],
      // ceil(7/4) + ceil(15/4) + ceil(13/4) + ceil(3/4) + ceil(5/4)
      estimatedTokens: 2 + 4 + 4 + 1 + 2,
      model: { default: "anthropic/m" },
      thinkingLevel: "high",
    });
  });

  it("context defaults to the last entry of the file, and lists messages as text without --json", () => {
    const session = v3Session();
    const json = JSON.parse(run("context", session, "--json").stdout);
    expect(json.leafId).toBe("e8");
    expect(json.entryIds).toEqual(["e0", "e1", "e8"]);
    const text = run("context", session, "--leaf", "e7");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Leaf: e7");
    expect(text.stdout).toContain("Messages: 5 (4 sent to the model)");
    expect(text.stdout).toMatch(/\n\s+1\s+e5\s+compactionSummary\s+2\s+SUMMARY\n/);
    expect(text.stdout).toMatch(/\n\s+4\s+e6\s+bashExecution\s+1\s+\$ ls\n/);
  });

  it("corrupt lines are reported with their line number and skipped; the rest loads", () => {
    const file = path.join(dir, "corrupt.jsonl");
    const lines = readFileSync(v3Session(), "utf8").split("\n");
    lines.splice(3, 0, "{not json");
    writeFileSync(file, `${lines.join("\n")}{"type":"message","id":"cut`);
    const r = run("context", file, "--json");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^bonsai: warning: .*corrupt\.jsonl line 4: invalid JSON/m);
    expect(r.stderr).toMatch(/^bonsai: warning: .*corrupt\.jsonl line 12: last line is incomplete/m);
    expect(JSON.parse(r.stdout).leafId).toBe("e8");
  });

  it("migrate: a v1 session becomes v3 (stdout or an atomic -o), and its context is unchanged", () => {
    const v1 = writeJsonl("v1.jsonl", [
      { type: "session", id: "old", timestamp: ts(0), cwd: "/p" },
      { type: "message", timestamp: ts(1), message: user("a") },
      { type: "message", timestamp: ts(2), message: assistant("b") },
      { type: "message", timestamp: ts(3), message: user("c") },
      { type: "compaction", timestamp: ts(4), summary: "S", firstKeptEntryIndex: 3, tokensBefore: 5 },
      { type: "message", timestamp: ts(5), message: { role: "hookMessage", customType: "x", content: "h", display: true, timestamp: 6 } },
    ]);
    const before = readFileSync(v1, "utf8");
    const stdout = run("migrate", v1);
    expect(stdout.code).toBe(0);
    const values = stdout.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(values[0]).toMatchObject({ type: "session", version: 3, id: "old" });
    const ids = values.slice(1).map((v) => v.id);
    expect(ids.every((id: string) => /^[0-9a-f]{8}$/.test(id))).toBe(true);
    expect(values.slice(1).map((v) => v.parentId)).toEqual([null, ids[0], ids[1], ids[2], ids[3]]);
    expect(values[4]).toMatchObject({ type: "compaction", firstKeptEntryId: ids[2] });
    expect(values[5].message.role).toBe("custom");

    const out = path.join(dir, "v1-migrated.jsonl");
    const written = run("migrate", v1, "-o", out, "--json");
    expect(written.code).toBe(0);
    expect(JSON.parse(written.stdout)).toEqual({ output: out, migrated: true, fromVersion: 1, toVersion: 3, entries: 5, skippedLines: 0 });
    expect(readFileSync(v1, "utf8")).toBe(before);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const ctx = JSON.parse(run("context", out, "--json").stdout);
    expect(ctx.roles).toEqual(["compactionSummary", "user", "custom"]);
    expect(ctx.llmRoles).toEqual(["user", "user", "user"]);
    expect(run("migrate", out, "-o", path.join(dir, "copy.jsonl")).stdout).toMatch(/already v3, copied unchanged, 5 entries/);
    // -o never replaces a session file (an agent may be writing it): migrate and export refuse, nothing changes
    const live = readFileSync(out);
    expectOneLineError(run("migrate", v1, "-o", out), 1, /is an existing session file .* does not replace session files with -o/);
    expectOneLineError(run("export", v1, "-o", out), 1, /is an existing session file/);
    expect(readFileSync(out).equals(live)).toBe(true);
  });

  it("case 8: reading never writes: a v1 session and a file with a bad header keep their bytes", () => {
    const v1 = writeJsonl("v1-readonly.jsonl", [
      { type: "session", id: "old", timestamp: ts(0), cwd: "/p" },
      { type: "message", timestamp: ts(1), message: user("a") },
    ]);
    const bad = writeJsonl("bad-header.jsonl", [{ type: "session", id: 5, timestamp: ts(0), cwd: "/p" }]);
    const before = [readFileSync(v1, "utf8"), readFileSync(bad, "utf8")];
    const listing = readdirSync(dir).sort();
    expect(run("context", v1, "--json").code).toBe(0);
    expect(run("context", v1).code).toBe(0);
    expectOneLineError(run("context", bad, "--json"), 1, /not a session file: the header's id is a number, not a string \(line 1\)/);
    expect([readFileSync(v1, "utf8"), readFileSync(bad, "utf8")]).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(listing);
  });

  it("a stored session's context starts from the store's leaf; the file's from its last entry, where a branch switch left it", () => {
    const file = v3Session();
    const env = { BONSAI_DB: path.join(dir, "db", "bonsai.db"), HOME: dir };
    const runStored = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir, env: { ...process.env, ...env, BONSAI_DEBUG: "" } });
    expect(runStored("import", file).status).toBe(0);
    expect(runStored("navigate", "s1", "e4", "--json").status).toBe(0);
    const stored = JSON.parse(runStored("context", "s1", "--json").stdout);
    expect(stored.entryIds.at(-1)).toBe("e4"); // the leaf is the switch's marker entry, parented at e4
    expect(JSON.parse(runStored("context", "s1", "--json", "--leaf", "e7").stdout).entryIds).toEqual(["e5", "e2", "e4", "e6", "e7"]);
    const fromFile = JSON.parse(runStored("context", file, "--json").stdout);
    expect([fromFile.leafId, fromFile.entryIds]).toEqual([stored.leafId, stored.entryIds]);
  });

  it("a session with a header and no entries has an empty context", () => {
    const empty = writeJsonl("empty.jsonl", [{ type: "session", version: 3, id: "e", timestamp: ts(0), cwd: "/p" }]);
    expect(JSON.parse(run("context", empty, "--json").stdout)).toEqual({
      leafId: null,
      entryIds: [],
      roles: [],
      llmRoles: [],
      estimatedTokens: 0,
      model: {},
      thinkingLevel: "off",
      contextTokens: 0,
      contextBasis: "estimate",
      usage: null,
      contextWindow: 200_000,
      contextWindowSource: "settings",
      commits: [],
    });
  });

  it.skipIf(!haveFixtures)("context on the large-session fixture matches the reference (ids mapped by position)", () => {
    const migrated = path.join(dir, "large.jsonl");
    expect(run("migrate", path.join(fixtures, "large-session.jsonl"), "-o", migrated).code).toBe(0);
    const ids = readFileSync(migrated, "utf8").trimEnd().split("\n").slice(1).map((l) => JSON.parse(l).id as string);
    const pinned = new Map(ids.map((id, k) => [id, (k + 1).toString(16).padStart(8, "0")]));
    const project = new Map([...pinned].map(([a, b]) => [b, a]));
    const expected = JSON.parse(readFileSync(path.join(fixtures, "expected/fixture-large-session.context.json"), "utf8"));
    for (const c of expected.cases as { args: string[]; expected: Record<string, unknown> }[]) {
      const args = c.args.map((a) => project.get(a) ?? a);
      const r = run("context", migrated, ...args, "--json");
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      out.leafId = pinned.get(out.leafId);
      out.entryIds = out.entryIds.map((id: string) => pinned.get(id));
      // the reference's fields exactly (estimatedTokens among them); the context figure is Bonsai's own
      expect(out).toEqual({ ...c.expected, contextTokens: out.contextTokens, contextBasis: out.contextBasis, usage: out.usage, contextWindow: out.contextWindow, contextWindowSource: out.contextWindowSource, commits: [] });
      if (out.usage && out.contextBasis === "reported") expect(out.contextTokens).toBe(out.usage.tokens + out.usage.trailingTokens);
    }
  });
});
