/**
 * The context figure (core contextFigureOf, compaction.md §2.6) in the app's data on the real Claude
 * Code and Codex sessions: the session list (and so its sorting) and What the model sees give the
 * same figure, the last usage the model reported on the leaf's path plus the estimate after it,
 * with the estimate of the messages beside it; the window is the recorded model's, and a Claude
 * session that went past 200K tokens is judged against the 1M window.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { setImmediate as tick } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import type { ContextPreview, SessionSummaryDto } from "@bonsai/ipc";
import type { Backend } from "../src/index";
import { importUpload, ok, useBackend } from "./support";

const real = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");
const FILES = ["claude-code", "codex"].flatMap((agent) => (fs.existsSync(path.join(real, agent)) ? fs.readdirSync(path.join(real, agent)).map((f) => path.join(real, agent, f)) : []));
if (FILES.length === 0) console.warn(`real Claude Code / Codex files not found under ${real}: context figure tests skipped`);

const current = useBackend((dataDir) => ({ PI_CODING_AGENT_DIR: path.join(dataDir, "pi-agent") }));
let backend: Backend;
beforeEach(() => {
  backend = current();
});

async function imported(name: string, bytes: Buffer): Promise<SessionSummaryDto> {
  const { results } = await importUpload(backend.dispatch, name, bytes);
  const id = results[0]?.sessionId as string;
  // the list counts a session's figures after answering when it runs out of time: ask until they are in
  for (;;) {
    const { sessions } = ok<{ sessions: SessionSummaryDto[] }>(await backend.dispatch("listSessions", {}));
    const s = sessions.find((x) => x.id === id) as SessionSummaryDto;
    if (s.contextTokens !== null) return s;
    await tick();
  }
}

describe.skipIf(FILES.length === 0)("the context figure of real Claude Code and Codex sessions in the app", () => {
  it.each(FILES.map((f) => [path.basename(f)]))("%s: the list and What the model sees show the reported usage plus the estimate after it", async (name) => {
    const file = FILES.find((f) => path.basename(f) === name) as string;
    const s = await imported(name, fs.readFileSync(file));
    const preview = ok<ContextPreview>(await backend.dispatch("getContextPreview", { sessionId: s.id }));
    expect(s.contextTokens).toBe(preview.agentTokens);
    expect(s.estimatedTokens).toBe(preview.tokens);
    const u = preview.usage;
    if (u && u.age !== "before-compaction") {
      expect(preview.basis).toBe("reported");
      expect(preview.agentTokens).toBe(u.tokens + u.trailingTokens);
      expect(preview.agentTokens).toBeGreaterThanOrEqual(u.tokens);
    } else {
      expect(preview.basis).toBe("estimate");
      expect(preview.agentTokens).toBe(preview.tokens);
    }
    // a Claude session past 200K tokens (ta93abe's claude-opus-4-8 session reports 246,892) is on the 1M window
    expect(preview.contextWindowSource).toBe(preview.usage && preview.usage.tokens > 200_000 ? "extended" : "known-model");
    expect(preview.overThreshold).toBe(preview.agentTokens > preview.threshold);
    // never shown above 100 % of its window (the file's evidence makes the window larger)
    expect(preview.agentTokens).toBeLessThanOrEqual(preview.contextWindow);
    // both exports lead with the same figure for the leaf
    for (const format of ["markdown", "html"] as const) {
      const exported = ok<{ url: string }>(await backend.dispatch("exportSession", { sessionId: s.id, format }));
      const download = backend.takeDownload(exported.url.slice("/download/".length))!;
      const text = fs.readFileSync(download.file, "utf8");
      download.done();
      expect(text, format).toContain(`What the model sees from the leaf: ${preview.agentTokens.toLocaleString("en-US")} tokens`);
    }
  });

  it("judges a Claude session that went past 200K tokens against the 1M window (threshold and bar)", async () => {
    const source = FILES.find((f) => path.basename(f).startsWith("entireio__cli__cd_95adddad32_0")) as string;
    // the same session, its last reply reporting 998,659 tokens (as a session on the 1M window does)
    const lines = fs.readFileSync(source, "utf8").split("\n");
    let last = -1;
    lines.forEach((l, i) => {
      if (l.includes('"type":"assistant"') && l.includes('"usage"')) last = i;
    });
    const line = JSON.parse(lines[last] as string) as { message: { usage: Record<string, number> } };
    line.message.usage = { input_tokens: 10, cache_creation_input_tokens: 1_000, cache_read_input_tokens: 997_049, output_tokens: 600 };
    lines[last] = JSON.stringify(line);
    const s = await imported("one-million.jsonl", Buffer.from(lines.join("\n")));
    const preview = ok<ContextPreview>(await backend.dispatch("getContextPreview", { sessionId: s.id }));
    expect(preview.usage?.tokens).toBe(998_659);
    // threshold and bar on the same 1M window: 99.9 % full and over its threshold (1M - reserve), as the agent found when it compacted
    expect(preview).toMatchObject({ contextWindow: 1_000_000, contextWindowSource: "extended", threshold: 1_000_000 - 16_384, overThreshold: true });
    expect(preview.agentTokens / preview.contextWindow).toBeGreaterThan(0.99);
  });

  it("an override in Preferences sets the window of the models it matches", async () => {
    ok(await backend.dispatch("setSettings", { patch: { model: { contextWindowOverrides: ["claude-opus-4-5*=500000"] } } }));
    const source = FILES.find((f) => path.basename(f).startsWith("entireio__cli__cd_95adddad32_0")) as string;
    const s = await imported(path.basename(source), fs.readFileSync(source));
    const preview = ok<ContextPreview>(await backend.dispatch("getContextPreview", { sessionId: s.id }));
    expect(preview).toMatchObject({ contextWindow: 500_000, contextWindowSource: "override" });
  });
});
