/**
 * The first frame of a large tree: React Flow takes every node and edge it is given into its own
 * lookups, and with thousands (a 100,000-entry session: about 3,000 flow nodes) that and its
 * visibility checks held the first frame for most of a second. So a freshly mounted canvas first
 * gets only the nodes in and around its starting view, and the whole graph once that frame has
 * been painted (TreeCanvas.tsx). Every position is the full layout's: the picture does not move.
 */
import { useEffect, useState } from "react";
import type { Edge, Viewport } from "@xyflow/react";
import { afterPaint } from "../../lib/after-paint";
import { NODE_H, NODE_W, type FlowGraph, type FlowNode } from "./layout";
import type { CanvasSize } from "./viewport";

/** graphs of more flow nodes than this draw their first frame from the nodes in view only */
export const FIRST_SCREEN_FROM = 400;

/** the part of the graph a canvas of `size` at `viewport` shows, with `margin` canvases around it on every side */
export function firstScreen(graph: FlowGraph, viewport: Viewport, size: CanvasSize, margin = 0.5): { nodes: FlowNode[]; edges: Edge[] } {
  const zoom = viewport.zoom > 0 ? viewport.zoom : 1;
  const w = size.width / zoom;
  const h = size.height / zoom;
  const left = -viewport.x / zoom - margin * w;
  const top = -viewport.y / zoom - margin * h;
  const right = left + (1 + 2 * margin) * w;
  const bottom = top + (1 + 2 * margin) * h;
  const shown = new Set<string>();
  const nodes: FlowNode[] = [];
  for (let v = 0; v < graph.nodes.length; v++) {
    const node = graph.nodes[v]!;
    const { x, y } = node.position;
    if (x + NODE_W < left || x > right || y + NODE_H < top || y > bottom) continue;
    nodes.push(node);
    shown.add(node.id);
  }
  const edges = graph.edges.filter((e) => shown.has(e.source) && shown.has(e.target));
  return { nodes, edges };
}

/** false until the frame that drew the calling component's first render has been painted (lib/after-paint.ts) */
export function usePaintedOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterPaint(() => setPainted(true)), []);
  return painted;
}
