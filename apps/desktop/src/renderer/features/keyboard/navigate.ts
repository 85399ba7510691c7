/**
 * Arrow-key movement over the visible tree (flow nodes): Up = parent, Down = child (the one on
 * the active path first), Left/Right = previous/next sibling. Pure; tested.
 */
import type { FlowGraph } from "../tree/layout";

export type Direction = "up" | "down" | "left" | "right";

export function step(graph: FlowGraph, fromId: string | null, dir: Direction): string | null {
  const nodes = graph.nodes;
  if (nodes.length === 0) return null;
  const from = fromId === null ? undefined : graph.flowIndex.get(fromId);
  if (from === undefined) {
    // nothing selected yet: start at the active leaf, else at the first root
    const leaf = graph.active.leaf >= 0 ? graph.flowOf[graph.active.leaf] : -1;
    return (nodes[leaf !== undefined && leaf >= 0 ? leaf : 0] ?? nodes[0])?.id ?? null;
  }
  const parent = graph.flowParent[from] as number;
  switch (dir) {
    case "up":
      return parent >= 0 ? (nodes[parent]?.id ?? null) : null;
    case "down": {
      const kids = graph.flowChildren[from] ?? [];
      const onPath = kids.find((k) => nodes[k]?.data.onPath);
      const pick = onPath ?? kids[0];
      return pick === undefined ? null : (nodes[pick]?.id ?? null);
    }
    case "left":
    case "right": {
      const siblings = parent >= 0 ? (graph.flowChildren[parent] ?? []) : rootsOf(graph);
      const at = siblings.indexOf(from);
      const next = siblings[at + (dir === "left" ? -1 : 1)];
      return next === undefined ? null : (nodes[next]?.id ?? null);
    }
  }
}

function rootsOf(graph: FlowGraph): number[] {
  const out: number[] = [];
  for (let v = 0; v < graph.flowParent.length; v++) if ((graph.flowParent[v] as number) < 0) out.push(v);
  return out;
}

/** Whether a keyboard event comes from a text field (shortcuts must not fire there). */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as { tagName?: unknown }).tagName !== "string") return false;
  const el = target as unknown as { tagName: string; isContentEditable?: boolean };
  return el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable === true;
}

/** A focused control that Enter activates by itself (button, link, summary). */
export function isActivatable(target: EventTarget | null): boolean {
  const tag = (target as { tagName?: unknown } | null)?.tagName;
  return tag === "BUTTON" || tag === "A" || tag === "SUMMARY";
}
