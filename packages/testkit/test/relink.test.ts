import { describe, expect, it } from "vitest";
import { generateSession, relinkEntry } from "../src";

describe("relinkEntry", () => {
  it("renames every id field that holds a string, keeps the fields' order, and hangs a root off the parent", () => {
    const compaction = { type: "compaction", id: "c1", parentId: "m1", timestamp: "t", summary: "s", firstKeptEntryId: "m0", tokensBefore: 10 };
    expect(JSON.stringify(relinkEntry(compaction, (id) => `x${id}`, "leaf"))).toBe(
      JSON.stringify({ type: "compaction", id: "xc1", parentId: "xm1", timestamp: "t", summary: "s", firstKeptEntryId: "xm0", tokensBefore: 10 }),
    );
    const summary = { type: "branch_summary", id: "b1", parentId: null, fromId: "m9", summary: "s" };
    expect(relinkEntry(summary, (id) => `x${id}`, "leaf")).toEqual({ type: "branch_summary", id: "xb1", parentId: "leaf", fromId: "xm9", summary: "s" });
    // an entry without a parentId field is a root too; the copy gets one
    expect(relinkEntry({ type: "label", id: "l1", targetId: "m2" }, (id) => id.toUpperCase(), null)).toEqual({ type: "label", id: "L1", targetId: "M2", parentId: null });
  });

  it("leaves the entry it copies as it was", () => {
    const entry = { type: "message", id: "m1", parentId: "m0" };
    relinkEntry(entry, (id) => `x${id}`, "leaf");
    expect(entry).toEqual({ type: "message", id: "m1", parentId: "m0" });
  });

  it("turns a generated session into a continuation of another: one root, hung off the leaf, every link inside the copy", () => {
    const { entries } = generateSession({ entries: 400, seed: 3 });
    const copy = entries.map((e) => relinkEntry(e as unknown as Record<string, unknown>, (id) => `w${id}`, "leaf"));
    const ids = new Set(copy.map((e) => e.id));
    expect(copy.filter((e) => e.parentId === "leaf")).toHaveLength(1);
    for (const e of copy) for (const key of ["parentId", "firstKeptEntryId", "fromId", "targetId"]) if (typeof e[key] === "string" && e[key] !== "leaf") expect(ids.has(e[key])).toBe(true);
  });
});
