import { describe, expect, it } from "vitest";
import { firstScreen } from "./first-screen";
import { NODE_H, NODE_W, toFlow } from "./layout";
import { indexTree } from "./model";
import { syntheticSkeleton } from "../../../../test/renderer/synthetic-skeleton";
import { focusViewport } from "./viewport";

const size = { width: 1000, height: 700 };
const skeleton = syntheticSkeleton({ entries: 20_000, branchEvery: 150, compactEvery: 4000, seed: 9 });
const graph = toFlow(indexTree(skeleton.nodes), { leafId: skeleton.leafId, minRun: 100_000 });

describe("the first frame of a large tree", () => {
  it("holds every node that shows in the starting view, few others, and only the edges between them", () => {
    const vp = focusViewport(graph, skeleton.leafId!, size, 0.0005);
    const { nodes, edges } = firstScreen(graph, vp, size);
    const onCanvas = (x: number, y: number) => vp.x + (x + NODE_W) * vp.zoom >= 0 && vp.x + x * vp.zoom <= size.width && vp.y + (y + NODE_H) * vp.zoom >= 0 && vp.y + y * vp.zoom <= size.height;
    const inView = graph.nodes.filter((n) => onCanvas(n.position.x, n.position.y));
    expect(inView.length).toBeGreaterThan(3);
    expect(nodes).toEqual(expect.arrayContaining(inView));
    expect(nodes).toContain(graph.nodes[graph.flowOf[graph.active.leaf]!]);
    // the view and half a canvas around it: a few dozen nodes of thousands
    expect(graph.nodes.length).toBeGreaterThan(10_000);
    expect(nodes.length).toBeLessThan(100);
    const ids = new Set(nodes.map((n) => n.id));
    expect(edges.length).toBeGreaterThan(0);
    for (const e of edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
    // every edge of the graph between two of its nodes is there
    expect(edges).toEqual(graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)));
  });

  it("is the nodes as laid out (the picture does not move when the rest arrives)", () => {
    const vp = { x: 120, y: -4000, zoom: 0.8 };
    for (const node of firstScreen(graph, vp, size).nodes) expect(graph.nodes[graph.flowIndex.get(node.id)!]).toBe(node);
  });
});
