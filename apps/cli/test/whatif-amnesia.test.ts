/**
 * `bonsai whatif` and `bonsai amnesia`, run in process through runCli on session files written to
 * a temp dir and on a real database (BONSAI_DB): JSON shapes, values, text output, errors.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@bonsai/store";
import { bonsai, json } from "./run-cli";

let dir = "";
let savedDb: string | undefined;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-whatif-"));
  savedDb = process.env.BONSAI_DB;
  process.env.BONSAI_DB = path.join(dir, "data", "bonsai.db");
});
afterAll(() => {
  if (savedDb === undefined) delete process.env.BONSAI_DB;
  else process.env.BONSAI_DB = savedDb;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const t = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
const x = (n: number) => "x".repeat(n);

/** `turns` turns, each a prompt and a reply whose usage grows by about 9,000 tokens a turn */
function writeSession(name: string, turns: number, extra: (i: number) => Record<string, unknown>[] = () => []): string {
  const lines: Record<string, unknown>[] = [{ type: "session", version: 3, id: name, timestamp: t(0), cwd: "/p" }];
  let parent: string | null = null;
  const add = (body: Record<string, unknown>) => {
    const id = `${name}-${lines.length}`;
    lines.push({ ...body, id, parentId: parent, timestamp: t(lines.length) });
    parent = id;
  };
  for (let i = 0; i < turns; i++) {
    add({ type: "message", message: { role: "user", content: `step ${i}: ${x(20000)}`, timestamp: Date.parse(t(lines.length)) } });
    for (const body of extra(i)) add(body);
    const total = 3000 + (i + 1) * 9000;
    add({
      type: "message",
      message: { role: "assistant", content: [{ type: "text", text: x(12000) }], api: "x", provider: "anthropic", model: "m", usage: { input: total - 3000, output: 3000, cacheRead: 0, cacheWrite: 0, totalTokens: total }, stopReason: "stop", timestamp: Date.parse(t(lines.length)) },
    });
  }
  const file = path.join(dir, `${name}.jsonl`);
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return file;
}

interface Run {
  compactions: { atEntryId: string; tokensBefore: number; firstKeptEntryId: string; summarizedTokens: number; isSplitTurn: boolean }[];
  peakContextTokens: number;
  summarizedTokens: number;
  prunedTokens: number;
  series: [string, number][];
}
interface Report {
  settings: Record<string, unknown>;
  actual: Run;
  candidate: Run;
}

