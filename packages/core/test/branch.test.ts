import { describe, expect, it } from "vitest";
import {
  branchBudgetStep,
  branchSummaryTokenBudget,
  collectEntriesForBranchSummary,
  getBranchMessageFromEntry,
  planBranch,
  prepareBranchEntries,
} from "../src/branch";
import { computeFileLists } from "../src/file-ops";
import { buildIndex } from "../src/tree";
import { DEFAULT_SETTINGS } from "../src/settings";
import type { SessionEntry } from "../src/entries";
import { A, AC, AT, BS, C, CM, L, MC, T, U, call, chain, tree } from "./support/notation";

// Tree for 97-100: A:U"A" → B:A"B"[read r.ts] → C:U"C" → D:A"D"[write w.ts], and A → E:A"E" → F:U"F"
const caseTree = () =>
  tree(
    ["A", null, U("A")],
    ["B", "A", AC([{ type: "text", text: "B" }, call("read", { path: "r.ts" })])],
    ["C", "B", U("C")],
    ["D", "C", AC([{ type: "text", text: "D" }, call("write", { path: "w.ts", content: "z" })])],
    ["E", "A", A("E")],
    ["F", "E", U("F")],
  );

const collect = (entries: SessionEntry[], from: string | null, to: string) => {
  const result = collectEntriesForBranchSummary(buildIndex(entries), from, to);
  return { commonAncestorId: result.commonAncestorId, ids: result.entries.map((e) => e.id) };
};

const roles = (entries: SessionEntry[], budget?: number) => prepareBranchEntries(entries, budget).messages.map((m) => m.role);

