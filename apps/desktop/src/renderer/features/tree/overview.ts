/**
 * The tree below the readable zoom (semantic zoom) and in the minimap: pure geometry, drawn on one
 * <canvas> by OverviewLayer and Minimap. Nodes become bars coloured by kind, runs of a lane become
 * one shape, compactions become bands across the column labelled "before → after" (what the model
 * sees from the compaction), branch points and leaves keep a mark. Lanes keep a minimum spacing on
 * screen, so the session's shape shows even when a 100,000-entry tree is fitted into the window.
 */
import { compactionBandLabel, compactionBandTitle } from "./context-tokens";
import { COL_W, NODE_H, NODE_W, ROW_H, type FlowGraph, type FlowNode } from "./layout";
import { Region, type NodeKind, type TreeIndex } from "./model";

/** below this zoom the tree is drawn as the overview */
export const OVERVIEW_ZOOM = 0.35;
/** lanes never closer than this on screen in the overview */
export const MIN_LANE_PX = 16;
/** a bar is never thinner than this, nor wider or taller than these */
const MIN_BAR_W = 6;
const MAX_BAR_W = 40;
const MAX_BAR_H = 14;

export interface Transform {
  x: number;
  y: number;
  zoom: number;
}

/** Screen placement of flow nodes in the overview: true scale vertically, lanes spread horizontally. */
export interface OverviewGeometry {
  /** screen x of a lane's bar centre */
  laneX(lane: number): number;
  /** screen y of a row's top */
  rowY(row: number): number;
  /** bar size on screen */
  barW: number;
  barH: number;
  laneStep: number;
  rowStep: number;
}

/** `minLane`: the narrowest lane spacing (less than MIN_LANE_PX in a pane too narrow for the lanes: overview-viewport.ts) */
export function overviewGeometry(t: Transform, minLane = MIN_LANE_PX): OverviewGeometry {
  const laneStep = Math.max(COL_W * t.zoom, minLane);
  const rowStep = ROW_H * t.zoom;
  const x0 = t.x + (NODE_W / 2) * t.zoom;
  return {
    laneX: (lane) => x0 + lane * laneStep,
    rowY: (row) => t.y + row * rowStep,
    // compact bars: never wider than a lane, never taller than a line of text
    barW: Math.max(Math.min(MIN_BAR_W, laneStep - 1), Math.min(NODE_W * t.zoom * 0.3, MAX_BAR_W, laneStep - 6)),
    barH: Math.max(1.5, Math.min(NODE_H * t.zoom * 0.5, MAX_BAR_H)),
    laneStep,
    rowStep,
  };
}

/** A run: consecutive flow nodes of one lane, each the child of the one before. */
export interface Run {
  lane: number;
  rowStart: number;
  rowEnd: number;
  /** flow node indices, top to bottom */
  nodes: number[];
  onPath: boolean;
}

export function runsOf(graph: FlowGraph): Run[] {
  const runs: Run[] = [];
  const runOf = new Int32Array(graph.nodes.length).fill(-1);
  for (let v = 0; v < graph.nodes.length; v++) {
    const p = graph.flowParent[v] as number;
    const lane = graph.lane[v] as number;
    const onPath = (graph.nodes[v] as FlowNode).data.onPath;
    const continues = p >= 0 && graph.lane[p] === lane && (runOf[p] as number) >= 0 && runs[runOf[p] as number]!.onPath === onPath;
    if (continues) {
      const r = runs[runOf[p] as number]!;
      r.nodes.push(v);
      r.rowEnd = graph.row[v] as number;
      runOf[v] = runOf[p] as number;
    } else {
      runOf[v] = runs.length;
      runs.push({ lane, rowStart: graph.row[v] as number, rowEnd: graph.row[v] as number, nodes: [v], onPath });
    }
  }
  return runs;
}

export interface Band {
  /** flow node index of the compaction */
  v: number;
  entryId: string;
  /** "998.7K → 5.2K tok": the recorded tokensBefore → what the model sees from the compaction */
  label: string;
  /** both figures named (context-tokens.ts compactionBandTitle) */
  title: string;
  onPath: boolean;
}