describe("bonsai whatif", () => {
  it("prints the issue's JSON: every setting used, the actual run and the candidate run", async () => {
    const file = writeSession("grow", 30);
    const r = await json<Report>("whatif", file, "--reserve", "40000", "--keep-recent", "10000", "--context-window", "150000");
    expect(Object.keys(r)).toEqual(["settings", "actual", "candidate"]);
    expect(r.settings).toMatchObject({ reserveTokens: 40000, keepRecentTokens: 10000, contextWindow: 150000, threshold: 110000, compactionEnabled: true, pruningEnabled: true, thresholdTokens: 0, thresholdPercent: 0 });
    expect(r.settings.summaryEstimate).toEqual({ source: "ratio", ratio: 0.03 });
    for (const run of [r.actual, r.candidate]) expect(Object.keys(run)).toEqual(["compactions", "peakContextTokens", "summarizedTokens", "prunedTokens", "series"]);
    expect(r.actual.compactions).toEqual([]);
    expect(r.actual.peakContextTokens).toBe(3000 + 30 * 9000);
    expect(r.actual.series).toHaveLength(60);
    expect(r.candidate.compactions.length).toBeGreaterThanOrEqual(2);
    // the first fires after the first reply above 110,000 tokens: turn 11 (3000 + 12 × 9000), entry 2 × 12
    expect(r.candidate.compactions[0]).toMatchObject({ atEntryId: "grow-24", tokensBefore: 111000 });
    expect(Object.keys(r.candidate.compactions[0]!)).toEqual(["atEntryId", "tokensBefore", "firstKeptEntryId", "summarizedTokens", "isSplitTurn"]);
    expect(r.candidate.peakContextTokens).toBeLessThan(r.actual.peakContextTokens);
  });

  it("--no-compaction: no compaction, the file's own peak; threshold forms and a larger reserve", async () => {
    const file = writeSession("grow2", 30);
    const off = await json<Report>("whatif", file, "--no-compaction");
    expect(off.candidate.compactions).toEqual([]);
    expect(off.candidate.peakContextTokens).toBe(off.actual.peakContextTokens);
    const byTokens = await json<Report>("whatif", file, "--threshold", "100000");
    // the usage reaches 273,000 tokens: the session's own window is at least that (the file's evidence); 50 % of 200,000 wants it set
    const byPercent = await json<Report>("whatif", file, "--threshold-percent", "50", "--context-window", "200000");
    expect((await json<Report>("whatif", file)).settings.contextWindow).toBe(273_000);
    expect(byTokens.settings).toMatchObject({ thresholdTokens: 100000, threshold: 100000 });
    expect(byPercent.candidate.compactions.map((c) => c.atEntryId)).toEqual(byTokens.candidate.compactions.map((c) => c.atEntryId));
    const small = await json<Report>("whatif", file, "--reserve", "20000", "--context-window", "200000");
    const large = await json<Report>("whatif", file, "--reserve", "120000", "--context-window", "200000");
    expect(large.candidate.compactions.length).toBeGreaterThan(small.candidate.compactions.length);
    expect((await json<Report>("whatif", file, "--prune", "off")).settings.pruningEnabled).toBe(false);
  });

  it("prints a readable comparison without --json", async () => {
    const r = await bonsai("whatif", writeSession("text", 20), "--reserve", "100000");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/What if for .*text\.jsonl \(40 entries on the active path\)/);
    expect(r.stdout).toMatch(/threshold 100,000 \(window − reserve 100,000\)/);
    expect(r.stdout).toMatch(/compactions +0 +\d+/);
    expect(r.stdout).toMatch(/after text-\d+: [\d,]+ tokens, keeps from text-\d+/);
  });

  it("refuses bad options with one line and a non-zero status", async () => {
    const file = writeSession("bad", 2);
    const cases: [string[], RegExp, number][] = [
      [["--threshold", "1000", "--threshold-percent", "5"], /give --threshold or --threshold-percent, not both/, 2],
      [["--prune", "maybe"], /--prune must be on or off/, 2],
      [["--threshold-percent", "150"], /thresholdPercent must be a whole number from 0 to 100/, 1],
      [["--threshold", "300000"], /thresholdTokens \(300000\) must be smaller than model.contextWindow \(200000\)/, 1],
      [["--context-window", "0"], /context window must be at least 1/, 1],
      [[], /./, -1],
    ];
    for (const [options, message, code] of cases.slice(0, -1)) {
      const r = await bonsai("whatif", file, ...options);
      expect(r.code, options.join(" ")).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stdout).toBe("");
    }
    expect((await bonsai("whatif")).stderr).toMatch(/missing SESSION \(or --all\)/);
    expect((await bonsai("whatif", file, "--all")).stderr).toMatch(/give SESSION or --all, not both/);
  });

  it("--all: every stored session with totals; stored settings are the base", async () => {
    const a = writeSession("alla", 30);
    const b = writeSession("allb", 10);
    expect((await bonsai("import", a, b)).code).toBe(0);
    const store = openStore({ path: process.env.BONSAI_DB as string });
    store.saveSettingsJson({ compaction: { reserveTokens: 60000 } });
    store.close();
    const r = await json<{ settings: Record<string, unknown>; sessions: { sessionId: string; actual: Record<string, unknown>; candidate: { compactions: unknown[] } }[]; totals: Record<string, unknown> }>("whatif", "--all");
    expect(r.settings).toMatchObject({ reserveTokens: 60000, threshold: 140000 });
    expect(r.sessions.map((s) => s.sessionId).sort()).toEqual(["alla", "allb"]);
    expect(r.sessions[0]!.actual).not.toHaveProperty("series");
    const compactions = r.sessions.reduce((n, s) => n + s.candidate.compactions.length, 0);
    expect(r.totals).toMatchObject({ sessions: 2, actual: { compactions: 0, peakContextTokens: 3000 + 30 * 9000 }, candidate: { compactions } });
    const text = await bonsai("whatif", "--all", "--reserve", "20000");
    expect(text.stdout).toMatch(/What if over 2 stored sessions/);
    expect(text.stdout).toMatch(/alla .* compactions 0 → \d+/);
    // a stored session id works like a file
    expect((await json<Report>("whatif", "alla")).settings).toMatchObject({ reserveTokens: 60000 });
  });
});

