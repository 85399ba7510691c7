import { describe, expect, it } from "vitest";
import type { SkeletonNode } from "@bonsai/core";
import { indexTree } from "../tree/model";
import { transcriptPath } from "./reading-path";

const n = (id: string, parentId: string | null, extra: Partial<SkeletonNode> = {}): SkeletonNode => ({ id, parentId, type: "message", role: "user", timestamp: "", tokens: 1, preview: id, ...extra });

describe("the transcript's path", () => {
  const nodes = [
    n("a", null),
    n("b", "a"),
    n("c", "b"),
    n("k", "c", { type: "compaction", role: null, firstKeptEntryId: "b" }),
    n("d", "k"),
    n("x", "a"),
  ];
  const index = indexTree(nodes);

  it("folds what the latest compaction summarized, then reads on from its first kept entry", () => {
    const p = transcriptPath(index, "d");
    expect(p.items).toEqual([
      { kind: "summarized", ids: ["a"], compactionId: "k" },
      { kind: "entry", id: "b" },
      { kind: "entry", id: "c" },
      { kind: "entry", id: "k" },
      { kind: "entry", id: "d" },
    ]);
    expect(p.length).toBe(5);
    expect(p.positionOf.get("k")).toBe(3);
  });

  it("reads the path to any entry; a compaction keeping nothing folds everything before it", () => {
    expect(transcriptPath(index, "x").items).toEqual([{ kind: "entry", id: "a" }, { kind: "entry", id: "x" }]);
    const lost = indexTree([n("a", null), n("k", "a", { type: "compaction", role: null, firstKeptEntryId: "gone" })]);
    expect(transcriptPath(lost, "k").items).toEqual([{ kind: "summarized", ids: ["a"], compactionId: "k" }, { kind: "entry", id: "k" }]);
    expect(transcriptPath(index, null).items).toEqual([]);
  });
});
