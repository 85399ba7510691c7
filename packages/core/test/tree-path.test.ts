/**
 * getPath walks without a visited set and falls back to one only when the walk is longer than the
 * number of entries (a cycle). These tests hold it to the plain walk with a visited set on any
 * parent graph: chains, orphans, self-parents, cycles reached from a tail, duplicate ids.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildIndex, getPath, type SessionEntry } from "../src/index";

/** The definition: walk to the root, stop before the first entry met twice. */
function referencePath(byId: Map<string, SessionEntry>, leafId: string | null): string[] {
  const path: string[] = [];
  if (leafId === null) return path;
  const seen = new Set<string>();
  let current = byId.get(leafId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current.id);
    const parent = current.parentId;
    if (parent === null || parent === undefined || parent === "") break;
    current = byId.get(parent);
  }
  return path.reverse();
}

const entry = (id: string, parentId: string | null): SessionEntry =>
  ({ type: "custom", customType: "t", id, parentId, timestamp: "2025-01-01T00:00:00Z" }) as unknown as SessionEntry;

describe("getPath", () => {
  it("cycles: self-parent, two-entry loop, a loop reached from a tail", () => {
    const entries = [entry("a", "a"), entry("b", "c"), entry("c", "b"), entry("t1", "t2"), entry("t2", "l1"), entry("l1", "l2"), entry("l2", "l3"), entry("l3", "l1")];
    const index = buildIndex(entries);
    expect(getPath(index, "a").map((e) => e.id)).toEqual(["a"]);
    expect(getPath(index, "b").map((e) => e.id)).toEqual(["c", "b"]);
    expect(getPath(index, "t1").map((e) => e.id)).toEqual(["l3", "l2", "l1", "t2", "t1"]);
    for (const e of entries) expect(getPath(index, e.id).map((x) => x.id)).toEqual(referencePath(index.byId, e.id));
  });

  it("a long chain, an orphan, an empty parent, an unknown leaf", () => {
    const chain = Array.from({ length: 5_000 }, (_, i) => entry(`n${i}`, i === 0 ? null : `n${i - 1}`));
    const entries = [...chain, entry("orphan", "missing"), entry("empty", "")];
    const index = buildIndex(entries);
    expect(getPath(index, "n4999")).toHaveLength(5_000);
    expect(getPath(index, "n4999")[0]?.id).toBe("n0");
    expect(getPath(index, "orphan").map((e) => e.id)).toEqual(["orphan"]);
    expect(getPath(index, "empty").map((e) => e.id)).toEqual(["empty"]);
    expect(getPath(index, "nope")).toEqual([]);
    expect(getPath(index, null)).toEqual([]);
  });

  it("property: on any parent graph (with duplicates) it is the walk with a visited set", () => {
    const ids = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const arbEntry = fc.tuple(fc.constantFrom(...ids), fc.option(fc.constantFrom(...ids, "", "zz"), { nil: null }));
    fc.assert(
      fc.property(fc.array(arbEntry, { minLength: 1, maxLength: 12 }), (pairs) => {
        const index = buildIndex(pairs.map(([id, parent]) => entry(id, parent)));
        for (const id of [...ids, "zz"]) expect(getPath(index, id).map((e) => e.id)).toEqual(referencePath(index.byId, id));
      }),
      { numRuns: 500 },
    );
  });
});