describe("M. branch summarization", () => {
  it("case 97: collect D → F", () => {
    expect(collect(caseTree(), "D", "F")).toEqual({ commonAncestorId: "A", ids: ["B", "C", "D"] });
  });

  it("case 98: target is an ancestor", () => {
    expect(collect(caseTree(), "D", "B")).toEqual({ commonAncestorId: "B", ids: ["C", "D"] });
  });

  it("case 99: target is a descendant", () => {
    expect(collect(caseTree(), "B", "D")).toEqual({ commonAncestorId: "B", ids: [] });
  });

  it("case 100: no old leaf / disjoint roots", () => {
    expect(collect(caseTree(), null, "D")).toEqual({ commonAncestorId: null, ids: [] });
    const disjoint = tree(["r1", null, U("r1")], ["r2", "r1", A("r2")], ["s1", null, U("s1")]);
    expect(collect(disjoint, "r2", "s1")).toEqual({ commonAncestorId: null, ids: ["r1", "r2"] });
  });

  it("case 101: budget and the breaking message's file ops", () => {
    const entries = chain(U(400), AT(call("read", { path: "old.ts" })), T("r"), U(2000), A(2000));
    const prepared = prepareBranchEntries(entries, 1000);
    expect(prepared.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(prepared.includedEntryIds).toEqual(["e3", "e4"]);
    expect(prepared.totalTokens).toBe(1000);
    expect(computeFileLists(prepared.fileOps).readFiles).toEqual(["old.ts"]);
  });

  it("case 102: a summary near the budget is still included", () => {
    const entries = chain(BS("x".repeat(2000), "root", { details: { readFiles: ["bs-r"], modifiedFiles: ["bs-m"] } }), U(2000), A(1200));
    const prepared = prepareBranchEntries(entries, 1000);
    expect(prepared.messages.map((m) => m.role)).toEqual(["branchSummary", "user", "assistant"]);
    expect(prepared.totalTokens).toBe(1300);
    expect(computeFileLists(prepared.fileOps)).toEqual({ readFiles: ["bs-r"], modifiedFiles: ["bs-m"] });
  });

  it("case 103: not below 90 %", () => {
    const prepared = prepareBranchEntries(chain(BS("x".repeat(2000)), U(2000), A(1600)), 1000);
    expect(prepared.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(prepared.totalTokens).toBe(900);
  });

  it("case 104: compaction entries become summaries", () => {
    const prepared = prepareBranchEntries(chain(C("x".repeat(4000), "e0"), U(2000), A(1200)), 1000);
    expect(prepared.messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);
    expect(prepared.totalTokens).toBe(1800);
  });

  it("case 105: details sources (extension summaries and compactions give no files)", () => {
    const entries = chain(
      BS("b", "root", { fromExtension: true, details: { readFiles: ["ext"] } }),
      C("c", "e0", { details: { readFiles: ["cr"], modifiedFiles: ["cm"] } }),
      U("u"),
    );
    const prepared = prepareBranchEntries(entries);
    expect(prepared.messages.map((m) => m.role)).toEqual(["branchSummary", "compactionSummary", "user"]);
    expect(computeFileLists(prepared.fileOps)).toEqual({ readFiles: [], modifiedFiles: [] });
  });

  it("case 106: skipped entry kinds", () => {
    const entries = chain(U("a"), T("tool"), MC("a/b"), L("e0", "x"), CM("cm"), A("b"));
    expect(roles(entries)).toEqual(["user", "custom", "assistant"]);
    expect(prepareBranchEntries(entries).totalTokens).toBe(2);
    expect(prepareBranchEntries(entries).includedEntryIds).toEqual(["e0", "e4", "e5"]);
  });

  it("case 110: budget from window", () => {
    expect(branchSummaryTokenBudget(0, DEFAULT_SETTINGS.branchSummary.reserveTokens)).toBe(111616);
    expect(branchSummaryTokenBudget(undefined, 16384)).toBe(111616);
    expect(branchSummaryTokenBudget(200000, 16384)).toBe(183616);
  });

  it("the budget rule for the next message, from the newest (what a store applies to its rows)", () => {
    expect(branchBudgetStep(0, 5000, false, 0)).toBe("take");
    expect(branchBudgetStep(600, 400, false, 1000)).toBe("take");
    expect(branchBudgetStep(600, 401, false, 1000)).toBe("stop");
    expect(branchBudgetStep(600, 401, true, 1000)).toBe("last");
    expect(branchBudgetStep(900, 401, true, 1000)).toBe("stop");
  });

  it("planBranch: the plan of a move without its messages", () => {
    const entries = caseTree();
    const plan = planBranch(buildIndex(entries), "D", "F", 0);
    const prepared = prepareBranchEntries(collectEntriesForBranchSummary(buildIndex(entries), "D", "F").entries, 0);
    expect(plan.commonAncestorId).toBe("A");
    expect(plan.entryIds.toArray()).toEqual(["B", "C", "D"]);
    expect(plan.includedEntryIds).toEqual(prepared.includedEntryIds);
    expect(plan.totalTokens).toBe(prepared.totalTokens);
    expect(computeFileLists(plan.fileOps)).toEqual({ readFiles: ["r.ts"], modifiedFiles: ["w.ts"] });
  });

  it("a non-positive budget is unlimited", () => {
    const entries = chain(U(4000), A(4000));
    expect(roles(entries, 0)).toEqual(["user", "assistant"]);
    expect(roles(entries, -5)).toEqual(["user", "assistant"]);
  });

  it("branch variant maps compactions and drops tool results", () => {
    const [c, t] = chain(C("sum", "e0", { shortSummary: "short" }), T("r"));
    expect(getBranchMessageFromEntry(c as SessionEntry)).toMatchObject({ role: "compactionSummary", summary: "sum", shortSummary: "short", tokensBefore: 1000 });
    expect(getBranchMessageFromEntry(t as SessionEntry)).toBeUndefined();
  });

  it("stops on a parent cycle instead of spinning", () => {
    const cyclic = tree(["a", "b", U("a")], ["b", "a", A("b")], ["t", null, U("t")]);
    expect(collect(cyclic, "b", "t")).toEqual({ commonAncestorId: null, ids: ["a", "b"] });
  });
});
