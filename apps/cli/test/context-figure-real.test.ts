/**
 * The context figure on every real session of ../shared/fixtures/real (compaction.md §2.6):
 * `bonsai context --json` gives `contextTokens`, the last usage the model reported on the leaf's path
 * plus the estimate of what followed it (the estimate alone without one or after a compaction),
 * beside `estimatedTokens`, the estimate of the messages. The usage is counted as the seed counts
 * it (input + output + cache read + cache write; OpenAI's input already holds its cached part), and
 * checked against the file's own lines; the window is the recorded model's.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_REAL_SESSIONS as ALL_REAL_FILES, HAVE_REAL_SESSIONS as HAVE_REAL, realSession as realPath } from "./real-sessions";
import { bonsai, json } from "./run-cli";

interface Report {
  leafId: string;
  estimatedTokens: number;
  contextTokens: number;
  contextBasis: "reported" | "estimate";
  usage: { tokens: number; entryId: string; age: string; trailingTokens: number; model: string } | null;
  contextWindow: number;
  contextWindowSource: string;
}

type Obj = Record<string, unknown>;
const n = (v: unknown): number => (typeof v === "number" ? v : 0);

/** Every usage figure the file's own lines report, counted as the seed counts them. */
function reportedFigures(agent: string, file: string): Set<number> {
  const out = new Set<number>();
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    const line = JSON.parse(text) as Obj;
    if (agent === "claude-code") {
      const u = ((line.message as Obj | undefined)?.usage ?? null) as Obj | null;
      if (line.type === "assistant" && u) out.add(n(u.input_tokens) + n(u.output_tokens) + n(u.cache_read_input_tokens) + n(u.cache_creation_input_tokens));
    } else if (agent === "codex") {
      const p = line.payload as Obj | undefined;
      const last = (p?.info as Obj | undefined)?.last_token_usage as Obj | undefined;
      if (p?.type === "token_count" && last) out.add(n(last.input_tokens) + n(last.output_tokens));
    } else {
      const u = ((line.message as Obj | undefined)?.usage ?? null) as Obj | null;
      if (u) out.add(n(u.totalTokens) || n(u.input) + n(u.output) + n(u.cacheRead) + n(u.cacheWrite));
    }
  }
  return out;
}

