/** What a pruning changes in what the model sees (prune-context.ts), beside the spec's tokensSaved. */
import { describe, expect, it } from "vitest";
import { contextFigureOf, contextOf, DEFAULT_PRUNE_CONFIG, littleGainNote, planPruning, pruneContextChange } from "../src/index";
import type { AgentMessage } from "../src/index";
import { A, BASE_TIME, SessionBuilder, U, toolResult, usage } from "./builders";

/** an assistant reply that reports no usage */
const unreported = (): AgentMessage => {
  const { usage: _usage, ...rest } = A(40);
  return rest as unknown as AgentMessage;
};

const config = { ...DEFAULT_PRUNE_CONFIG, protectTokens: 1_000, minimumSavings: 5_000 };
const output = (tokens: number) => toolResult("x".repeat(tokens * 4));

describe("pruneContextChange", () => {
  it("counts only outputs the model still sees: those a compaction summarized away save nothing there, and it says the gain is little", () => {
    const b = new SessionBuilder();
    b.msg(U(40)).msg(output(30_000)).msg(A(40)); // e0-e2: summarized away below
    b.compaction("the summary", "e4"); // e3
    // e4-e8 (e8 protected); the reply at e6 reports its usage after the compaction
    b.msg(U(40)).msg(output(2_000)).msg({ ...A(40, { usage: usage(50_000, 100) }), timestamp: BASE_TIME + 60_000 }).msg(U(40)).msg(output(3_000));
    const plan = planPruning(b.entries, config);
    expect(plan.prunedCount).toBe(2);
    const change = pruneContextChange(b.entries, "e8", plan, config);
    // the spec's saving counts the 30,000-token output the model no longer sees
    expect(plan.tokensSaved).toBeGreaterThan(30_000);
    // the model sees less by the kept 2,000-token output, less its notice
    const after = contextOf(b.entries.map((e) => (e.id === "e5" ? { ...e, message: toolResult("[Output truncated - 2000 tokens]") } : e)) as typeof b.entries, "e8");
    expect(change.stopsSeeingTokens).toBe(contextOf(b.entries, "e8").tokens - after.tokens);
    expect(change.stopsSeeingTokens).toBeLessThan(2_000);
    // the figure every panel leads with, before and after (the usage reported before the pruning still counts until the next reply)
    expect(contextFigureOf(contextOf(b.entries, "e8")).basis).toBe("reported");
    expect(change.contextTokensBefore).toBe(contextFigureOf(contextOf(b.entries, "e8")).contextTokens);
    expect(change.contextTokensAfter).toBe(contextFigureOf(after).contextTokens);
    expect(change.contextTokensAfter).toBe(change.contextTokensBefore);
    expect(change.gainsLittle).toBe(true);
    expect(littleGainNote(change)).toMatch(/^Little gain: the model would see only [\d,]+ tokens less/);
  });

  it("a pruning inside the live context gains what it saves, and nothing pruned gains nothing (not 'little')", () => {
    const b = new SessionBuilder();
    b.msg(U(40)).msg(output(20_000)).msg(unreported()).msg(U(40)).msg(output(3_000));
    const plan = planPruning(b.entries, config);
    const change = pruneContextChange(b.entries, "e4", plan, config);
    expect(change.stopsSeeingTokens).toBe(plan.tokensSaved);
    // no usage reported on the path: the figure is the estimate, and drops by all of it
    expect(change.contextTokensAfter).toBe(change.contextTokensBefore - change.stopsSeeingTokens);
    expect(change.gainsLittle).toBe(false);
    expect(littleGainNote(change)).toBeNull();
    const none = pruneContextChange(b.entries, "e4", planPruning(b.entries, { ...config, minimumSavings: 1_000_000 }), config);
    expect(none).toMatchObject({ stopsSeeingTokens: 0, gainsLittle: false });
    expect(none.contextTokensAfter).toBe(none.contextTokensBefore);
  });
});
