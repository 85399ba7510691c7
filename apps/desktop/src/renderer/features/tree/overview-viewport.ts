/**
 * Where the overview puts the tree on the canvas: its lanes are spread wider than true scale (so
 * the session's shape shows), which React Flow knows nothing about, so the overview's Fit, its
 * wheel and pinch zoom, and the bounds it keeps the tree within are computed here, on the
 * overview's own geometry (pure; the canvas size and the tree's shape come in).
 *
 * - Fit fits height and width: the lanes are squeezed when the pane is narrow, and room is kept
 *   for the compaction labels right of the lanes, the leaf label left of them, and the colour key.
 * - Zooming at a point keeps the lane and the row under the pointer where they were.
 * - The tree never leaves the canvas: at least MARGIN px of it stays in view.
 */
import type { Viewport } from "@xyflow/react";
import { COL_W, NODE_H, ROW_H, type FlowGraph, type FlowNode } from "./layout";
import { MIN_LANE_PX, OVERVIEW_ZOOM, overviewGeometry, type OverviewGeometry, type Transform } from "./overview";
import type { CanvasSize } from "./viewport";

/** the widest compaction label ("999.9K → 999.9K tok (est.)"): the CSS caps it at this */
export const BAND_LABEL_W = 190;
/** room left of lane 0: the "leaf" label and a branch summary's diamond */
const LEFT_ROOM = 60;
/** room left of the tree for the colour key (top left of the pane) */
export const KEY_ROOM = 196;
const PAD = { top: 24, bottom: 24, right: 24, left: 12 };
/** lanes never closer than this, however narrow the pane */
const MIN_SQUEEZED_LANE_PX = 3;
/** this much of the tree stays in view whatever the zoom or pan */
export const MARGIN = 48;

/** The numbers of the tree's shape the overview's extent depends on. */
export interface OverviewShape {
  lanes: number;
  rows: number;
  /** lanes holding a compaction (their labels stand right of them) */
  bandLanes: number[];
}

const shapes = new WeakMap<FlowGraph, OverviewShape>();

export function overviewShape(graph: FlowGraph): OverviewShape {
  const cached = shapes.get(graph);
  if (cached) return cached;
  let lanes = 1;
  let rows = 1;
  const bands = new Set<number>();
  for (let v = 0; v < graph.nodes.length; v++) {
    const lane = graph.lane[v] as number;
    lanes = Math.max(lanes, lane + 1);
    rows = Math.max(rows, (graph.row[v] as number) + 1);
    const n = graph.nodes[v] as FlowNode;
    if (n.type === "entry" && n.data.type === "compaction") bands.add(lane);
  }
  const shape = { lanes, rows, bandLanes: [...bands].sort((a, b) => a - b) };
  shapes.set(graph, shape);
  return shape;
}

/** room right of the last lane's bar centre, beyond the lanes' spread */
function rightRoom(shape: OverviewShape, lane: (l: number) => number, laneStep: number): number {
  const last = lane(shape.lanes - 1);
  let right = last + 16;
  for (const l of shape.bandLanes) right = Math.max(right, lane(l) + laneStep / 2 + 2 + BAND_LABEL_W);
  return right - last;
}

/**
 * The narrowest lane spacing of the overview in a pane this wide: MIN_LANE_PX, or less when that
 * many lanes (with their labels and the key) would not fit across the pane.
 */
export function minLanePx(shape: OverviewShape, paneWidth: number): number {
  if (shape.lanes <= 1) return MIN_LANE_PX;
  const room = paneWidth - KEY_ROOM - PAD.left - PAD.right - LEFT_ROOM - (shape.bandLanes.length > 0 ? BAND_LABEL_W + 12 : 16);
  return Math.max(MIN_SQUEEZED_LANE_PX, Math.min(MIN_LANE_PX, room / (shape.lanes - 1)));
}

/** The overview's geometry for this tree in a pane of this width. */
export function geometryIn(graph: FlowGraph, t: Transform, paneWidth: number): OverviewGeometry {
  return overviewGeometry(t, minLanePx(overviewShape(graph), paneWidth));
}