describe("bonsai amnesia", () => {
  it("prints the issue's JSON shape; a file read again after the compaction is a finding", async () => {
    const read = (i: number, file: string) => [
      { type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: `c${i}-${file}`, name: "read", arguments: { path: file } }], api: "x", provider: "anthropic", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, stopReason: "toolUse", timestamp: 1 } },
      { type: "message", message: { role: "toolResult", toolCallId: `c${i}-${file}`, toolName: "read", content: [{ type: "text", text: "contents" }], isError: false, timestamp: 1 } },
    ];
    const file = writeSession("amn", 6, (i) => (i === 0 ? read(i, "src/config.ts") : i === 4 ? read(i, "src/config.ts") : []));
    // turn 0 reads (amn-2) and turn 4 reads again (amn-12); the compaction follows turn 2's reply
    // (amn-8) and keeps from its prompt (amn-7)
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const at = lines.findIndex((l) => l.id === "amn-8");
    lines.splice(at + 1, 0, { type: "compaction", id: "C1", parentId: "amn-8", timestamp: t(8.5), summary: "## Goal\nsteps", firstKeptEntryId: "amn-7", tokensBefore: 30000 });
    (lines[at + 2] as { parentId: string }).parentId = "C1";
    writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));

    const r = await json<{ compactions: { compactionId: string; score: number; findings: { kind: string; entryIds: string[]; detail: string }[] }[]; prunings: unknown[] }>("amnesia", file);
    expect(Object.keys(r)).toEqual(["compactions", "prunings"]);
    expect(r.prunings).toEqual([]);
    expect(r.compactions).toEqual([{ compactionId: "C1", score: 2, findings: [{ kind: "reread", entryIds: ["amn-2", "amn-12"], detail: expect.stringContaining("src/config.ts") }] }]);
    const text = await bonsai("amnesia", file);
    expect(text.stdout).toMatch(/^Compaction C1: score 2\n {2}reread: src\/config\.ts read again once .* \[amn-2, amn-12\]\n$/);
    expect((await bonsai("amnesia", writeSession("plain", 2))).stdout).toMatch(/no compaction or pruning to look at/);
    expect((await bonsai("amnesia", path.join(dir, "missing.jsonl"))).stderr).toMatch(/no such file/);
  });
});

const realDir = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");
const realFiles = existsSync(realDir) ? readdirSync(realDir).flatMap((agent) => (agent.includes(".") ? [] : readdirSync(path.join(realDir, agent)).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(realDir, agent, f)))) : [];

describe.skipIf(realFiles.length === 0)("on every recorded session of ../shared/fixtures/real", () => {
  it("whatif and amnesia answer with their JSON shapes (pi, Claude Code and Codex files)", async () => {
    for (const file of realFiles) {
      const r = await json<Report>("whatif", file, "--reserve", "60000");
      expect(r.candidate.series.length, file).toBe(r.actual.series.length);
      expect(r.candidate.peakContextTokens, file).toBeGreaterThanOrEqual(0);
      const off = await json<Report>("whatif", file, "--no-compaction");
      expect(off.candidate.compactions, file).toEqual([]);
      const a = await json<{ compactions: { score: number }[]; prunings: unknown[] }>("amnesia", file);
      for (const c of a.compactions) expect(c.score, file).toBeGreaterThanOrEqual(0);
    }
  }, 120_000);
});
