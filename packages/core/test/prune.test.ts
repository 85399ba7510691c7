import { describe, expect, it } from "vitest";
import {
  CHECKOUT_PROTECTED_TOOLS,
  DEFAULT_PRUNE_CONFIG,
  applyPruning,
  nothingToPruneReason,
  planPruning,
  prunedNotice,
  pruneSavings,
} from "../src/prune";
import type { MessageEntry, SessionEntry } from "../src/entries";
import { T, TR, U, chain, image, x } from "./support/notation";

const CHECKOUT = { ...DEFAULT_PRUNE_CONFIG, protectedTools: CHECKOUT_PROTECTED_TOOLS };
const NOW = 1_760_000_000_000;

const case90 = () => chain(U("q"), T(100000, "bash"), T(100000, "read"), T(100000, "skill"), T(160000, "bash"), T(80000, "bash"));

function messageOf(entries: SessionEntry[], id: string) {
  return (entries.find((e) => e.id === id) as MessageEntry).message;
}

describe("L. pruning", () => {
  it("case 90: normative default protects read and skill", () => {
    const entries = case90();
    const snapshot = JSON.stringify(entries);
    const plan = planPruning(entries);
    expect(plan).toMatchObject({ prunedCount: 1, tokensSaved: 24991 });
    expect(plan.candidates.map((c) => c.entryId)).toEqual(["e1"]);
    const pruned = applyPruning(entries, plan, NOW);
    expect(pruned).toHaveLength(1);
    expect(pruned[0]?.message.content).toEqual([{ type: "text", text: "[Output truncated - 25000 tokens]" }]);
    expect(pruned[0]?.message.prunedAt).toBe(NOW);
    expect(pruned[0]?.message.toolName).toBe("bash");
    expect(JSON.stringify(entries)).toBe(snapshot); // the originals are untouched
  });

  it("case 91: checkout default [skill] prunes read results too", () => {
    const entries = case90();
    const plan = planPruning(entries, CHECKOUT);
    expect(plan).toMatchObject({ prunedCount: 2, tokensSaved: 49982 });
    expect(plan.candidates.map((c) => c.entryId)).toEqual(["e1", "e2"]);
    const pruned = applyPruning(entries, plan, NOW);
    expect(pruned.map((p) => p.message.prunedAt)).toEqual([NOW, NOW]);
  });

  it("case 92: minimum savings", () => {
    const below = planPruning(chain(U("q"), T(80000), T(160000)));
    expect(below).toMatchObject({ prunedCount: 0, tokensSaved: 0, candidates: [], potentialTokensSaved: 19991, potentialCount: 1 });
    const entries = chain(U("q"), T(80100), T(160000));
    const plan = planPruning(entries);
    expect(plan).toMatchObject({ prunedCount: 1, tokensSaved: 20016 });
    expect(applyPruning(entries, plan, NOW)[0]?.message.content).toEqual([{ type: "text", text: "[Output truncated - 20025 tokens]" }]);
  });

  it("case 93: images count 1200 tokens and are removed", () => {
    const entries = chain(U("q"), TR([image(), { type: "text", text: x(80000) }]), T(160000));
    const plan = planPruning(entries);
    expect(plan).toMatchObject({ prunedCount: 1, tokensSaved: 21191 });
    expect(applyPruning(entries, plan, NOW)[0]?.message.content).toEqual([{ type: "text", text: "[Output truncated - 21200 tokens]" }]);
  });

  it("case 94: already pruned results count but are never re-pruned", () => {
    const entries = chain(U("q"), T(100000), T(x(33), "bash", { prunedAt: 1 }), T(160000));
    const plan = planPruning(entries);
    expect(plan).toMatchObject({ prunedCount: 1, tokensSaved: 24991 });
    expect(plan.candidates.map((c) => c.entryId)).toEqual(["e1"]);
    expect(messageOf(entries, "e2")).toMatchObject({ prunedAt: 1 });
  });

  it("case 95: non-tool entries are ignored", () => {
    const plan = planPruning(chain(T(100000), U(400000), T(160000)));
    expect(plan).toMatchObject({ prunedCount: 1, tokensSaved: 24991 });
    expect(plan.candidates.map((c) => c.entryId)).toEqual(["e0"]);
  });

  it("notice and savings arithmetic", () => {
    expect(prunedNotice(25000)).toBe("[Output truncated - 25000 tokens]");
    expect(pruneSavings(25000)).toBe(24991);
    expect(pruneSavings(3)).toBe(0);
  });

  it("applyPruning refuses a plan that does not match the entries", () => {
    const entries = case90();
    const plan = planPruning(entries);
    expect(() => applyPruning(entries.slice(2), plan, NOW)).toThrow(/does not match/);
  });
});

describe("why a plan prunes nothing", () => {
  it("says how many results would save how little, against the minimum, with grouped digits", () => {
    const plan = { prunedCount: 0, potentialCount: 8, potentialTokensSaved: 17361 };
    expect(nothingToPruneReason(plan, { minimumSavings: 20000 })).toBe("Nothing to prune: 8 results would save only 17,361 tokens (minimum 20,000).");
    expect(nothingToPruneReason({ ...plan, potentialCount: 1 }, { minimumSavings: 20000 })).toBe("Nothing to prune: 1 result would save only 17,361 tokens (minimum 20,000).");
  });

  it("says when no result is unprotected, and has no reason when the plan prunes", () => {
    expect(nothingToPruneReason({ prunedCount: 0, potentialCount: 0, potentialTokensSaved: 0 }, DEFAULT_PRUNE_CONFIG)).toBe("Nothing to prune: no unprotected tool result.");
    const plan = planPruning(case90(), CHECKOUT);
    expect(plan.prunedCount).toBeGreaterThan(0);
    expect(nothingToPruneReason(plan, CHECKOUT)).toBeNull();
  });
});