export interface Extent {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The screen box the overview draws the tree in (bars, marks and labels). */
export function overviewExtent(shape: OverviewShape, g: OverviewGeometry): Extent {
  return {
    left: g.laneX(0) - g.barW / 2 - LEFT_ROOM,
    right: g.laneX(shape.lanes - 1) + rightRoom(shape, g.laneX, g.laneStep),
    top: g.rowY(0) - 10,
    bottom: g.rowY(shape.rows - 1) + g.barH + 10,
  };
}

/**
 * Fit for a tree drawn as the overview: the zoom that fits its rows into the height and its lanes
 * (squeezed if need be) with their labels into the width, below the overview's zoom; the tree
 * centred across the room right of the key, its top under the pane's top.
 */
export function overviewFitViewport(graph: FlowGraph, size: CanvasSize, minZoom: number): Viewport {
  const shape = overviewShape(graph);
  const minLane = minLanePx(shape, size.width);
  const roomW = size.width - KEY_ROOM - PAD.left - PAD.right;
  const roomH = size.height - PAD.top - PAD.bottom;
  // rows: the bars' tops span (rows - 1) rows, plus a bar and the marks under the last one
  const zoomH = (roomH - 20 - NODE_H * 0.05) / Math.max(1, (shape.rows - 1) * ROW_H);
  // lanes at true scale (wider than the narrowest spacing): (lanes - 1) columns, the leaf label and the labels
  const zoomW = (roomW - LEFT_ROOM - BAND_LABEL_W - 20) / Math.max(1, (shape.lanes - 0.5) * COL_W);
  const zoom = Math.max(minZoom, Math.min(zoomH, OVERVIEW_ZOOM * 0.98, Math.max(zoomW, minLane / COL_W)));
  const g = overviewGeometry({ x: 0, y: 0, zoom }, minLane);
  const e = overviewExtent(shape, g);
  const x = PAD.left + KEY_ROOM + Math.max(0, (roomW - (e.right - e.left)) / 2) - e.left;
  const y = PAD.top - e.top;
  return { x, y, zoom };
}

/**
 * Zoom by `factor` about the screen point (px, py): the lane and the row under the point stay
 * under it (in the overview lanes are not at true scale, so React Flow's own zoom would slide
 * them), and the tree is kept in view.
 */
export function zoomAt(graph: FlowGraph, t: Transform, factor: number, px: number, py: number, size: CanvasSize, limits: { min: number; max: number }): Transform {
  const zoom = Math.min(limits.max, Math.max(limits.min, t.zoom * factor));
  const before = geometryIn(graph, t, size.width);
  const lane = (px - before.laneX(0)) / before.laneStep;
  const after = geometryIn(graph, { x: 0, y: 0, zoom }, size.width);
  const x = px - after.laneX(0) - lane * after.laneStep;
  const y = py - ((py - t.y) * zoom) / t.zoom;
  return keepInView(graph, { x, y, zoom }, size);
}

/**
 * The transform moved (not zoomed) just enough that at least MARGIN px of the tree's bars stay on
 * the canvas, and right of the colour key (top left) when it would leave by the left.
 */
export function keepInView(graph: FlowGraph, t: Transform, size: CanvasSize): Transform {
  // the bars themselves, not the room kept for labels and marks
  const shape = overviewShape(graph);
  const g = geometryIn(graph, t, size.width);
  const e = { left: g.laneX(0) - g.barW / 2, right: g.laneX(shape.lanes - 1) + g.barW / 2, top: g.rowY(0), bottom: g.rowY(shape.rows - 1) + g.barH };
  const shift = (lo: number, hi: number, limit: number, before: number) => {
    const size = hi - lo;
    const low = Math.min(before + MARGIN, limit / 2, before + size);
    const high = Math.max(limit - MARGIN, limit / 2, limit - size);
    if (hi < low) return low - hi;
    if (lo > high) return high - lo;
    return 0;
  };
  return { x: t.x + shift(e.left, e.right, size.width, KEY_ROOM), y: t.y + shift(e.top, e.bottom, size.height, 0), zoom: t.zoom };
}

/** The transform at `zoom` that puts a lane's bar centre and a row (fractional) in the middle of the canvas. */
export function centerOn(graph: FlowGraph, lane: number, row: number, zoom: number, size: CanvasSize): Transform {
  const g = geometryIn(graph, { x: 0, y: 0, zoom }, size.width);
  return { x: size.width / 2 - g.laneX(lane), y: size.height / 2 - g.rowY(row), zoom };
}

/** The lanes (fractional; a lane's bar centre at lane + 0.3) and rows the canvas shows under a transform. */
export function inView(graph: FlowGraph, t: Transform, size: CanvasSize): { lanes: [number, number]; rows: [number, number] } {
  const g = geometryIn(graph, t, size.width);
  const lane = (x: number) => (x - g.laneX(0)) / g.laneStep + 0.3;
  const row = (y: number) => (y - t.y) / g.rowStep;
  return { lanes: [lane(0), lane(size.width)], rows: [row(0), row(size.height)] };
}

/** React Flow's wheel step (d3-zoom's, as @xyflow/system sets it): 2^delta per event. */
export function wheelFactor(deltaY: number, deltaMode: number, pinch: boolean): number {
  const delta = -deltaY * (deltaMode === 1 ? 0.05 : deltaMode ? 1 : 0.002) * (pinch ? 10 : 1);
  return 2 ** delta;
}
