import { describe, expect, it } from "vitest";
import { contextTokensAlongPath } from "../src/context-figures";
import { thinPositions } from "../src/size-series";

describe("the points a chart shows", () => {
  it("every position when there are no more than the buckets", () => {
    expect(thinPositions(3, [], 3)).toEqual([0, 1, 2]);
  });

  it("the last point of each stretch, and each compaction with the point before it", () => {
    // 4 stretches of 2: [0 1] [2 3] [4 5] [6 7], a compaction at 5
    expect(thinPositions(8, [5], 4)).toEqual([1, 3, 4, 5, 7]);
  });

  it("those are the highest points: the series only grows between compactions", () => {
    const compactions = [{ pos: 700, kept: 650 }, { pos: 2500, kept: 2490 }, { pos: 4999, kept: undefined }];
    const steps = Array.from({ length: 5000 }, (_, i) => {
      const c = compactions.find((x) => x.pos === i);
      return c ? { id: `e${i}`, type: "compaction", tokens: 50, ...(c.kept === undefined ? {} : { firstKeptEntryId: `e${c.kept}` }) } : { id: `e${i}`, type: "message", tokens: (i * 7919) % 300 };
    });
    const values = contextTokensAlongPath(steps);
    const shown = thinPositions(5000, compactions.map((c) => c.pos), 100);
    // the highest point between two shown points is the later one, unless a compaction is the later one
    for (let k = 1; k < shown.length; k++) {
      const [a, b] = [shown[k - 1]!, shown[k]!];
      if (compactions.some((c) => c.pos === b)) continue;
      for (let i = a + 1; i <= b; i++) expect(values[i]).toBeLessThanOrEqual(values[b]!);
    }
    expect(shown.length).toBeLessThanOrEqual(100 + 2 * compactions.length);
  });
});
