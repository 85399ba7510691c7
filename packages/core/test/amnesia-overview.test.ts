import { describe, expect, it } from "vitest";
import { amnesiaOverview, amnesiaSessionRow, emptyKindCounts, WORST_POINTS, type AmnesiaReport, type AmnesiaSessionInfo, type AmnesiaSessionRow } from "../src/index";

function info(sessionId: string): AmnesiaSessionInfo {
  return { sessionId, project: "alpha", pushedBy: "amy", title: `title ${sessionId}`, agent: "pi" };
}

const finding = (kind: AmnesiaReport["compactions"][number]["findings"][number]["kind"]) => ({ kind, entryIds: ["a", "b"], detail: kind });

function rowOf(id: string, report: AmnesiaReport): AmnesiaSessionRow {
  const row = amnesiaSessionRow(info(id), report);
  if (!row) throw new Error("expected a row");
  return row;
}

describe("amnesiaSessionRow", () => {
  it("skips a session with no compaction or pruning", () => {
    expect(amnesiaSessionRow(info("s"), { compactions: [], prunings: [] })).toBeNull();
  });

  it("counts findings by kind and lists compactions and prunings worst first", () => {
    const row = rowOf("s", {
      compactions: [
        { compactionId: "c1", score: 2, findings: [finding("reread")] },
        { compactionId: "c2", score: 5, findings: [finding("restatedInstruction"), finding("reread")] },
      ],
      prunings: [{ atEntryId: "p1", prunedAt: 1, prunedEntryIds: ["x"], score: 2, findings: [finding("repeatedCall")] }],
    });
    expect(row).toMatchObject({ sessionId: "s", project: "alpha", pushedBy: "amy", compactions: 2, prunings: 1, score: 9 });
    expect(row.findings).toEqual({ ...emptyKindCounts(), reread: 2, restatedInstruction: 1, repeatedCall: 1 });
    expect(row.points.map((p) => [p.kind, p.entryId, p.score])).toEqual([
      ["compaction", "c2", 5],
      ["compaction", "c1", 2],
      ["pruning", "p1", 2],
    ]);
  });
});

describe("amnesiaOverview", () => {
  it("orders sessions worst first, totals every kind and lists the worst compactions of all", () => {
    const mild = rowOf("mild", { compactions: [{ compactionId: "m1", score: 1, findings: [finding("droppedIdentifier")] }], prunings: [] });
    const bad = rowOf("bad", {
      compactions: [
        { compactionId: "b1", score: 3, findings: [finding("recurringError")] },
        { compactionId: "b2", score: 0, findings: [] },
      ],
      prunings: [],
    });
    const overview = amnesiaOverview([mild, bad]);
    expect(overview.sessions.map((s) => s.sessionId)).toEqual(["bad", "mild"]);
    expect(overview.totals).toEqual({ sessions: 2, compactions: 3, prunings: 0, score: 4, findings: { ...emptyKindCounts(), recurringError: 1, droppedIdentifier: 1 } });
    expect(overview.worst.map((w) => [w.sessionId, w.entryId])).toEqual([
      ["bad", "b1"],
      ["mild", "m1"],
      ["bad", "b2"],
    ]);
    expect(overview.worst[0]).toMatchObject({ project: "alpha", title: "title bad", kind: "compaction" });
  });

  it("keeps only the worst WORST_POINTS compactions", () => {
    const compactions = Array.from({ length: WORST_POINTS + 5 }, (_, i) => ({ compactionId: `c${i}`, score: i, findings: [] }));
    const overview = amnesiaOverview([rowOf("many", { compactions, prunings: [] })]);
    expect(overview.worst).toHaveLength(WORST_POINTS);
    expect(overview.worst[0]?.entryId).toBe(`c${WORST_POINTS + 4}`);
  });

  it("is empty over no sessions", () => {
    expect(amnesiaOverview([])).toEqual({ sessions: [], totals: { sessions: 0, compactions: 0, prunings: 0, score: 0, findings: emptyKindCounts() }, worst: [] });
  });
});
