import { describe, expect, it } from "vitest";
import type { SkeletonNode } from "@bonsai/core";
import { hiddenIn, MIN_RUN, NODE_H, NODE_HANDLES, NODE_W, segmentKey, toFlow } from "./layout";
import type { FlowGraph, SegmentFlowNode } from "./layout";
import { indexTree } from "./model";
import type { TreeIndex } from "./model";
import { syntheticSkeleton } from "../../../../test/renderer/synthetic-skeleton";

function chain(n: number, prefix = "n", parent: string | null = null, start = 0): SkeletonNode[] {
  const out: SkeletonNode[] = [];
  let p = parent;
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${start + i}`;
    out.push({ id, parentId: p, type: "message", role: i % 2 ? "assistant" : "user", timestamp: "2026-01-01T00:00:00.000Z", tokens: 10, preview: id });
    p = id;
  }
  return out;
}

/** Invariants every graph must satisfy. */
function checkGraph(t: TreeIndex, g: FlowGraph): void {
  const ids = new Set(g.nodes.map((n) => n.id));
  expect(ids.size).toBe(g.nodes.length);
  // sizes and handles come with every node: React Flow measures nothing before drawing
  for (const n of g.nodes) {
    expect(n.measured).toEqual({ width: NODE_W, height: NODE_H });
    expect([n.width, n.height]).toEqual([NODE_W, NODE_H]);
    expect(n.handles).toBe(NODE_HANDLES);
  }
  const handle = (id: string | null | undefined, type: "source" | "target") => NODE_HANDLES.find((h) => (h.id ?? null) === (id ?? null) && h.type === type);
  for (const e of g.edges) {
    expect(ids.has(e.source)).toBe(true);
    expect(ids.has(e.target)).toBe(true);
    expect(handle(e.sourceHandle, "source"), `edge ${e.id} leaves from a handle every node has`).toBeDefined();
    expect(handle(e.targetHandle, "target"), `edge ${e.id} arrives at a handle every node has`).toBeDefined();
  }
  // every live entry is shown by exactly one flow node, and segment counts add up
  let covered = 0;
  for (const n of g.nodes) covered += n.type === "segment" ? n.data.count : 1;
  let live = 0;
  for (let i = 0; i < t.nodes.length; i++) {
    if (!t.live[i]) continue;
    live++;
    expect(g.flowOf[i]).toBeGreaterThanOrEqual(0);
  }
  expect(covered).toBe(live);
  // no two nodes overlap
  const cells = new Set<string>();
  for (const n of g.nodes) {
    expect(n.width).toBe(NODE_W);
    expect(n.height).toBe(NODE_H);
    const key = `${Math.round(n.position.x / NODE_W)}:${Math.round(n.position.y / NODE_H)}`;
    expect(cells.has(key)).toBe(false);
    cells.add(key);
  }
  // children sit below their parent
  for (let v = 0; v < g.nodes.length; v++) {
    const p = g.flowParent[v] as number;
    if (p >= 0) expect((g.nodes[v] as { position: { y: number } }).position.y).toBeGreaterThan((g.nodes[p] as { position: { y: number } }).position.y);
  }
}

describe("toFlow segmenting", () => {
  it("collapses a linear run into one segment and keeps the leaf visible", () => {
    const nodes = chain(50);
    const t = indexTree(nodes);
    const g = toFlow(t, { leafId: "n49" });
    checkGraph(t, g);
    expect(g.nodes.map((n) => n.type)).toEqual(["segment", "entry"]);
    const seg = g.nodes[0] as SegmentFlowNode;
    expect(seg.id).toBe(segmentKey("n0"));
    expect(seg.data.count).toBe(49);
    expect(seg.data.tokens).toBe(490);
    expect(seg.data.users).toBe(25);
    expect(seg.data.onPath).toBe(true);
    expect(g.nodes[1]?.data).toMatchObject({ entryId: "n49", isLeaf: true, onPath: true, region: "live" });
    expect(g.edges).toEqual([expect.objectContaining({ source: seg.id, target: "n49", className: "edge-path" })]);
  });

  it("expands a segment into its entries on request", () => {
    const t = indexTree(chain(50));
    const g = toFlow(t, { leafId: "n49", expanded: new Set([segmentKey("n0")]) });
    checkGraph(t, g);
    expect(g.nodes.length).toBe(50);
    expect(g.nodes.every((n) => n.type === "entry")).toBe(true);
  });

  it("keeps runs shorter than MIN_RUN as entries", () => {
    const t = indexTree(chain(MIN_RUN));
    const g = toFlow(t, { leafId: `n${MIN_RUN - 1}` });
    expect(g.nodes.every((n) => n.type === "entry")).toBe(true);
  });

  it("cuts long runs into chunks of at most the chunk size", () => {
    const t = indexTree(chain(1001));
    const g = toFlow(t, { leafId: "n1000", chunk: 300 });
    checkGraph(t, g);
    expect(g.nodes.map((n) => (n.type === "segment" ? n.data.count : 1))).toEqual([300, 300, 300, 100, 1]);
    const g2 = toFlow(t, { leafId: "n1000", chunk: 300, expanded: new Set([segmentKey("n300")]) });
    checkGraph(t, g2);
    expect(g2.nodes.length).toBe(1 + 300 + 2 + 1);
  });

  it("keeps branch points, both branches, compactions, firstKept targets, branch summaries and labels visible", () => {
    const trunk = chain(30, "m");
    const side = chain(20, "s", "m9");
    const nodes: SkeletonNode[] = [
      ...trunk,
      ...side,
      { id: "c", parentId: "m29", type: "compaction", role: null, timestamp: "", tokens: 5, preview: "sum", firstKeptEntryId: "m20", tokensBefore: 9000 },
      { id: "bs", parentId: "s19", type: "branch_summary", role: null, timestamp: "", tokens: 5, preview: "branch", fromId: "m3" },
      ...chain(10, "z", "c"),
    ];
    nodes[15] = { ...(nodes[15] as SkeletonNode), label: "checkpoint" };
    const t = indexTree(nodes);
    const g = toFlow(t, { leafId: "z9" });
    checkGraph(t, g);
    for (const id of ["m9", "m15", "m20", "c", "bs", "z9"]) expect(g.flowIndex.has(id)).toBe(true);
    const m9 = g.nodes[g.flowIndex.get("m9") as number];
    expect(m9?.data).toMatchObject({ children: 2 });
    const kept = g.edges.find((e) => e.id === "kept:c");
    expect(kept).toMatchObject({ source: "c", target: "m20", className: "edge-kept edge-kept-active" });
    expect(g.edges.find((e) => e.id === "from:bs")).toMatchObject({ source: "bs", target: "m3" });
    // the region before m20 is shaded as not sent, the kept region and after are sent
    const regionOf = (entryId: string) => {
      const n = g.nodes[g.flowOf[t.byId.get(entryId) as number] as number];
      return n?.data.region;
    };
    expect(regionOf("m0")).toBe("summarized");
    expect(regionOf("m19")).toBe("summarized");
    expect(regionOf("m20")).toBe("kept");
    expect(regionOf("m25")).toBe("kept");
    expect(regionOf("c")).toBe("compaction");
    expect(regionOf("z3")).toBe("live");
    expect(regionOf("s5")).toBe("off");
    // the side branch is placed beside the trunk, not on top of it
    const s0 = g.nodes[g.flowOf[t.byId.get("s0") as number] as number];
    const m10 = g.nodes[g.flowOf[t.byId.get("m10") as number] as number];
    expect(s0?.position.x).not.toBe(m10?.position.x);
  });

  it("does not draw a from-edge for a branch summary whose fromId is its parent", () => {
    const nodes: SkeletonNode[] = [...chain(3), { id: "bs", parentId: "n2", type: "branch_summary", role: null, timestamp: "", tokens: 5, preview: "b", fromId: "n2" }];
    const g = toFlow(indexTree(nodes), { leafId: "bs" });
    expect(g.edges.some((e) => e.id.startsWith("from:"))).toBe(false);
  });

  it("finds the segment hiding an entry", () => {
    const t = indexTree(chain(50));
    const g = toFlow(t, { leafId: "n49" });
    expect(hiddenIn(g, t, "n20")).toBe(segmentKey("n0"));
    expect(hiddenIn(g, t, "n49")).toBeUndefined();
    expect(hiddenIn(g, t, "unknown")).toBeUndefined();
  });

  it("lays out an empty session", () => {
    const g = toFlow(indexTree([]), { leafId: null });
    expect(g.nodes).toEqual([]);
    expect(g.edges).toEqual([]);
  });
});

describe("lanes", () => {
  it("puts the active path in one straight lane (0), side branches to its right", () => {
    const trunk = chain(12, "m");
    // three short side branches, off m2, m5 and m8, that do not overlap in rows, and one that does
    const nodes = [...trunk, ...chain(2, "a", "m2"), ...chain(2, "b", "m5"), ...chain(2, "c", "m8"), ...chain(6, "d", "m6")];
    const t = indexTree(nodes);
    const g = toFlow(t, { leafId: "m11", minRun: 100 });
    checkGraph(t, g);
    const laneOf = (id: string) => g.lane[g.flowIndex.get(id) as number];
    for (const m of trunk) expect(laneOf(m.id), m.id).toBe(0);
    // a, b, c share lane 1 (rows 3-4, 6-7, 9-10); d (rows 7-12) starts where b ends, so it takes lane 2
    expect([laneOf("a0"), laneOf("b0"), laneOf("d0"), laneOf("c0")]).toEqual([1, 1, 2, 1]);
    expect(g.row[g.flowIndex.get("a0") as number]).toBe(3);
  });

  it("moving the leaf to a side branch makes that branch the straight one", () => {
    const nodes = [...chain(6, "m"), ...chain(4, "s", "m2")];
    const g = toFlow(indexTree(nodes), { leafId: "s3", minRun: 100 });
    expect(["m0", "m1", "m2", "s0", "s3"].map((id) => g.lane[g.flowIndex.get(id) as number])).toEqual([0, 0, 0, 0, 0]);
    expect(g.lane[g.flowIndex.get("m3") as number]).toBe(1);
  });

  it("a 100,000-entry session stays a narrow trunk, not a diagonal drift", () => {
    const sk = syntheticSkeleton({ entries: 100_000, branchEvery: 400, compactEvery: 3000 });
    const g = toFlow(indexTree(sk.nodes), { leafId: sk.leafId });
    let lanes = 0;
    for (const l of g.lane) lanes = Math.max(lanes, l + 1);
    expect(lanes).toBeLessThan(12);
  });
});

describe("toFlow on generated sessions", () => {
  for (const size of [10_000, 100_000]) {
    it(`${size} entries: every entry covered, few flow nodes, the active path intact`, () => {
      const sk = syntheticSkeleton({ entries: size, branchEvery: 400, compactEvery: 3000 });
      const t = indexTree(sk.nodes);
      const g = toFlow(t, { leafId: sk.leafId });
      checkGraph(t, g);
      expect(g.nodes.length).toBeLessThan(sk.nodes.length / 10);
      expect(g.active.leaf).toBe(t.byId.get(sk.leafId as string));
      expect(g.active.compaction).toBeGreaterThanOrEqual(0);
      const kinds = new Set(g.nodes.filter((n) => n.type === "entry").map((n) => n.data.kind));
      for (const k of ["compaction", "branchSummary", "custom"]) expect(kinds.has(k as never)).toBe(true);
      expect(g.edges.some((e) => e.className?.includes("edge-kept-active"))).toBe(true);
      // each segment is one region on one side of the path
      for (const n of g.nodes) {
        if (n.type !== "segment") continue;
        const i0 = t.byId.get(n.data.firstId) as number;
        const i1 = t.byId.get(n.data.lastId) as number;
        expect(g.active.region[i0]).toBe(g.active.region[i1]);
      }
    });
  }
});
