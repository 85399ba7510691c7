/**
 * The fresh import's bar as `pnpm bench compare` prints and checks it (bench/import-bar.ts): the
 * whole-process CPU of the import against the floor's, the medians' ratio checked against 1.8x,
 * each round's ratio shown.
 */
import { describe, expect, it } from "vitest";
import { IMPORT_TARGET, importBar } from "../bench/import-bar";

describe("importBar", () => {
  it("divides the import's median CPU by the floor's and shows each round's ratio", () => {
    const bar = importBar([2_100, 1_950, 2_400], [1_000, 1_300, 1_200]);
    expect(bar.ratio).toBeCloseTo(2_100 / 1_200, 10);
    expect(bar.rounds.map((r) => r.toFixed(2))).toEqual(["2.10", "1.50", "2.00"]);
    expect(bar.line).toContain("2,100 ms / 1,200 ms = 1.75x (rounds: 2.10x, 1.50x, 2.00x; target at most 1.8x)");
    expect(bar.line).toContain("packages/bench/bench/floor.cjs");
    expect(bar.met).toBe(true);
    expect(bar.check).toBe("import at most 1.8x the floor's CPU, whole processes (1.75x)");
  });

  it("is met at the target and missed just above it", () => {
    expect(IMPORT_TARGET).toBe(1.8);
    expect(importBar([1_800], [1_000]).met).toBe(true);
    const missed = importBar([1_801], [1_000]);
    expect(missed.met).toBe(false);
    expect(missed.check).toContain("(1.80x)");
    expect(importBar([3_290], [1_000]).met).toBe(false);
  });

  it("refuses runs that do not pair up round by round", () => {
    expect(() => importBar([2_000, 2_100], [1_000])).toThrow(/2 import runs against 1 floor runs/);
    expect(() => importBar([], [])).toThrow(/0 import runs/);
  });
});
