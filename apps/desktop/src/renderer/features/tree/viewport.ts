/**
 * The viewport a freshly mounted canvas starts with, computed from the layout (every node has a
 * fixed size) and the canvas size: no DOM measuring, no animation.
 */
import { getNodesBounds, getViewportForBounds } from "@xyflow/react";
import type { Viewport } from "@xyflow/react";
import { NODE_H, NODE_W } from "./layout";
import type { FlowGraph } from "./layout";
import { OVERVIEW_ZOOM } from "./overview";
import { overviewFitViewport } from "./overview-viewport";

export interface CanvasSize {
  width: number;
  height: number;
}

/** keeps the fitted tree clear of the legend (top left), the zoom controls (bottom left) and the brackets left of the column */
export const FIT_PADDING = { top: "40px", bottom: "24px", left: "80px", right: "32px" } as const;

/** zoom when centering on one node: at least this, so a node's text stays readable */
const FOCUS_ZOOM = 0.8;

/** zoom of a canvas nothing has moved yet */
const START_ZOOM = 1;

/** The zoom for centering on one node, from the canvas's current zoom. */
export function focusZoom(current: number): number {
  return Math.max(current, FOCUS_ZOOM);
}

/**
 * Viewport showing the whole tree in height and width, never zoomed in beyond 1. A tree that fits
 * only below the readable zoom is drawn as the overview, whose lanes are wider than true scale:
 * its fit is the overview's own (overview-viewport.ts).
 */
export function fitViewport(graph: FlowGraph, size: CanvasSize, minZoom: number): Viewport {
  if (graph.nodes.length === 0) return { x: 0, y: 0, zoom: 1 };
  const fitted = getViewportForBounds(getNodesBounds(graph.nodes), size.width, size.height, minZoom, 1, FIT_PADDING);
  return fitted.zoom >= OVERVIEW_ZOOM ? fitted : overviewFitViewport(graph, size, minZoom);
}

/** Viewport centering one flow node at `zoom`; null when the node is not in the graph. */
export function centerViewport(graph: FlowGraph, flowId: string, size: CanvasSize, zoom: number): Viewport | null {
  const v = graph.flowIndex.get(flowId);
  const node = v === undefined ? undefined : graph.nodes[v];
  if (!node) return null;
  const cx = node.position.x + NODE_W / 2;
  const cy = node.position.y + NODE_H / 2;
  return { x: size.width / 2 - cx * zoom, y: size.height / 2 - cy * zoom, zoom };
}

/** below this zoom a node's text is too small to read: a session opens on its leaf instead */
const READABLE_ZOOM = 0.5;

/**
 * The viewport a new canvas opens with for a focus target: "fit", a flow node id, or "open" — the
 * whole tree when it fits at a readable zoom, else the leaf (the session's active end).
 */
export function focusViewport(graph: FlowGraph, target: string, size: CanvasSize, minZoom: number): Viewport {
  if (target === "open") {
    const fitted = fitViewport(graph, size, minZoom);
    const leaf = graph.active.leaf >= 0 ? graph.nodes[graph.flowOf[graph.active.leaf] as number]?.id : undefined;
    if (fitted.zoom >= READABLE_ZOOM || leaf === undefined) return fitted;
    return centerViewport(graph, leaf, size, focusZoom(START_ZOOM)) ?? fitted;
  }
  if (target !== "fit") {
    const centered = centerViewport(graph, target, size, focusZoom(START_ZOOM));
    if (centered) return centered;
  }
  return fitViewport(graph, size, minZoom);
}
