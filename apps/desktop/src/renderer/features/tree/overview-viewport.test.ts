import { describe, expect, it } from "vitest";
import { toFlow } from "./layout";
import { indexTree } from "./model";
import { OVERVIEW_ZOOM } from "./overview";
import { centerOn, geometryIn, inView, keepInView, KEY_ROOM, MARGIN, overviewExtent, overviewShape, zoomAt } from "./overview-viewport";
import { syntheticSkeleton } from "../../../../test/renderer/synthetic-skeleton";
import { fitViewport } from "./viewport";

// many side branches (many lanes) and compactions (labels right of the lanes)
const skeleton = syntheticSkeleton({ entries: 20_000, branchEvery: 40, compactEvery: 900, seed: 9 });
const graph = toFlow(indexTree(skeleton.nodes), { leafId: skeleton.leafId });
const limits = { min: 0.0005, max: 2 };

const extentAt = (t: { x: number; y: number; zoom: number }, width: number) => overviewExtent(overviewShape(graph), geometryIn(graph, t, width));

describe("Fit in the overview", () => {
  it.each([
    [520, 700],
    [900, 800],
    [1300, 800],
  ])("puts the whole tree, its labels and marks inside a %i x %i pane, right of the colour key", (width, height) => {
    expect(overviewShape(graph).lanes).toBeGreaterThanOrEqual(5);
    const t = fitViewport(graph, { width, height }, limits.min);
    // a narrow pane squeezes the lanes closer than the overview's usual 16 px
    if (width < 600) expect(geometryIn(graph, t, width).laneStep).toBeLessThan(16);
    expect(t.zoom).toBeLessThan(OVERVIEW_ZOOM);
    const e = extentAt(t, width);
    expect(e.left).toBeGreaterThanOrEqual(190);
    expect(e.right).toBeLessThanOrEqual(width);
    expect(e.top).toBeGreaterThanOrEqual(0);
    expect(e.bottom).toBeLessThanOrEqual(height);
    // and uses the height: the tree is not shrunk to a corner
    expect(e.bottom - e.top).toBeGreaterThan(height * 0.8);
  });
});

describe("zooming the overview at a point", () => {
  const size = { width: 900, height: 800 };
  const fit = fitViewport(graph, size, limits.min);

  it("keeps the lane and the row under the pointer where they were, in and out, across the readable zoom", () => {
    const g0 = geometryIn(graph, fit, size.width);
    const { lanes, rows } = overviewShape(graph);
    const lane = lanes - 1;
    const row = Math.round(rows / 2);
    const px = g0.laneX(lane);
    const py = g0.rowY(row);
    expect(py).toBeGreaterThan(0);
    expect(py).toBeLessThan(size.height);
    let t = fit;
    for (const factor of [1.6, 1.6, 3, 10, 2, 0.5, 0.1, 0.2, 0.25]) {
      t = zoomAt(graph, t, factor, px, py, size, limits);
      const g = geometryIn(graph, t, size.width);
      expect(g.laneX(lane)).toBeCloseTo(px, 6);
      expect(g.rowY(row)).toBeCloseTo(py, 6);
    }
  });

  it("never leaves the canvas blank: zooming out at the pane's edge keeps the tree in view", () => {
    let t = fit;
    for (let i = 0; i < 30; i++) t = zoomAt(graph, t, 0.5, size.width - 1, size.height - 1, size, limits);
    const e = extentAt(t, size.width);
    expect(e.right).toBeGreaterThan(0);
    expect(e.left).toBeLessThan(size.width);
    expect(e.bottom).toBeGreaterThan(0);
    expect(e.top).toBeLessThan(size.height);
  });
});

describe("keeping the tree in view", () => {
  const size = { width: 900, height: 800 };
  it("moves a tree panned off any side back until MARGIN px of it show (right of the colour key), and leaves one in view alone", () => {
    const fit = fitViewport(graph, size, limits.min);
    expect(keepInView(graph, fit, size)).toEqual(fit);
    for (const [dx, dy] of [
      [-5000, 0],
      [5000, 0],
      [0, -50_000],
      [0, 50_000],
    ] as const) {
      const t = keepInView(graph, { x: fit.x + dx, y: fit.y + dy, zoom: fit.zoom }, size);
      const g = geometryIn(graph, t, size.width);
      const { lanes, rows } = overviewShape(graph);
      // the bars
      const e = { left: g.laneX(0) - g.barW / 2, right: g.laneX(lanes - 1) + g.barW / 2, top: g.rowY(0), bottom: g.rowY(rows - 1) + g.barH };
      // across: right of the colour key
      const shown = Math.min(e.right, size.width) - Math.max(e.left, KEY_ROOM);
      const shownH = Math.min(e.bottom, size.height) - Math.max(e.top, 0);
      expect(Math.min(shown, shownH)).toBeGreaterThanOrEqual(MARGIN - 1e-6);
    }
  });
});

describe("the map's frame and its clicks", () => {
  const size = { width: 700, height: 600 };
  it.each([0.002, 0.05, 0.6])("centres the lane and row a map click asks for, and frames them in the middle (zoom %f)", (zoom) => {
    const t = centerOn(graph, 3, 250, zoom, size);
    const g = geometryIn(graph, t, size.width);
    expect(g.laneX(3)).toBeCloseTo(size.width / 2, 6);
    expect(g.rowY(250)).toBeCloseTo(size.height / 2, 6);
    const shown = inView(graph, t, size);
    expect((shown.lanes[0] + shown.lanes[1]) / 2).toBeCloseTo(3.3, 6);
    expect((shown.rows[0] + shown.rows[1]) / 2).toBeCloseTo(250, 6);
  });
});