describe.skipIf(!HAVE_REAL)("the context figure on the real sessions (bonsai context --json)", () => {
  it.each(ALL_REAL_FILES.map((f) => [f.agent, f.name]))("%s %s: the leaf's figure is the last reported usage plus the estimate after it", async (agent, name) => {
    const file = realPath(agent, name);
    const r = await json<Report>("context", file);
    expect(r.estimatedTokens).toBeGreaterThan(0);
    if (r.usage && r.contextBasis === "reported") {
      // the usage is one the file reports, counted as the seed counts it
      expect(reportedFigures(agent, file).has(r.usage.tokens)).toBe(true);
      expect(r.contextTokens).toBe(r.usage.tokens + r.usage.trailingTokens);
      expect(r.contextTokens).toBeGreaterThanOrEqual(r.usage.tokens);
      expect(r.usage.age).not.toBe("before-compaction");
    } else {
      expect(r.contextTokens).toBe(r.estimatedTokens);
    }
    expect(r.contextWindow).toBeGreaterThan(0);
    // what-if replays the same session on the same window, and the figure is within it
    const whatif = await json<{ settings: { contextWindow: number }; candidate: { compactions: { summarizedTokens: number }[] } }>("whatif", file, "--threshold-percent", "70");
    expect(whatif.settings.contextWindow).toBe(r.contextWindow);
    if (agent !== "pi") expect(r.contextTokens).toBeLessThanOrEqual(r.contextWindow);
    for (const c of whatif.candidate.compactions) expect(c.summarizedTokens).toBeGreaterThan(0);
  });

  it("a Claude Code session reports what the model last counted, far above the estimate of its messages (the system prompt and tools)", async () => {
    const file = realPath("claude-code", ALL_REAL_FILES.find((f) => f.name.startsWith("entireio__cli__cd_95adddad32_0"))!.name);
    const r = await json<Report>("context", file);
    expect(r).toMatchObject({ contextTokens: 62_842, contextBasis: "reported", contextWindow: 200_000, contextWindowSource: "known-model" });
    expect(r.usage).toMatchObject({ tokens: 62_842, model: "claude-opus-4-5-20251101" });
    expect(r.estimatedTokens).toBeLessThan(r.contextTokens / 2);
  });

  it("bonsai plan leads with the figure bonsai context gives", async () => {
    for (const prefix of ["entireio__cli__cd_95adddad32_0", "EntityProcess__agentv__00_34f597b72d_1"]) {
      const f = ALL_REAL_FILES.find((x) => x.name.startsWith(prefix))!;
      const file = realPath(f.agent, f.name);
      const r = await json<Report>("context", file);
      const plan = await bonsai("plan", file);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain(`The model sees: ${r.contextTokens} tokens`);
    }
  });

  it("bonsai ls leads each stored session with the figure bonsai context gives", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bonsai-ls-figure-"));
    try {
      for (const prefix of ["entireio__cli__cd_95adddad32_0", "EntityProcess__agentv__00_34f597b72d_1", "mholtzscher__pi-herdr-subagents__1"]) {
        const f = ALL_REAL_FILES.find((x) => x.name.startsWith(prefix))!;
        const imported = await bonsai("import", realPath(f.agent, f.name), "--data-dir", dataDir);
        expect(imported.code, imported.stderr).toBe(0);
      }
      const listed = await json<{ id: string; contextTokens: number }[]>("ls", "--data-dir", dataDir);
      expect(listed).toHaveLength(3);
      const text = await bonsai("ls", "--data-dir", dataDir);
      expect(text.stdout).toContain("CONTEXT");
      for (const s of listed) {
        const r = await json<Report>("context", s.id, "--data-dir", dataDir);
        expect(s.contextTokens).toBe(r.contextTokens);
        expect(s.contextTokens).toBeGreaterThan(0);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("a Codex session is judged against its model's window", async () => {
    const file = realPath("codex", ALL_REAL_FILES.find((f) => f.name.startsWith("EntityProcess__agentv__00_34f597b72d_1"))!.name);
    const r = await json<Report>("context", file);
    expect(r).toMatchObject({ contextBasis: "reported", contextWindow: 121_600, contextWindowSource: "known-model" });
    expect(r.usage?.model).toBe("gpt-5.3-codex-spark");
  });

  it("an override saved with bonsai config sets the window of context and whatif alike", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bonsai-window-"));
    try {
      const set = await bonsai("config", "set", "model.contextWindowOverrides", "gpt-5.3-codex*=150000", "--data-dir", dataDir);
      expect(set.code, set.stderr).toBe(0);
      const file = realPath("codex", ALL_REAL_FILES.find((f) => f.name.startsWith("EntityProcess__agentv__00_34f597b72d_1"))!.name);
      const r = await json<Report>("context", file, "--data-dir", dataDir);
      expect(r).toMatchObject({ contextWindow: 150_000, contextWindowSource: "override" });
      const w = await json<{ settings: { contextWindow: number } }>("whatif", file, "--data-dir", dataDir);
      expect(w.settings.contextWindow).toBe(150_000);
      // a stored pi session, read through the store's reader: the override saved in its database applies
      const pi = ALL_REAL_FILES.find((x) => x.name.startsWith("mholtzscher__pi-herdr-subagents__1"))!;
      expect((await bonsai("import", realPath("pi", pi.name), "--data-dir", dataDir)).code).toBe(0);
      expect((await bonsai("config", "set", "model.contextWindowOverrides", "gpt-5.6*=400000", "--data-dir", dataDir)).code).toBe(0);
      const listed = await json<{ id: string }[]>("ls", "--data-dir", dataDir);
      const stored = await json<Report>("context", listed[0]!.id, "--data-dir", dataDir);
      expect(stored).toMatchObject({ contextWindow: 400_000, contextWindowSource: "override" });
      const storedWhatif = await json<{ settings: { contextWindow: number } }>("whatif", listed[0]!.id, "--data-dir", dataDir);
      expect(storedWhatif.settings.contextWindow).toBe(400_000);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
