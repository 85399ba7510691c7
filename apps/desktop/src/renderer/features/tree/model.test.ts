import { describe, expect, it } from "vitest";
import type { SkeletonNode } from "@bonsai/core";
import { activePath, childrenOf, downsample, indexTree, kindOf, Region, REGION_NAMES } from "./model";

let clock = 0;
function node(id: string, parentId: string | null, extra: Partial<SkeletonNode> = {}): SkeletonNode {
  clock++;
  return { id, parentId, type: "message", role: "user", timestamp: new Date(clock * 1000).toISOString(), tokens: 10, preview: id, ...extra };
}
const u = (id: string, p: string | null, tokens = 10) => node(id, p, { role: "user", tokens });
const a = (id: string, p: string | null, tokens = 10) => node(id, p, { role: "assistant", tokens });
const tr = (id: string, p: string | null, tokens = 10) => node(id, p, { role: "toolResult", tokens });
const cmp = (id: string, p: string, firstKeptEntryId: string | undefined, tokens = 5) =>
  node(id, p, { type: "compaction", role: null, tokens, firstKeptEntryId, tokensBefore: 1000 });

/** The seed's picture: entries 1..9, then the compaction keeping from entry 4. */
function seedPicture(): SkeletonNode[] {
  return [
    u("e1", null), a("e2", "e1"), tr("e3", "e2"),
    u("e4", "e3"), a("e5", "e4"), tr("e6", "e5"), tr("e7", "e6"), a("e8", "e7"), tr("e9", "e8"),
    cmp("c10", "e9", "e4"),
  ];
}

function regions(nodes: SkeletonNode[], leaf: string | null): Record<string, string | undefined> {
  const t = indexTree(nodes);
  const act = activePath(t, leaf);
  return Object.fromEntries(nodes.map((n, i) => [n.id, REGION_NAMES[act.region[i] as number]]));
}

describe("kindOf", () => {
  it("maps entry types and roles to node kinds", () => {
    expect(kindOf(node("x", null, { role: "bashExecution" }))).toBe("bash");
    expect(kindOf(node("x", null, { role: "pythonExecution" }))).toBe("bash");
    expect(kindOf(node("x", null, { role: "custom" }))).toBe("custom");
    expect(kindOf(node("x", null, { type: "custom_message", role: null }))).toBe("custom");
    expect(kindOf(node("x", null, { type: "model_change", role: null }))).toBe("meta");
    expect(kindOf(node("x", null, { type: "label", role: null }))).toBe("meta");
    expect(kindOf(node("x", null, { type: "something_new", role: null }))).toBe("meta");
    expect(kindOf(node("x", null, { type: "compaction", role: null }))).toBe("compaction");
    expect(kindOf(node("x", null, { type: "branch_summary", role: null }))).toBe("branchSummary");
  });
});

describe("indexTree", () => {
  it("keeps children in file order and finds roots", () => {
    const t = indexTree([u("a", null), a("b", "a"), a("c", "a"), u("d", null)]);
    expect(t.roots).toEqual([0, 3]);
    expect(childrenOf(t, 0)).toEqual([1, 2]);
  });

  it("treats entries with unknown parents as roots", () => {
    const t = indexTree([u("a", null), a("b", "missing")]);
    expect(t.roots).toEqual([0, 1]);
  });

  it("lets the last entry with a duplicate id win", () => {
    const t = indexTree([u("a", null), a("b", "a"), a("b", "a")]);
    expect(t.live[1]).toBe(0);
    expect(t.live[2]).toBe(1);
    expect(childrenOf(t, 0)).toEqual([2]);
  });

  it("breaks a parent cycle at its first entry in file order", () => {
    const t = indexTree([u("a", "c"), a("b", "a"), a("c", "b"), u("d", null)]);
    expect(t.roots).toEqual([0, 3]);
    expect(t.parent[1]).toBe(0);
    expect(t.parent[2]).toBe(1);
  });

  it("handles a self-parented entry", () => {
    const t = indexTree([u("a", "a")]);
    expect(t.roots).toEqual([0]);
  });
});

describe("activePath and the compaction boundary", () => {
  it("classifies the seed's picture: 1-3 not sent, 4-9 kept, the compaction itself", () => {
    const r = regions(seedPicture(), "c10");
    expect([r.e1, r.e2, r.e3]).toEqual(["summarized", "summarized", "summarized"]);
    expect([r.e4, r.e5, r.e6, r.e7, r.e8, r.e9]).toEqual(Array(6).fill("kept"));
    expect(r.c10).toBe("compaction");
  });

  it("marks entries after the compaction live and off-path entries off", () => {
    const nodes = [...seedPicture(), u("e11", "c10"), a("e12", "e11"), a("x", "e8")];
    const r = regions(nodes, "e12");
    expect([r.e11, r.e12]).toEqual(["live", "live"]);
    expect(r.x).toBe("off");
    const t = indexTree(nodes);
    const act = activePath(t, "e12");
    expect(act.compaction).toBe(9);
    expect(act.firstKept).toBe(3);
    expect(Array.from(act.path).map((i) => nodes[i]?.id)).toEqual(["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "c10", "e11", "e12"]);
  });

  it("summarizes everything before the compaction when firstKeptEntryId is not on the path", () => {
    const nodes = [u("a", null), a("b", "a"), u("side", "a"), cmp("c", "b", "side"), u("d", "c")];
    const r = regions(nodes, "d");
    expect([r.a, r.b]).toEqual(["summarized", "summarized"]);
    expect(r.side).toBe("off");
    expect(r.d).toBe("live");
  });

  it("uses only the latest compaction on the path", () => {
    const nodes = [u("a", null), a("b", "a"), u("c", "b"), cmp("k1", "c", "b"), u("d", "k1"), a("e", "d"), cmp("k2", "e", "d"), u("f", "k2")];
    const r = regions(nodes, "f");
    expect([r.a, r.b, r.c, r.k1]).toEqual(["summarized", "summarized", "summarized", "summarized"]);
    expect([r.d, r.e]).toEqual(["kept", "kept"]);
    expect(r.k2).toBe("compaction");
  });

  it("has no path for a null leaf and falls back to the last entry for an unknown one", () => {
    const nodes = [u("a", null), a("b", "a"), a("c", "a")];
    const t = indexTree(nodes);
    expect(activePath(t, null).path.length).toBe(0);
    expect(activePath(t, null).region.every((x) => x === Region.Off)).toBe(true);
    const fallback = activePath(t, "nope");
    expect(fallback.leaf).toBe(2);
    expect(Array.from(fallback.path)).toEqual([0, 2]);
  });
});

describe("downsample", () => {
  it("downsamples to the bucket count but keeps every compaction point", () => {
    const series = Array.from({ length: 10_000 }, (_, pos) => ({ pos, entryId: String(pos), tokens: pos % 997, compaction: pos % 2500 === 1234 }));
    const d = downsample(series, 200);
    expect(d.length).toBeLessThanOrEqual(200 + 2 * 4);
    expect(d.filter((p) => p.compaction).map((p) => p.pos)).toEqual([1234, 3734, 6234, 8734]);
    expect(Math.max(...d.map((p) => p.tokens))).toBe(996);
    for (let k = 1; k < d.length; k++) expect((d[k] as { pos: number }).pos).toBeGreaterThan((d[k - 1] as { pos: number }).pos);
  });
});
