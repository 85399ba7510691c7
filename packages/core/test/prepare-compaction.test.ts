import { describe, expect, it } from "vitest";
import { prepareCompaction } from "../src/prepare-compaction";
import { computeFileLists } from "../src/file-ops";
import { convertToLlm } from "../src/convert";
import { serializeConversation } from "../src/serialize-conversation";
import { A, AT, C, MC, S, T, TL, U, call, chain, usage } from "./support/notation";
import { planShape } from "./support/plan-shape";

describe("G. prepareCompaction", () => {
  it("case 64: already compacted", () => {
    expect(prepareCompaction(chain(U("u"), A("a"), C("S", "e0")), S(1000))).toBeUndefined();
  });

  it("case 65: empty path", () => {
    expect(prepareCompaction([], S(1000))).toBeUndefined();
  });

  it("case 66: ratio adaptation", () => {
    const entries = chain(U(400), A(400), U(400), A(400, usage(1000, 50, 200, 0)));
    const prep = prepareCompaction(entries, S(300));
    expect(prep?.estimatedWindowTokens).toBe(400);
    expect(planShape(prep)).toEqual({ firstKeptEntryId: "e3", isSplitTurn: true, tokensBefore: 1250, keep: 100, summarize: 2, prefix: 1, recent: 1 });
    expect(prep?.summarizeEntryIds).toEqual(["e0", "e1"]);
    expect(prep?.turnPrefixEntryIds).toEqual(["e2"]);
    expect(prep?.keptEntryIds).toEqual(["e3"]);
  });

  it("case 67: ratio <= 1 keeps the configured budget", () => {
    const entries = chain(U(400), A(400), U(400), A(400, usage(100, 50, 0, 0)));
    const prep = prepareCompaction(entries, S(300));
    expect(planShape(prep)).toEqual({ firstKeptEntryId: "e1", isSplitTurn: true, tokensBefore: 150, keep: 300, summarize: 0, prefix: 1, recent: 3 });
  });

  it("case 68: tokensBefore skips aborted and error assistants", () => {
    const entries = chain(
      U(400),
      A(400, usage(500, 10)),
      U("x"),
      A("y", usage(9999, 1), "aborted"),
      U("z"),
      A("", usage(8888, 1), "error"),
    );
    expect(prepareCompaction(entries, S(1))?.tokensBefore).toBe(510);
  });

  it("case 69: usage without totalTokens", () => {
    const entries = chain(U(400), A(400, { input: 10, output: 5, cacheRead: 1, cacheWrite: 1 }));
    expect(prepareCompaction(entries, S(1000))?.tokensBefore).toBe(17);
  });

  const case70 = (compactionExtra: Record<string, unknown>) =>
    chain(
      U("a"),
      AT(call("read", { path: "r1" }), call("edit", { path: "e1" })),
      T("ok"),
      C("S", "e0", { details: { readFiles: ["old-r"], modifiedFiles: ["old-m"] }, ...compactionExtra }),
      U(4000),
      AT(call("read", { path: "e1" }), call("write", { path: "w1" }), call("read", { path: "r2" })),
      T("ok"),
      U(4000),
      A(4000),
    );

  it("case 70: cumulative file ops", () => {
    const prep = prepareCompaction(case70({}), S(1000));
    expect(prep?.firstKeptEntryId).toBe("e8");
    expect(prep?.isSplitTurn).toBe(true);
    expect(prep?.messagesToSummarize).toHaveLength(3);
    expect(prep?.summarizeEntryIds).toEqual(["e4", "e5", "e6"]);
    expect(prep?.turnPrefixMessages).toHaveLength(1);
    expect(prep?.turnPrefixEntryIds).toEqual(["e7"]);
    expect(prep?.previousSummary).toBe("S");
    expect(prep?.previousCompactionId).toBe("e3");
    expect(prep?.boundaryStart).toBe(4);
    expect(computeFileLists(prep!.fileOps)).toEqual({ readFiles: ["e1", "old-r", "r2"], modifiedFiles: ["old-m", "w1"] });
  });

  it("case 71: an extension compaction's details are not used", () => {
    const prep = prepareCompaction(case70({ fromExtension: true }), S(1000));
    expect(computeFileLists(prep!.fileOps)).toEqual({ readFiles: ["e1", "r2"], modifiedFiles: ["w1"] });
  });

  it("case 72: only metadata since the last compaction", () => {
    const prep = prepareCompaction(chain(U("a"), A("b"), C("S", "e0"), TL("low"), MC("a/b")), S(10));
    expect(prep?.firstKeptEntryId).toBe("e3");
    expect(prep?.isSplitTurn).toBe(false);
    expect(prep?.messagesToSummarize).toHaveLength(0);
    expect(prep?.recentMessages).toHaveLength(0);
    expect(prep?.previousSummary).toBe("S");
    expect(prep?.tokensBefore).toBe(0);
    expect(prep?.keptEntryIds).toEqual(["e3", "e4"]);
  });

  it("case 73: small session", () => {
    const prep = prepareCompaction(chain(U("hello"), A("hi")), S(20000));
    expect(prep?.firstKeptEntryId).toBe("e0");
    expect(prep?.isSplitTurn).toBe(false);
    expect(prep?.messagesToSummarize).toHaveLength(0);
    expect(prep?.recentMessages).toHaveLength(2);
    expect(prep?.previousSummary).toBeUndefined();
  });

  it("recent messages contribute no file operations", () => {
    const entries = chain(U(4000), A(4000), U("u"), AT(call("edit", { path: "recent.ts" })), T("ok"));
    const prep = prepareCompaction(entries, S(5));
    expect(prep?.recentMessages.length).toBeGreaterThan(0);
    expect(computeFileLists(prep!.fileOps).modifiedFiles).not.toContain("recent.ts");
  });

  it("carries the settings it was given", () => {
    const settings = { ...S(1000), autoContinue: false, remoteEndpoint: "http://127.0.0.1:9/x" };
    expect(prepareCompaction(chain(U("a"), A("b")), settings)?.settings).toBe(settings);
  });
});

