import { describe, expect, it } from "vitest";
import type { SkeletonNode } from "@bonsai/core";
import { treeContextTokens } from "./context-tokens";
import { toFlow } from "./layout";
import { indexTree } from "./model";
import { formatTokens } from "./format";
import { bandsOf, declutter, hitTest, MIN_LANE_PX, overviewGeometry, pathRanges, rowsOf, runsOf } from "./overview";

const node = (id: string, parentId: string | null, extra: Partial<SkeletonNode> = {}): SkeletonNode => ({
  id,
  parentId,
  type: "message",
  role: "user",
  timestamp: "",
  tokens: 100,
  preview: id,
  ...extra,
});

// m0 .. m5 on the path with a compaction at m4 keeping from m2; a side branch s0-s1 off m1
const nodes = [
  node("m0", null),
  node("m1", "m0"),
  node("m2", "m1"),
  node("m3", "m2"),
  node("m4", "m3", { type: "compaction", role: null, tokens: 20, firstKeptEntryId: "m2", tokensBefore: 99_900 }),
  node("m5", "m4"),
  node("s0", "m1"),
  node("s1", "s0"),
];
const index = indexTree(nodes);
const graph = toFlow(index, { leafId: "m5", minRun: 100 });

describe("the overview's geometry", () => {
  it("cuts the tree into runs of a lane", () => {
    const runs = runsOf(graph).map((r) => ({ lane: r.lane, ids: r.nodes.map((v) => graph.nodes[v]!.id), onPath: r.onPath }));
    expect(runs).toEqual([
      { lane: 0, ids: ["m0", "m1", "m2", "m3", "m4", "m5"], onPath: true },
      { lane: 1, ids: ["s0", "s1"], onPath: false },
    ]);
  });

  it("labels a compaction band with the tokensBefore the file records → what the model sees from the compaction, both named in its tooltip", () => {
    const bands = bandsOf(graph, index, treeContextTokens(index));
    // after: summary 20 + kept m2, m3 (100 each)
    expect(bands).toEqual([expect.objectContaining({ entryId: "m4", label: "99.9K → 220 tok", onPath: true })]);
    expect(bands[0]!.title).toBe("Compaction m4: before: 99,900 tokens, as the agent recorded it (tokensBefore); after: 220 tokens, what the model sees from the compaction (its summary and the kept entries)");
    // a compaction whose file records no tokensBefore: the estimate from the entry it follows, said to be one
    const unrecorded = indexTree(nodes.map((n) => (n.id === "m4" ? { ...n, tokensBefore: 0 } : n)));
    const tokens = treeContextTokens(unrecorded);
    const band = bandsOf(toFlow(unrecorded, { leafId: "m5", minRun: 100 }), unrecorded, tokens)[0]!;
    expect(band.label).toBe(`${formatTokens(tokens[unrecorded.byId.get("m3")!] as number)} → 220 tok`);
    expect(band.title).toContain("estimated (the file records no tokensBefore)");
  });

  it("keeps lanes apart on screen at any zoom, and finds the bar under the pointer", () => {
    const far = overviewGeometry({ x: 0, y: 0, zoom: 0.001 });
    expect(far.laneX(1) - far.laneX(0)).toBe(MIN_LANE_PX);
    const g = overviewGeometry({ x: 0, y: 0, zoom: 0.2 });
    const s1 = graph.flowIndex.get("s1")!;
    const row = graph.row[s1]!;
    expect(hitTest(graph, g, g.laneX(1), g.rowY(row) + g.barH / 2)).toBe(s1);
    expect(hitTest(graph, g, g.laneX(1) + 100, g.rowY(row))).toBe(-1);
  });

  it("spaces labels out and brackets the summarized and kept ranges", () => {
    expect(declutter([{ y: 0 }, { y: 10 }, { y: 30 }, { y: 31 }], 18).map((l) => l.y)).toEqual([0, 30]);
    expect(pathRanges(graph)).toEqual({ summarized: [0, 1], kept: [2, 3] });
    expect(rowsOf(graph, index, ["m1", "m3", "nope"])).toEqual([1, 3]);
    expect(rowsOf(graph, index, [])).toBeNull();
  });
});
