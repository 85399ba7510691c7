import { describe, expect, it } from "vitest";
import { foldList, largest, LIST_HEAD, LIST_TAIL } from "./fold";

describe("foldList", () => {
  it("lists a list up to LIST_HEAD + LIST_TAIL items whole", () => {
    const items = Array.from({ length: LIST_HEAD + LIST_TAIL }, (_, i) => i);
    const folded = foldList(items, false);
    expect(folded.hidden).toBe(0);
    expect(folded.listed.map((l) => l.item)).toEqual(items);
    expect(folded.listed.every((l) => l.item === l.index)).toBe(true);
  });

  it("lists the first LIST_HEAD and the newest LIST_TAIL of a longer one, with their indexes and the number between", () => {
    const items = Array.from({ length: 70_000 }, (_, i) => `m${i}`);
    const folded = foldList(items, false);
    expect(folded.listed).toHaveLength(LIST_HEAD + LIST_TAIL);
    expect(folded.hidden).toBe(70_000 - LIST_HEAD - LIST_TAIL);
    expect(folded.resumesAt).toBe(70_000 - LIST_TAIL);
    expect(folded.listed[LIST_HEAD - 1]).toEqual({ item: `m${LIST_HEAD - 1}`, index: LIST_HEAD - 1 });
    expect(folded.listed[LIST_HEAD]).toEqual({ item: `m${70_000 - LIST_TAIL}`, index: 70_000 - LIST_TAIL });
    expect(folded.listed.at(-1)).toEqual({ item: "m69999", index: 69_999 });
    expect(foldList(items, true).listed).toHaveLength(70_000);
  });

  it("largest takes more values than a call takes arguments", () => {
    const many = Array.from({ length: 500_000 }, (_, i) => i % 1000);
    expect(largest(many)).toBe(999);
    expect(largest([])).toBe(1);
  });
});
