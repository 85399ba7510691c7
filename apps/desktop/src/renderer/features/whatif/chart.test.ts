import { describe, expect, it } from "vitest";
import { chartGeometry, linePoints, yTicks } from "./chart";

describe("what-if chart geometry", () => {
  it("maps path positions to x and tokens to y (top = 108 % of the largest value)", () => {
    const g = chartGeometry(101, 100000, 500, 100);
    expect(g.x(0)).toBe(0);
    expect(g.x(100)).toBe(500);
    expect(g.top).toBeCloseTo(108000);
    expect(g.y(0)).toBe(100);
    expect(g.y(108000)).toBeCloseTo(0);
    expect(g.y(-5)).toBe(100);
    expect(linePoints({ points: [[0, 0], [100, 54000]] }, g)).toBe("0.0,100.0 500.0,50.0");
  });

  it("y ticks are round numbers up to the top", () => {
    expect(yTicks(216000)).toEqual([0, 100000, 200000]);
    expect(yTicks(45000)).toEqual([0, 20000, 40000]);
    expect(yTicks(0)).toEqual([0]);
  });
});
