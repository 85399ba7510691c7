import { describe, expect, it } from "vitest";
import type { SkeletonNode, TreeSkeleton } from "@bonsai/core";
import { sizeSeries, skeletonPath } from "../src/context-preview";

const node = (id: string, parentId: string | null, tokens: number, extra: Partial<SkeletonNode> = {}): SkeletonNode => ({
  id,
  parentId,
  type: "message",
  role: "user",
  timestamp: "2026-01-01T00:00:00.000Z",
  tokens,
  preview: id,
  ...extra,
});

describe("context size along the path", () => {
  it("grows with each entry and drops at a compaction to its summary plus the kept part", () => {
    const path = [
      node("u1", null, 10),
      node("a1", "u1", 20, { role: "assistant" }),
      node("u2", "a1", 30),
      node("c1", "u2", 5, { type: "compaction", role: null, firstKeptEntryId: "u2" }),
      node("a2", "c1", 7, { role: "assistant" }),
    ];
    expect(sizeSeries(path)).toEqual([
      { entryId: "u1", tokens: 10, compaction: false },
      { entryId: "a1", tokens: 30, compaction: false },
      { entryId: "u2", tokens: 60, compaction: false },
      { entryId: "c1", tokens: 35, compaction: true },
      { entryId: "a2", tokens: 42, compaction: false },
    ]);
  });

  it("a compaction whose first kept entry is not on the path keeps only the summary", () => {
    const path = [node("u1", null, 10), node("c1", "u1", 4, { type: "compaction", role: null, firstKeptEntryId: "elsewhere" }), node("u2", "c1", 3)];
    expect(sizeSeries(path).map((p) => p.tokens)).toEqual([10, 4, 7]);
  });

  it("follows parents from the leaf and stops at cycles and missing parents", () => {
    const skeleton: TreeSkeleton = {
      sessionId: "s",
      leafId: "c",
      nodes: [node("a", "c", 1), node("b", "a", 1), node("c", "b", 1), node("x", "missing", 1), node("y", "x", 1)],
    };
    expect(skeletonPath(skeleton, "c").map((n) => n.id)).toEqual(["a", "b", "c"]);
    expect(skeletonPath(skeleton, "y").map((n) => n.id)).toEqual(["x", "y"]);
    expect(skeletonPath(skeleton, null)).toEqual([]);
  });
});
