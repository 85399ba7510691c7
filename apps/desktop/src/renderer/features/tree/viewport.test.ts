import { describe, expect, it } from "vitest";
import { NODE_H, NODE_W, toFlow } from "./layout";
import { indexTree } from "./model";
import { syntheticSkeleton } from "../../../../test/renderer/synthetic-skeleton";
import { OVERVIEW_ZOOM } from "./overview";
import { centerViewport, fitViewport, focusViewport } from "./viewport";

const size = { width: 800, height: 600 };
const skeleton = syntheticSkeleton({ entries: 3000, branchEvery: 300, compactEvery: 1000, seed: 4 });
const graph = toFlow(indexTree(skeleton.nodes), { leafId: skeleton.leafId });

/** where a flow node's center lands on the canvas under a viewport */
function onScreen(id: string, vp: { x: number; y: number; zoom: number }): { x: number; y: number } {
  const node = graph.nodes[graph.flowIndex.get(id)!]!;
  return { x: vp.x + (node.position.x + NODE_W / 2) * vp.zoom, y: vp.y + (node.position.y + NODE_H / 2) * vp.zoom };
}

describe("the viewport a canvas opens with", () => {
  it("puts the leaf in the middle of the canvas at zoom 1", () => {
    const vp = focusViewport(graph, skeleton.leafId!, size, 0.02);
    expect(vp.zoom).toBe(1);
    expect(onScreen(skeleton.leafId!, vp)).toEqual({ x: 400, y: 300 });
  });

  it("centers any node at the zoom asked for", () => {
    const id = graph.nodes[7]!.id;
    const vp = centerViewport(graph, id, size, 0.5)!;
    expect(vp.zoom).toBe(0.5);
    expect(onScreen(id, vp)).toEqual({ x: 400, y: 300 });
    expect(centerViewport(graph, "no-such-node", size, 1)).toBeNull();
  });

  it("fits a tree readable when fitted inside the canvas, clear of the legend, the controls and the brackets", () => {
    const small = syntheticSkeleton({ entries: 9, branchEvery: 4, seed: 4 });
    const g = toFlow(indexTree(small.nodes), { leafId: small.leafId, minRun: 100 });
    const tall = { width: 800, height: 1000 };
    const vp = fitViewport(g, tall, 0.0005);
    expect(vp.zoom).toBeLessThan(1);
    expect(vp.zoom).toBeGreaterThanOrEqual(OVERVIEW_ZOOM);
    for (const node of g.nodes) {
      const left = vp.x + node.position.x * vp.zoom;
      const top = vp.y + node.position.y * vp.zoom;
      expect(left).toBeGreaterThanOrEqual(80 - 1);
      expect(left + NODE_W * vp.zoom).toBeLessThanOrEqual(tall.width - 32 + 1);
      expect(top).toBeGreaterThanOrEqual(40 - 1);
      expect(top + NODE_H * vp.zoom).toBeLessThanOrEqual(tall.height - 24 + 1);
    }
  });

  it("fits when asked to, or when the target is not drawn", () => {
    expect(focusViewport(graph, "fit", size, 0.02)).toEqual(fitViewport(graph, size, 0.02));
    expect(focusViewport(graph, "missing", size, 0.02)).toEqual(fitViewport(graph, size, 0.02));
  });

  it("never zooms a small tree in beyond 1", () => {
    const small = syntheticSkeleton({ entries: 3, seed: 1 });
    const g = toFlow(indexTree(small.nodes), { leafId: small.leafId });
    expect(fitViewport(g, size, 0.02).zoom).toBe(1);
  });
});
