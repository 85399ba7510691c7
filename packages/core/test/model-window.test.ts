/** The window a session is judged against, from its recorded model (model-window.ts). */
import { describe, expect, it } from "vitest";
import { contextWindowOf, estimateTokens, windowEvidenceOf, windowOfSession, parseContextWindowOverride, validateSettingsPatch, type AgentMessage } from "../src/index";

const FALLBACK = 200_000;

describe("contextWindowOf", () => {
  it("knows Claude, GPT/Codex and Gemini families, with or without a provider prefix", () => {
    expect(contextWindowOf("claude-opus-4-5-20251101", { fallback: FALLBACK })).toEqual({ contextWindow: 200_000, source: "known-model", model: "claude-opus-4-5-20251101" });
    expect(contextWindowOf("anthropic/claude-sonnet-4-20250514", { fallback: FALLBACK }).contextWindow).toBe(200_000);
    expect(contextWindowOf("gpt-5.3-codex-spark", { fallback: FALLBACK }).contextWindow).toBe(121_600);
    expect(contextWindowOf("openai-codex/gpt-5.4", { fallback: FALLBACK }).contextWindow).toBe(258_400);
    expect(contextWindowOf("gpt-5.6-sol", { fallback: FALLBACK }).contextWindow).toBe(353_400);
    expect(contextWindowOf("gemini-2.5-pro", { fallback: FALLBACK }).contextWindow).toBe(1_048_576);
  });

  it("puts a Claude session that went past the standard window on the 1M window, and an id that says [1m] too", () => {
    expect(contextWindowOf("claude-opus-4-6", { fallback: FALLBACK, largestSeenTokens: 998_659 })).toMatchObject({ contextWindow: 1_000_000, source: "extended" });
    expect(contextWindowOf("claude-opus-4-6", { fallback: FALLBACK, largestSeenTokens: 150_000 })).toMatchObject({ contextWindow: 200_000, source: "known-model" });
    expect(contextWindowOf("claude-sonnet-4-5[1m]", { fallback: FALLBACK })).toMatchObject({ contextWindow: 1_000_000, source: "known-model" });
  });

  it("knows the newer Claude ids (claude-opus-4-8, claude-opus-5) and lets the file's evidence win over any window assumed", () => {
    // the case: claude-opus-5 with a compaction recorded at 998,659 tokens is on the 1M window, not at 499 % of 200K
    expect(contextWindowOf("claude-opus-5", { fallback: FALLBACK, largestSeenTokens: 998_659 })).toMatchObject({ contextWindow: 1_000_000, source: "extended" });
    expect(contextWindowOf("claude-opus-4-8", { fallback: FALLBACK, largestSeenTokens: 246_892 })).toMatchObject({ contextWindow: 1_000_000, source: "extended" });
    expect(contextWindowOf("claude-opus-5", { fallback: FALLBACK })).toMatchObject({ contextWindow: 200_000, source: "known-model" });
    // a Claude family the table does not name (a real Entire session of claude-fable-5 reported 227,236 tokens):
    // past 200K it is on 1M, Claude's only larger window, not at "100 %" of a window equal to its own figure
    expect(contextWindowOf("claude-fable-5", { fallback: FALLBACK, largestSeenTokens: 227_236 })).toMatchObject({ contextWindow: 1_000_000, source: "extended" });
    expect(contextWindowOf("claude-haiku-4-5", { fallback: FALLBACK, largestSeenTokens: 150_000 })).toMatchObject({ contextWindow: 200_000, source: "known-model" });
    expect(contextWindowOf("claude-fable-5", { fallback: FALLBACK, largestSeenTokens: 1_200_000 })).toMatchObject({ contextWindow: 1_200_000, source: "recorded" });
    // a window with no larger one known: the recorded figure proves at least itself
    expect(contextWindowOf("gpt-5.5", { fallback: FALLBACK, largestSeenTokens: 300_000 })).toEqual({ contextWindow: 300_000, source: "recorded", model: "gpt-5.5" });
    expect(contextWindowOf("my-local-model", { fallback: 32_000, largestSeenTokens: 40_000 })).toMatchObject({ contextWindow: 40_000, source: "recorded" });
    expect(contextWindowOf("claude-opus-4-5", { fallback: FALLBACK, overrides: ["claude-*=100000"], largestSeenTokens: 150_000 })).toMatchObject({ contextWindow: 150_000, source: "recorded" });
    // the evidence of a path: its last usage and its latest compaction's tokensBefore, the larger
    expect(windowEvidenceOf({ tokens: 5_000, model: "claude-opus-5" }, { tokensBefore: 998_659 })).toEqual({ model: "claude-opus-5", largestSeenTokens: 998_659 });
    expect(windowOfSession(windowEvidenceOf(null, null), { contextWindow: 128_000, contextWindowOverrides: [] })).toEqual({ contextWindow: 128_000, source: "settings", model: "" });
  });

  it("takes the first matching override, and the settings' window for an unknown or unrecorded model", () => {
    const overrides = ["claude-opus-*=500000", "claude-*=300_000"];
    expect(contextWindowOf("claude-opus-4-5", { fallback: FALLBACK, overrides })).toMatchObject({ contextWindow: 500_000, source: "override" });
    expect(contextWindowOf("claude-haiku-4", { fallback: FALLBACK, overrides })).toMatchObject({ contextWindow: 300_000, source: "override" });
    expect(contextWindowOf("my-local-model", { fallback: 32_000 })).toMatchObject({ contextWindow: 32_000, source: "settings" });
    expect(contextWindowOf("", { fallback: 32_000 })).toMatchObject({ contextWindow: 32_000, source: "settings" });
  });

  it("refuses an override that is not \"pattern=tokens\" with one sentence", () => {
    expect(parseContextWindowOverride("claude-*=1000000")).toEqual({ pattern: "claude-*", contextWindow: 1_000_000 });
    expect(parseContextWindowOverride("claude")).toMatch(/is not "model pattern=tokens"/);
    expect(parseContextWindowOverride("=5")).toMatch(/is not/);
    const r = validateSettingsPatch({ model: { contextWindowOverrides: ["gpt-5=lots"] } });
    expect(r.ok).toBe(false);
  });
});

describe("the estimate of an agent's instructions", () => {
  it("counts a Codex developer message (agentInstructions), and a pi custom message 0 as the reference does", () => {
    const developer = { role: "custom", customType: "developer", content: [{ type: "text", text: "x".repeat(400) }], display: false, agentInstructions: true, timestamp: 0 } as unknown as AgentMessage;
    const piCustom = { role: "custom", customType: "developer", content: "x".repeat(400), display: false, timestamp: 0 } as unknown as AgentMessage;
    expect(estimateTokens(developer)).toBe(100);
    expect(estimateTokens(piCustom)).toBe(0);
  });
});
