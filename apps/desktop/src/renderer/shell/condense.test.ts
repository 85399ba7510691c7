import { describe, expect, it } from "vitest";
import type { SkeletonNode, TreeSkeleton } from "@bonsai/core";
import { condense } from "./condense";

const n = (id: string, parentId: string | null, extra: Partial<SkeletonNode> = {}): SkeletonNode => ({
  id,
  parentId,
  type: "message",
  role: "assistant",
  timestamp: "2026-01-01T00:00:00.000Z",
  tokens: 1,
  preview: id,
  ...extra,
});

describe("the simple tree's condensed structure", () => {
  it("keeps user turns, compactions, branch points and the leaf; folds runs in between", () => {
    const skeleton: TreeSkeleton = {
      sessionId: "s",
      leafId: "a4",
      nodes: [
        n("u1", null, { role: "user" }),
        n("a1", "u1"),
        n("t1", "a1", { role: "toolResult" }),
        n("a2", "t1"),
        n("c1", "a2", { type: "compaction", role: null }),
        n("u2", "c1", { role: "user" }),
        n("a3", "u2"),
        n("a3b", "u2"),
        n("a4", "a3"),
      ],
    };
    const { nodes, activePathLength, entryCount } = condense(skeleton);
    const byId = new Map(nodes.map((c) => [c.id, c]));
    expect(entryCount).toBe(9);
    expect(activePathLength).toBe(8); // all but the abandoned a3b
    expect(byId.get("a1")).toMatchObject({ kind: "segment", entries: 3, parentId: "u1", activeEntries: 3 });
    expect(byId.get("c1")).toMatchObject({ kind: "entry", parentId: "a1" });
    expect(byId.get("u2")).toMatchObject({ kind: "entry", parentId: "c1" });
    // both children of the branch point u2 start their own node
    expect(byId.get("a3")).toMatchObject({ parentId: "u2", activeEntries: 1 });
    expect(byId.get("a3b")).toMatchObject({ parentId: "u2", activeEntries: 0 });
    expect(byId.get("a4")).toMatchObject({ kind: "entry", parentId: "a3" });
    // every entry is held exactly once
    expect(nodes.reduce((sum, c) => sum + c.entries, 0)).toBe(9);
  });

  it("survives a parent cycle and a missing parent", () => {
    const skeleton: TreeSkeleton = { sessionId: "s", leafId: "b", nodes: [n("a", "b"), n("b", "a"), n("x", "nowhere")] };
    const { nodes } = condense(skeleton);
    expect(nodes.reduce((sum, c) => sum + c.entries, 0)).toBe(3);
  });
});
