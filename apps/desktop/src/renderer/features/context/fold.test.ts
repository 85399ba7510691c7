import { describe, expect, it } from "vitest";
import { largest, placeListed } from "./fold";

describe("placeListed", () => {
  it("places a whole list at its own indexes", () => {
    const items = ["a", "b", "c"];
    const placed = placeListed(items, null);
    expect(placed.hidden).toBe(0);
    expect(placed.total).toBe(3);
    expect(placed.resumesAt).toBe(3);
    expect(placed.listed).toEqual([
      { item: "a", index: 0 },
      { item: "b", index: 1 },
      { item: "c", index: 2 },
    ]);
  });

  it("places the messages listed after the unlisted ones past them, and counts every message", () => {
    const items = Array.from({ length: 500 }, (_, i) => (i < 50 ? `m${i}` : `m${69_053 + i}`));
    const placed = placeListed(items, { at: 50, count: 69_053, tokens: 1_000, largestTokens: 90 });
    expect(placed.total).toBe(69_553);
    expect(placed.hidden).toBe(69_053);
    expect(placed.resumesAt).toBe(69_103);
    expect(placed.listed[49]).toEqual({ item: "m49", index: 49 });
    expect(placed.listed[50]).toEqual({ item: "m69103", index: 69_103 });
    expect(placed.listed.at(-1)).toEqual({ item: "m69552", index: 69_552 });
  });

  it("largest takes more values than a call takes arguments", () => {
    const many = Array.from({ length: 500_000 }, (_, i) => i % 1000);
    expect(largest(many)).toBe(999);
    expect(largest([])).toBe(1);
  });
});
