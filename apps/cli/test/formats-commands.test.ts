/**
 * The read commands and `export` on Claude Code and Codex files (the built CLI, spawned as a user
 * runs it): the agent's file back byte for byte, "Continue in pi", the HTML page, what the model
 * sees, a compaction plan, search in a file, and one sentence for a file no reader knows.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const real = path.resolve(root, "../shared/fixtures/real");
const CLAUDE = path.join(real, "claude-code/entireio__cli__cd_95adddad32_0_full.jsonl");
const CODEX = path.join(real, "codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl");
const haveReal = existsSync(CLAUDE) && existsSync(CODEX);
if (!haveReal) console.warn(`real Claude Code / Codex files not found under ${real}: CLI format tests skipped`);

const dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-formats-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, BONSAI_DEBUG: "", BONSAI_DB: path.join(dir, "none.db") } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!haveReal)("commands on Claude Code and Codex files", () => {
  it("export --format jsonl gives the agent's file back byte for byte", () => {
    for (const file of [CLAUDE, CODEX]) {
      const out = path.join(dir, `${path.basename(file)}.copy`);
      const r = run("export", file, "-o", out);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(out).equals(readFileSync(file))).toBe(true);
    }
  });

  it("export --format pi writes a pi session of the path to the leaf (or --leaf)", () => {
    const out = path.join(dir, "continue.jsonl");
    const r = run("export", CLAUDE, "--format", "pi", "-o", out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^bonsai: wrote .*continue\.jsonl \(\d+ entries, a pi session of the path to [0-9a-f-]+\)\n$/);
    const lines = readFileSync(out, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: "session", version: 3, cwd: "/Users/soph/Work/entire/devenv/cli", parentSession: CLAUDE });
    expect(lines.filter((l) => l.type === "compaction")).toHaveLength(3);
    // a leaf before the first compaction (the first assistant line): no compaction on that path
    const firstAssistant = readFileSync(CLAUDE, "utf8").split("\n").map((l) => JSON.parse(l) as { type: string; uuid: string }).find((l) => l.type === "assistant");
    const early = path.join(dir, "early.jsonl");
    const leafRun = run("export", CLAUDE, "--format", "pi", "--leaf", firstAssistant?.uuid as string, "-o", early);
    expect(leafRun.code, leafRun.stderr).toBe(0);
    const earlyLines = readFileSync(early, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { type: string; message?: { role: string } });
    expect(earlyLines.filter((l) => l.type === "compaction")).toHaveLength(0);
    expect(earlyLines.filter((l) => l.type === "message").map((l) => l.message?.role)).toEqual(["user", "assistant"]);
    const bad = run("export", CODEX, "--format", "pi", "--leaf", "nope");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`bonsai: --leaf nope: no entry with this id in ${CODEX}\n`);
  });

  it("export --format html writes one self-contained page", () => {
    const out = path.join(dir, "codex.html");
    const r = run("export", CODEX, "--format", "html", "-o", out);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<(link|script)[^>]+(href|src)=/i);
    expect(html).toContain('class="entry compaction');
  });

  it("context shows what the model sees: the last compaction's summary, then what follows", () => {
    const claude = JSON.parse(run("context", CLAUDE, "--json").stdout) as { roles: string[]; leafId: string; model: Record<string, string> };
    expect(claude.roles[0]).toBe("compactionSummary");
    expect(claude.model.default).toMatch(/^anthropic\/claude-/);
    const codex = JSON.parse(run("context", CODEX, "--json").stdout) as { roles: string[]; thinkingLevel: string };
    expect(codex.roles.slice(0, 2)).toEqual(["compactionSummary", "user"]);
    expect(codex.thinkingLevel).toBe("high");
    expect(run("context", CODEX).stdout).toMatch(/^Session 019f03e0-321f-7eb2-83cc-b54ecd71be23 /);
  });

  it("plan says what a pi-style compaction would do, read only", () => {
    const before = readFileSync(CODEX);
    const r = run("plan", CODEX, "--json");
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { firstKeptEntryId: string; hasPreviousSummary: boolean } | null;
    expect(plan?.hasPreviousSummary).toBe(true);
    expect(readFileSync(CODEX).equals(before)).toBe(true);
  });

  it("search --file finds entries of a file of any agent", () => {
    expect(JSON.parse(run("search", "zzqqxx", "--file", CLAUDE, "--json").stdout)).toEqual([]);
    const found = JSON.parse(run("search", '"competing agents"', "--file", CLAUDE, "--json", "--limit", "3").stdout) as { sessionId: string; entryId: string; snippet: string }[];
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(3);
    expect(found[0]?.sessionId).toBe("6113e919-67d3-417b-b525-c63700228d19");
    expect(found[0]?.snippet.toLowerCase()).toContain("competing agents");
    const both = run("search", "x", "--file", CLAUDE, "--session", "abc");
    expect(both.code).toBe(2);
  });

  it("-o never replaces a Claude Code or Codex file", () => {
    const copy = path.join(dir, "agent-copy.jsonl");
    writeFileSync(copy, readFileSync(CODEX));
    const r = run("export", CLAUDE, "--format", "pi", "-o", copy);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^bonsai: .*agent-copy\.jsonl is an existing session file .* does not replace session files with -o/);
    expect(readFileSync(copy).equals(readFileSync(CODEX))).toBe(true);
  });

  it("a file no reader knows gets one sentence and a non-zero exit", () => {
    const other = path.join(dir, "other.jsonl");
    writeFileSync(other, '{"level":"info","msg":"started"}\n');
    const r = run("context", other);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^bonsai: .*other\.jsonl: not a session file: it is JSON lines but no session format Bonsai knows \(its first line is an object with keys level, msg\); Bonsai reads pi \/ oh-my-pi sessions .*, Claude Code transcripts .* and Codex rollouts .*\n$/);
  });
});

describe.skipIf(!haveReal)("stored Claude Code and Codex sessions (imported from the agents' folders)", () => {
  const home = path.join(dir, "home");
  const db = path.join(dir, "stored.db");
  const claudeCopy = path.join(home, ".claude", "projects", "-Users-soph-Work-entire-devenv-cli", "6113e919-67d3-417b-b525-c63700228d19.jsonl");
  const codexCopy = path.join(home, ".codex", "sessions", "2026", "06", "01", "rollout-2026-06-01T10-00-00-019f03e0-321f-7eb2-83cc-b54ecd71be23.jsonl");
  const runStored = (...args: string[]): { code: number; stdout: string; stderr: string } => {
    const r = spawnSync(process.execPath, [bin, ...args], {
      encoding: "utf8",
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, BONSAI_DEBUG: "", BONSAI_DB: db, HOME: home, CLAUDE_CONFIG_DIR: "", CODEX_HOME: "", BONSAI_SESSIONS_DIRS: "" },
    });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  interface Listed {
    id: string;
    agent: string;
    title: string | null;
    cwd: string;
    entryCount: number;
    compactionCount: number;
    readOnly: string | null;
    sourcePath: string;
  }
  let claudeId = "";
  let codexId = "";

  it("import without a path scans the Claude Code and Codex folders; ls --json names the agent", () => {
    for (const [from, to] of [
      [CLAUDE, claudeCopy],
      [CODEX, codexCopy],
    ] as const) {
      mkdirSync(path.dirname(to), { recursive: true });
      writeFileSync(to, readFileSync(from));
    }
    const imported = runStored("import");
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/2 files: 2 imported/);
    const listed = JSON.parse(runStored("ls", "--json").stdout) as Listed[];
    const claude = listed.find((s) => s.sourcePath === claudeCopy);
    const codex = listed.find((s) => s.sourcePath === codexCopy);
    // its summary lines name another session's leaf: no title of its own (the list shows its first prompt)
    expect(claude).toMatchObject({ agent: "claude-code", title: null, cwd: "/Users/soph/Work/entire/devenv/cli", entryCount: 890, compactionCount: 3 });
    expect(codex).toMatchObject({ agent: "codex", compactionCount: 2, entryCount: 882 });
    expect(claude?.readOnly).toMatch(/never writes Claude Code/);
    claudeId = claude?.id ?? "";
    codexId = codex?.id ?? "";
    const text = runStored("ls").stdout;
    expect(text).toMatch(/^ID +AGENT +UPDATED +ENTRIES +COMP +CONTEXT +TITLE/);
    expect(text).toMatch(new RegExp(`${claudeId} +claude-code .* 890 +3 +[0-9.]+[KM]? +in /Users/soph/Work/entire/research/git-ai is a open source repo`));
    expect(text).not.toContain("Branch review by competing agents");
    expect(text).toContain("read-only: Bonsai never writes Claude Code sessions");
  });

  it("context, plan, search and export take the stored sessions as they take the files", () => {
    for (const [id, file] of [
      [claudeId, CLAUDE],
      [codexId, CODEX],
    ] as const) {
      const fromStore = JSON.parse(runStored("context", id, "--json").stdout) as { roles: string[]; tokens: unknown };
      const fromFile = JSON.parse(run("context", file, "--json").stdout) as { roles: string[]; tokens: unknown };
      expect(fromStore.roles).toEqual(fromFile.roles);
      const plan = runStored("plan", id, "--json");
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toBe(run("plan", file, "--json").stdout);
      // the agent's own file, byte for byte
      const out = path.join(dir, `${id}.jsonl`);
      expect(runStored("export", id, "-o", out).code).toBe(0);
      expect(readFileSync(out).equals(readFileSync(file))).toBe(true);
      const html = path.join(dir, `${id}.html`);
      expect(runStored("export", id, "--format", "html", "-o", html).code).toBe(0);
      expect(readFileSync(html, "utf8")).toContain('class="entry compaction');
    }
    const pi = path.join(dir, "stored-continue.jsonl");
    const r = runStored("export", claudeId, "--format", "pi", "-o", pi);
    expect(r.code, r.stderr).toBe(0);
    const header = JSON.parse(readFileSync(pi, "utf8").split("\n")[0] as string) as { parentSession: string };
    expect(header.parentSession).toBe(claudeCopy);
    expect(readFileSync(pi, "utf8").split("\n").filter((l) => l.includes('"type":"compaction"'))).toHaveLength(3);
    const hits = JSON.parse(runStored("search", '"competing agents"', "--json").stdout) as { sessionId: string }[];
    expect(hits.map((h) => h.sessionId)).toContain(claudeId);
  });

  it("commands that write refuse a Claude Code or Codex session with one line, and the file stays as it was", () => {
    const before = readFileSync(claudeCopy);
    for (const args of [
      ["compact", claudeId, "--offline"],
      ["prune", codexId],
      ["prompt", claudeId, "continue"],
    ]) {
      const r = runStored(...args);
      expect(r.code, `${args.join(" ")}: ${r.stdout}`).toBe(1);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(/never writes .* sessions: continue it in pi .*--format pi/);
    }
    const leaf = (JSON.parse(runStored("ls", "--json").stdout) as (Listed & { leafId: string })[]).find((s) => s.id === claudeId)?.leafId as string;
    expect(runStored("navigate", claudeId, leaf, "--summarize", "--offline").stderr).toMatch(/never writes/);
    // moving the leaf alone is Bonsai's own (nothing is written)
    expect(runStored("navigate", claudeId, leaf).code).toBe(0);
    expect(readFileSync(claudeCopy).equals(before)).toBe(true);
  });
});
