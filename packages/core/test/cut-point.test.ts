import { describe, expect, it } from "vitest";
import {
  findCutPoint,
  findTurnStartIndex,
  findValidCutPoints,
  getCompactionMessageFromEntry,
  isValidCutPoint,
} from "../src/cut-point";
import { prepareCompaction } from "../src/prepare-compaction";
import type { SessionEntry } from "../src/entries";
import { A, AT, BS, BX, C, CM, CU, MC, S, T, TL, U, call, chain } from "./support/notation";

const cut = (entries: SessionEntry[], keep: number, start = 0, end = entries.length) => findCutPoint(entries, start, end, keep);
const result = (firstKeptEntryIndex: number, turnStartIndex: number, isSplitTurn: boolean) => ({
  firstKeptEntryIndex,
  turnStartIndex,
  isSplitTurn,
});

describe("F. findCutPoint", () => {
  it("case 51: no valid cut point", () => {
    expect(cut(chain(T(10), T(10)), 1)).toEqual(result(0, -1, false));
    expect(cut(chain(A("a")), 1000)).toEqual(result(0, -1, false));
  });

  it("case 52: everything fits", () => {
    const entries = chain(U("1"), A("a", { input: 0, output: 50, cacheRead: 500, cacheWrite: 0 }), U("2"), A("b", { input: 0, output: 50, cacheRead: 1000, cacheWrite: 0 }));
    expect(cut(entries, 50000)).toEqual(result(0, -1, false));
  });

  it("case 53: exact threshold", () => {
    expect(cut(chain(U(400), A(400), U(400), A(400)), 200)).toEqual(result(2, -1, false));
  });

  it("case 54: one token more", () => {
    const entries = chain(U(400), A(400), U(400), A(400));
    expect(cut(entries, 201)).toEqual(result(1, 0, true));
    expect(cut(entries, 400)).toEqual(result(0, -1, false));
    expect(cut(entries, 401)).toEqual(result(0, -1, false));
  });

  it("case 55: budget crossed after the last cut point falls back to the first cut point", () => {
    expect(cut(chain(U(40), A(40), T(4000), T(4000)), 500)).toEqual(result(0, -1, false));
  });

  it("case 56: walk-back onto model_change", () => {
    const entries = chain(U(400), A(400), MC("openai/gpt"), U(4000), A(40));
    expect(cut(entries, 1000)).toEqual(result(2, 0, true));
    const prep = prepareCompaction(entries, S(1000));
    expect(prep?.firstKeptEntryId).toBe("e2");
    expect(prep?.messagesToSummarize).toHaveLength(0);
    expect(prep?.turnPrefixMessages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(prep?.turnPrefixEntryIds).toEqual(["e0", "e1"]);
  });

  it("case 57: walk-back onto custom_message", () => {
    expect(cut(chain(U(400), A(400), CM("hi"), U(4000), A(40)), 1000)).toEqual(result(2, 2, true));
  });

  it("case 58: cut at bashExecution is a degenerate split", () => {
    expect(cut(chain(U(400), A(400), BX("ls", "x".repeat(3996)), A(40)), 1000)).toEqual(result(2, 2, true));
  });

  it("case 59: standard split", () => {
    const entries = chain(U(400), A(400), U(400), AT(call("read", { path: "a" })), T(4000), A(4000));
    expect(cut(entries, 1500)).toEqual(result(5, 2, true));
  });

  it("case 60: compaction boundary stops the walk-back at start", () => {
    const entries = chain(U(400), A(400), C("S", "e0"), TL("low"), U(4000), A(40));
    expect(cut(entries, 1000, 3)).toEqual(result(3, -1, false));
  });

  it("case 61: walk-back onto branch_summary", () => {
    expect(cut(chain(U(400), A(400), BS("bs", "e1"), U(4000), A(40)), 1000)).toEqual(result(2, 2, true));
  });

  it("case 62: custom role is neither counted nor a cut point (omp)", () => {
    expect(cut(chain(U(400), A(400), CU(4000), A(40)), 150)).toEqual(result(0, -1, false));
  });

  it("case 63: leading metadata", () => {
    expect(cut(chain(TL("high"), MC("a/b"), U(4000), A(40)), 1000)).toEqual(result(0, -1, false));
  });
});

describe("cut-point helpers", () => {
  it("valid cut points never include tool results, custom, pythonExecution or fileMention messages", () => {
    const entries = chain(
      U("u"),
      AT(call("bash", { command: "ls" })),
      T("r"),
      CU(4),
      BX("ls", "o"),
      CM("c"),
      BS("b"),
      C("s", "e0"),
      TL("low"),
    );
    expect(findValidCutPoints(entries, 0, entries.length)).toEqual([0, 1, 4, 5, 6]);
    expect(isValidCutPoint(entries[2] as SessionEntry)).toBe(false);
  });

  it("findTurnStartIndex includes the index itself and returns -1 when no turn start", () => {
    const entries = chain(U("u"), A("a"), T("r"), BX("ls", "o"), A("b"));
    expect(findTurnStartIndex(entries, 0, 0)).toBe(0);
    expect(findTurnStartIndex(entries, 2, 0)).toBe(0);
    expect(findTurnStartIndex(entries, 4, 0)).toBe(3);
    expect(findTurnStartIndex(entries, 2, 1)).toBe(-1);
  });

  it("getCompactionMessageFromEntry keeps empty branch summaries and drops compactions", () => {
    const [bs, c, cm] = chain(BS(""), C("s", "e0"), CM("hi"));
    expect(getCompactionMessageFromEntry(bs as SessionEntry)).toMatchObject({ role: "branchSummary", summary: "" });
    expect(getCompactionMessageFromEntry(c as SessionEntry)).toBeUndefined();
    expect(getCompactionMessageFromEntry(cm as SessionEntry)).toMatchObject({ role: "custom", customType: "t", content: "hi" });
  });
});
