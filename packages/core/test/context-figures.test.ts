import { describe, expect, it } from "vitest";
import {
  agentContextTokens,
  contextOf,
  contextStepOfEntry,
  contextTokensAlongPath,
  contextTokensOfTree,
  entryContextTokens,
  getPath,
  reportedContextTokens,
  windowEvidenceOfPath,
  type SessionEntry,
} from "../src/index";
import { A, SessionBuilder, U, assistant, usage } from "./builders";

/** contextTokensOfTree over a whole session (parents by id), keyed by entry id. */
function byTree(entries: readonly SessionEntry[]): Map<string, number> {
  const at = new Map(entries.map((e, i) => [e.id, i]));
  const parent = entries.map((e) => (e.parentId === null ? -1 : (at.get(e.parentId) ?? -1)));
  const tokens = contextTokensOfTree(entries.map(contextStepOfEntry), parent);
  return new Map(entries.map((e, i) => [e.id, tokens[i] as number]));
}

/** Every node: the one-pass rule equals contextOf over its path, and the messages' sum. */
function expectAgreement(entries: readonly SessionEntry[]): void {
  const tree = byTree(entries);
  const index = { byId: new Map(entries.map((e) => [e.id, e])) };
  for (const e of entries) {
    const figures = contextOf(getPath(index, e.id), e.id);
    expect(tree.get(e.id), e.id).toBe(figures.tokens);
    expect(figures.messageTokens.reduce((n, t) => n + t, 0)).toBe(figures.tokens);
  }
}

describe("contextOf and contextTokensOfTree (one rule for every figure)", () => {
  it("a linear session: each node's context is the estimates up to it", () => {
    const s = new SessionBuilder().msg(U(40)).msg(A(80)).msg(U(4)).entry({ type: "model_change", model: "x/y" });
    expect([...byTree(s.entries).values()]).toEqual([10, 30, 31, 31]);
    expectAgreement(s.entries);
  });

  it("a compaction restarts at its summary plus the kept entries; later compactions replace earlier ones", () => {
    const s = new SessionBuilder()
      .msg(U(400)) // e0 100
      .msg(A(400)) // e1 100
      .msg(U(40)) // e2 10
      .msg(A(40)) // e3 10
      .compaction("s".repeat(20), "e2") // e4: 5 + kept e2, e3
      .msg(U(8)) // e5 2
      .compaction("t".repeat(12), undefined) // e6: nothing kept
      .msg(U(4)); // e7 1
    const tree = byTree(s.entries);
    expect(tree.get("e4")).toBe(5 + 10 + 10);
    expect(tree.get("e5")).toBe(5 + 10 + 10 + 2);
    expect(tree.get("e6")).toBe(3);
    expect(tree.get("e7")).toBe(4);
    expect(entryContextTokens(s.entries[4]!)).toBe(5);
    expectAgreement(s.entries);
  });

  it("branches: a compaction on one branch does not change the other; a firstKeptEntryId off the path keeps nothing", () => {
    const s = new SessionBuilder()
      .msg(U(40)) // e0
      .msg(A(40)) // e1
      .msg(U(40)) // e2 (branch 1)
      .compaction("s".repeat(8), "e2") // e3
      .msg(U(40), { id: "e4", parentId: "e1" }) // e4 (branch 2)
      .compaction("t".repeat(8), "e2"); // e5: e2 is not on this path
    const tree = byTree(s.entries);
    expect(tree.get("e3")).toBe(2 + 10);
    expect(tree.get("e4")).toBe(30);
    expect(tree.get("e5")).toBe(2);
    expectAgreement(s.entries);
  });

  it("along one path equals the tree rule", () => {
    const s = new SessionBuilder().msg(U(40)).msg(A(40)).compaction("s".repeat(8), "e1").msg(U(8));
    expect([...contextTokensAlongPath(s.entries.map(contextStepOfEntry))]).toEqual([...byTree(s.entries).values()]);
  });

  it("reports the last usage on the path with its age; the agent uses it only when it is newer than the latest compaction", () => {
    const s = new SessionBuilder().msg(U(40)).msg(assistant("x".repeat(40), { usage: usage(900, 100) }));
    const fresh = contextOf(s.entries, "e1");
    expect(fresh.usage).toEqual({ tokens: 1000, entryId: "e1", age: "no-compaction", trailingTokens: 0, model: "m" });
    expect(agentContextTokens(fresh)).toBe(1000);

    s.compaction("s".repeat(8), "e1").msg(U(8));
    const stale = contextOf(s.entries, "e3");
    expect(stale.usage).toMatchObject({ entryId: "e1", age: "before-compaction" });
    expect(agentContextTokens(stale)).toBe(stale.tokens);
  });

  it("a reply that reports a usage of all zeros (aborted before the model counted) is no report: the one before it stays in force", () => {
    const s = new SessionBuilder().msg(U(40)).msg(assistant("x".repeat(40), { usage: usage(900, 100) })).msg(U(8)).msg(assistant("", { usage: usage(0, 0), stop: "aborted" }));
    const figures = contextOf(s.entries, "e3");
    expect(figures.usage).toMatchObject({ tokens: 1000, entryId: "e1" });
    expect(agentContextTokens(figures)).toBe(1000 + 2 + 0);
    expect(windowEvidenceOfPath(s.entries)).toEqual(windowEvidenceOfPath(s.entries.slice(0, 2)));
    expect(reportedContextTokens(s.entries[3] as SessionEntry)).toBeUndefined();
    expect(reportedContextTokens(s.entries[1] as SessionEntry)).toBe(1000);
    // an aborted reply that did report a usage counts, as §2.6 counts it
    const reported = new SessionBuilder().msg(U(40)).msg(assistant("", { usage: usage(500, 0), stop: "aborted" }));
    expect(contextOf(reported.entries, "e1").usage).toMatchObject({ tokens: 500, entryId: "e1" });
  });

  it("null leaf: nothing is sent", () => {
    const s = new SessionBuilder().msg(U(40));
    expect(contextOf(s.entries, null)).toMatchObject({ tokens: 0, usage: null });
  });
});
