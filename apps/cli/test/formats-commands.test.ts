/**
 * The read commands and `export` on Claude Code and Codex files (the built CLI, spawned as a user
 * runs it): the agent's file back byte for byte, "Continue in pi", the HTML page, what the model
 * sees, a compaction plan, search in a file, and one sentence for a file no reader knows.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.mjs");
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