/** The compactions of the drawn tree as bands, with their before → after figures ("…" until they are computed). */
export function bandsOf(graph: FlowGraph, index: TreeIndex, contextTokens: Float64Array | null): Band[] {
  const bands: Band[] = [];
  for (let v = 0; v < graph.nodes.length; v++) {
    const node = graph.nodes[v] as FlowNode;
    if (node.type !== "entry" || node.data.type !== "compaction") continue;
    const i = index.byId.get(node.id);
    const label = i === undefined ? "… tok" : compactionBandLabel(index, contextTokens, i);
    const title = i === undefined ? `Compaction ${node.id}` : compactionBandTitle(index, contextTokens, i, node.id);
    bands.push({ v, entryId: node.id, label, title, onPath: node.data.onPath });
  }
  return bands;
}

/** Keeps the labels (screen y, top to bottom) at least `gap` apart: the others are drawn without text. */
export function declutter<T extends { y: number }>(items: readonly T[], gap: number): T[] {
  const sorted = [...items].sort((a, b) => a.y - b.y);
  const out: T[] = [];
  let last = -Infinity;
  for (const item of sorted) {
    if (item.y - last < gap) continue;
    out.push(item);
    last = item.y;
  }
  return out;
}

/** The flow node under a screen point in the overview (nearest bar within `slop` px), or -1. */
export function hitTest(graph: FlowGraph, g: OverviewGeometry, px: number, py: number, slop = 6): number {
  let best = -1;
  let bestD = Infinity;
  for (let v = 0; v < graph.nodes.length; v++) {
    const cx = g.laneX(graph.lane[v] as number);
    const top = g.rowY(graph.row[v] as number);
    const dx = Math.max(0, Math.abs(px - cx) - g.barW / 2);
    const dy = py < top ? top - py : py > top + g.barH ? py - (top + g.barH) : 0;
    const d = Math.hypot(dx, dy);
    if (d <= slop && d < bestD) {
      best = v;
      bestD = d;
    }
  }
  return best;
}

/** Bar colour of a node: its kind (a segment: its most frequent kind), summarized or off the path dimmed. */
export function nodeKind(node: FlowNode): NodeKind | "segment" {
  if (node.type === "entry") return node.data.kind;
  const { users, assistants, tools } = node.data;
  if (tools >= users && tools >= assistants) return "toolResult";
  return assistants >= users ? "assistant" : "user";
}

/** The active path's summarized and kept ranges (rows of lane 0), for the brackets beside the column. */
export function pathRanges(graph: FlowGraph): { summarized: [number, number] | null; kept: [number, number] | null } {
  // one indexed pass over the path (100,000 entries: it runs once per graph, mostly before the JIT warms up)
  let summarizedLo = Infinity;
  let summarizedHi = -Infinity;
  let keptLo = Infinity;
  let keptHi = -Infinity;
  const { path, region } = graph.active;
  for (let k = 0; k < path.length; k++) {
    const i = path[k] as number;
    const r = region[i];
    if (r !== Region.Summarized && r !== Region.Kept) continue;
    const v = graph.flowOf[i] as number;
    if (v < 0) continue;
    const row = graph.row[v] as number;
    if (r === Region.Summarized) {
      if (row < summarizedLo) summarizedLo = row;
      if (row > summarizedHi) summarizedHi = row;
    } else {
      if (row < keptLo) keptLo = row;
      if (row > keptHi) keptHi = row;
    }
  }
  return {
    summarized: summarizedLo <= summarizedHi ? [summarizedLo, summarizedHi] : null,
    kept: keptLo <= keptHi ? [keptLo, keptHi] : null,
  };
}

/** Rows (first, last) of the flow nodes holding these entries, or null. */
export function rowsOf(graph: FlowGraph, index: TreeIndex, entryIds: readonly string[]): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const id of entryIds) {
    const i = index.byId.get(id);
    const v = i === undefined ? -1 : (graph.flowOf[i] as number);
    if (v < 0) continue;
    lo = Math.min(lo, graph.row[v] as number);
    hi = Math.max(hi, graph.row[v] as number);
  }
  return lo <= hi ? [lo, hi] : null;
}

/** y of a row's top and bottom in flow coordinates */
export const rowTop = (row: number) => row * ROW_H;
export const rowBottom = (row: number) => row * ROW_H + NODE_H;