describe("J. the preparation side of compact() (the LLM part is the engine's)", () => {
  it("case 80: split turn preparation, summarized conversation and file lists", () => {
    const entries = chain(
      U("hello"),
      AT(call("read", { path: "a.ts" })),
      T("file a"),
      U(4000),
      AT(call("edit", { path: "b.ts", oldText: "x", newText: "y" })),
      T("done"),
      A(4000),
    );
    const prep = prepareCompaction(entries, S(1000));
    expect(planShape(prep)).toEqual({ firstKeptEntryId: "e6", isSplitTurn: true, tokensBefore: 0, keep: 1000, summarize: 3, prefix: 3, recent: 1 });
    expect(serializeConversation(convertToLlm(prep!.messagesToSummarize))).toBe('[User]: hello\n\n[Assistant tool calls]: read(path="a.ts")\n\n[Tool result]: file a');
    expect(serializeConversation(convertToLlm(prep!.turnPrefixMessages))).toBe(
      `[User]: ${"x".repeat(4000)}\n\n[Assistant tool calls]: edit(path="b.ts", oldText="x", newText="y")\n\n[Tool result]: done`,
    );
    expect(computeFileLists(prep!.fileOps)).toEqual({ readFiles: ["a.ts"], modifiedFiles: ["b.ts"] });
  });

  it("case 81: iterative preparation keeps from e5 without a split", () => {
    const prep = prepareCompaction(chain(U("a"), A("b"), C("PREV", "e0"), U(4000), A(400), U(4000), A(400)), S(1000));
    expect(prep).toMatchObject({ firstKeptEntryId: "e5", isSplitTurn: false, previousSummary: "PREV", summarizeEntryIds: ["e3", "e4"] });
  });

  it("case 83: split with empty history", () => {
    const entries = chain(U("a"), A("b"), C("P", "e0", { details: { readFiles: ["old.ts"] } }), U(400), AT(call("read", { path: "n.ts" })), T("r"), A(4000));
    const prep = prepareCompaction(entries, S(1000));
    expect(prep).toMatchObject({ isSplitTurn: true, summarizeEntryIds: [], turnPrefixEntryIds: ["e3", "e4", "e5"] });
    expect(computeFileLists(prep!.fileOps)).toEqual({ readFiles: ["n.ts", "old.ts"], modifiedFiles: [] });
  });

  it("case 85: split at e5 with the turn starting at e2", () => {
    const prep = prepareCompaction(chain(U(4000), A(400), U(400), AT(call("read", { path: "a" })), T("r"), A(4000)), S(1000));
    expect(prep).toMatchObject({ firstKeptEntryId: "e5", firstKeptEntryIndex: 5, turnStartIndex: 2, isSplitTurn: true });
  });
});
