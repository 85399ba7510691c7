/**
 * The tree below the readable zoom: one <canvas> painted from the layout (overview.ts), plus a few
 * DOM labels (compaction bands "99.9K → 22.6K tok", the leaf). Redrawn on every pan and zoom.
 */
import { useEffect, useMemo, useRef } from "react";
import { useStore, useStoreApi } from "@xyflow/react";
import { useBonsai } from "../../state/store";
import type { FlowGraph, FlowNode } from "./layout";
import { cssColor } from "./css-color";
import { bandsOf, declutter, nodeKind, pathRanges, rowsOf, runsOf, type OverviewGeometry } from "./overview";
import { BAND_LABEL_W, geometryIn, overviewExtent, overviewShape } from "./overview-viewport";

/** the colours of the explorer's CSS palette, resolved by the page (they follow the theme) */
function palette(el: HTMLElement) {
  const v = (name: string) => cssColor(el, name);
  return {
    user: v("--bz-user"),
    assistant: v("--bz-assistant"),
    toolResult: v("--bz-tool"),
    bash: v("--bz-bash"),
    custom: v("--bz-custom"),
    meta: v("--bz-meta"),
    compaction: v("--bz-compaction"),
    branchPoint: v("--bz-branch"),
    branchSummary: v("--bz-branch-summary"),
    path: v("--bz-path"),
    muted: v("--muted"),
    accent: v("--accent"),
    fg: v("--fg"),
  };
}

type Palette = ReturnType<typeof palette>;

interface Scene {
  graph: FlowGraph;
  runs: ReturnType<typeof runsOf>;
  ranges: ReturnType<typeof pathRanges>;
  plan: [number, number] | null;
  selected: number;
}

function draw(ctx: CanvasRenderingContext2D, scene: Scene, g: OverviewGeometry, width: number, height: number, colors: Palette): void {
  const { graph } = scene;
  ctx.clearRect(0, 0, width, height);
  const visible = (top: number, bottom: number) => bottom >= -4 && top <= height + 4;

  // the plan's range, shaded behind everything
  if (scene.plan) {
    const top = g.rowY(scene.plan[0]) - 3;
    const bottom = g.rowY(scene.plan[1]) + g.barH + 3;
    ctx.fillStyle = colors.compaction;
    ctx.globalAlpha = 0.18;
    ctx.fillRect(g.laneX(0) - g.laneStep / 2, top, g.laneStep, Math.max(3, bottom - top));
    ctx.globalAlpha = 1;
  }

  // edges: a line from each parent's bar to its child's
  ctx.lineWidth = 1;
  for (let v = 0; v < graph.nodes.length; v++) {
    const p = graph.flowParent[v] as number;
    if (p < 0) continue;
    const y1 = g.rowY(graph.row[p] as number) + g.barH;
    const y2 = g.rowY(graph.row[v] as number);
    if (!visible(Math.min(y1, y2), Math.max(y1, y2))) continue;
    const node = graph.nodes[v] as FlowNode;
    ctx.strokeStyle = node.data.onPath ? colors.path : colors.muted;
    ctx.globalAlpha = node.data.onPath ? 0.9 : 0.6;
    ctx.beginPath();
    ctx.moveTo(g.laneX(graph.lane[p] as number), y1);
    ctx.lineTo(g.laneX(graph.lane[v] as number), y2);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;

  // bars, one per node (a run of tiny bars reads as one shape)
  for (const run of scene.runs) {
    const top = g.rowY(run.rowStart);
    const bottom = g.rowY(run.rowEnd) + g.barH;
    if (!visible(top, bottom)) continue;
    const x = g.laneX(run.lane) - g.barW / 2;
    for (const v of run.nodes) {
      const y = g.rowY(graph.row[v] as number);
      if (!visible(y, y + g.barH)) continue;
      const node = graph.nodes[v] as FlowNode;
      const kind = nodeKind(node);
      ctx.fillStyle = kind === "segment" ? colors.meta : colors[kind];
      ctx.globalAlpha = !node.data.onPath ? 0.55 : node.data.region === "summarized" ? 0.45 : 1;
      ctx.fillRect(x, y, g.barW, g.barH);
    }
  }
  ctx.globalAlpha = 1;

  // brackets beside the active path's column
  const bracket = (range: [number, number] | null, color: string, dashed: boolean) => {
    if (!range) return;
    const x = g.laneX(0) - g.barW / 2 - 8;
    const top = g.rowY(range[0]);
    const bottom = g.rowY(range[1]) + g.barH;
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.setLineDash(dashed ? [4, 3] : []);
    ctx.beginPath();
    ctx.moveTo(x + 4, top);
    ctx.lineTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.lineTo(x + 4, bottom);
    ctx.stroke();
    ctx.setLineDash([]);
  };
  bracket(scene.ranges.summarized, colors.muted, true);
  bracket(scene.ranges.kept, colors.path, false);

  // compaction bands across the column, branch points, leaves (a mark close under the last one of
  // its lane is left out: at a distant zoom hundreds of them would paint the column over)
  const lastMark = new Map<number, number>();
  for (let v = 0; v < graph.nodes.length; v++) {
    const node = graph.nodes[v] as FlowNode;
    const y = g.rowY(graph.row[v] as number);
    if (!visible(y - 8, y + g.barH + 8)) continue;
    const cx = g.laneX(graph.lane[v] as number);
    const cy = y + g.barH / 2;
    if (node.type === "entry" && node.data.type === "compaction") {
      const h = Math.max(4, g.barH);
      ctx.fillStyle = colors.compaction;
      ctx.globalAlpha = node.data.onPath ? 1 : 0.6;
      ctx.fillRect(cx - g.laneStep / 2 + 1, cy - h / 2, g.laneStep - 2, h);
      ctx.globalAlpha = 1;
    }
    if (node.type === "entry" && node.data.kind === "branchSummary") {
      // a branch summary: a diamond of its own colour left of its bar (a fork's mark is a pink dot on the right)
      const r = Math.max(3.5, Math.min(6, g.barH));
      const dx = cx - g.barW / 2 - r - 1;
      ctx.fillStyle = colors.branchSummary;
      ctx.beginPath();
      ctx.moveTo(dx, cy - r);
      ctx.lineTo(dx + r, cy);
      ctx.lineTo(dx, cy + r);
      ctx.lineTo(dx - r, cy);
      ctx.closePath();
      ctx.fill();
    }
    const children = graph.flowChildren[v]?.length ?? 0;
    const lane = graph.lane[v] as number;
    const spaced = cy - (lastMark.get(lane) ?? -Infinity) >= 7;
    if (children > 1 && spaced) {
      lastMark.set(lane, cy);
      // a fork: a short stroke toward the side lane
      ctx.strokeStyle = colors.branchPoint;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(cx + g.barW / 2, cy);
      ctx.lineTo(cx + g.barW / 2 + 5, cy - 3);
      ctx.stroke();
      ctx.fillStyle = colors.branchPoint;
      ctx.beginPath();
      ctx.arc(cx + g.barW / 2, cy, 2.5, 0, Math.PI * 2);
      ctx.fill();
    } else if (children === 0) {
      ctx.fillStyle = node.data.onPath ? colors.path : colors.muted;
      ctx.beginPath();
      ctx.moveTo(cx - 4, y + g.barH);
      ctx.lineTo(cx + 4, y + g.barH);
      ctx.lineTo(cx, y + g.barH + 6);
      ctx.closePath();
      ctx.fill();
    }
    if (node.type === "entry" && node.data.isLeaf) {
      ctx.strokeStyle = colors.path;
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.arc(cx, cy, 8, 0, Math.PI * 2);
      ctx.stroke();
    }
    if (v === scene.selected) {
      ctx.strokeStyle = colors.accent;
      ctx.lineWidth = 2.5;
      ctx.strokeRect(cx - g.barW / 2 - 4, y - 4, g.barW + 8, g.barH + 8);
    }
  }
}

/** DOM labels: the bands' figures (kept apart so they never overlap) and the leaf. */
function Labels({ graph, g, height }: { graph: FlowGraph; g: OverviewGeometry; height: number }) {
  const index = useBonsai((s) => s.index);
  const treeTokens = useBonsai((s) => s.treeTokens);
  const bands = useMemo(() => (index ? bandsOf(graph, index, treeTokens) : []), [graph, index, treeTokens]);
  const placed = declutter(
    bands
      .map((b) => ({ ...b, y: g.rowY(graph.row[b.v] as number) + g.barH / 2, x: g.laneX(graph.lane[b.v] as number) + g.laneStep / 2 + 2 }))
      .filter((b) => b.y > -10 && b.y < height + 10),
    18,
  ).slice(0, 60);
  const leafV = graph.active.leaf >= 0 ? (graph.flowOf[graph.active.leaf] as number) : -1;
  const leafY = leafV >= 0 ? g.rowY(graph.row[leafV] as number) + g.barH / 2 : -100;
  return (
    <>
      {placed.map((b) => (
        <div
          key={b.entryId}
          className={`bz-band-label${b.onPath ? "" : " bz-band-off"}`}
          data-testid="compaction-band"
          data-entry-id={b.entryId}
          style={{ transform: `translate(${b.x}px, ${b.y}px) translateY(-50%)`, maxWidth: BAND_LABEL_W }}
          title={b.title}
        >
          {b.label}
        </div>
      ))}
      {leafV >= 0 && leafY > -10 && leafY < height + 10 ? (
        <div className="bz-band-label bz-leaf-label" data-testid="overview-leaf" style={{ transform: `translate(${g.laneX(graph.lane[leafV] as number) - g.barW / 2 - 14}px, ${leafY}px) translate(-100%, -50%)` }}>
          leaf
        </div>
      ) : null}
    </>
  );
}

export function OverviewLayer({ graph, dark }: { graph: FlowGraph; dark: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const flowStore = useStoreApi();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const transform = useStore((s) => s.transform);
  const selectedId = useBonsai((s) => s.selectedId);
  const plan = useBonsai((s) => (s.panel === "compact" && s.plan?.possible ? s.plan : null));
  const index = useBonsai((s) => s.index);
  const runs = useMemo(() => runsOf(graph), [graph]);
  const ranges = useMemo(() => pathRanges(graph), [graph]);
  const planRows = useMemo(() => (plan && index ? rowsOf(graph, index, [...plan.summarizedEntryIds, ...plan.turnPrefixEntryIds]) : null), [plan, index, graph]);
  const selected = selectedId === null ? -1 : (graph.flowIndex.get(selectedId) ?? -1);
  const counts = useMemo(() => {
    let branchPoints = 0;
    let leaves = 0;
    let compactions = 0;
    for (let v = 0; v < graph.nodes.length; v++) {
      const kids = graph.flowChildren[v]?.length ?? 0;
      if (kids > 1) branchPoints++;
      if (kids === 0) leaves++;
      const n = graph.nodes[v] as FlowNode;
      if (n.type === "entry" && n.data.type === "compaction") compactions++;
    }
    return { branchPoints, leaves, compactions };
  }, [graph]);

  // the palette is read from the page once per theme, not on every frame of a pan
  const colors = useRef<{ dark: boolean; palette: Palette } | null>(null);
  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (!el || !ctx || width === 0 || height === 0) return;
    const ratio = window.devicePixelRatio || 1;
    // setting a canvas's size clears and reallocates it: only when it changed
    if (el.width !== Math.round(width * ratio) || el.height !== Math.round(height * ratio)) {
      el.width = Math.round(width * ratio);
      el.height = Math.round(height * ratio);
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    if (colors.current?.dark !== dark) colors.current = { dark, palette: palette(el) };
    const [x, y, zoom] = flowStore.getState().transform;
    draw(ctx, { graph, runs, ranges, plan: planRows, selected }, geometryIn(graph, { x, y, zoom }, width), width, height, colors.current.palette);
  }, [graph, runs, ranges, planRows, selected, width, height, transform, dark, flowStore]);

  const g = geometryIn(graph, { x: transform[0], y: transform[1], zoom: transform[2] }, width);
  const extent = overviewExtent(overviewShape(graph), g);
  return (
    <div
      className="bz-overview"
      data-testid="tree-overview"
      data-compaction-bands={counts.compactions}
      data-branch-points={counts.branchPoints}
      data-leaves={counts.leaves}
      data-lanes={overviewShape(graph).lanes}
      data-extent={[extent.left, extent.top, extent.right, extent.bottom].map(Math.round).join(" ")}
    >
      <canvas
        ref={canvas}
        className="bz-overview-canvas"
        style={{ width, height }}
        role="img"
        aria-label={`Overview of the tree: ${graph.nodes.length.toLocaleString("en")} nodes, ${counts.compactions} compactions, ${counts.branchPoints} branch points, ${counts.leaves} branch tips. Zoom in to read the entries; click a bar to select it.`}
      />
      <Labels graph={graph} g={g} height={height} />
      <OverviewKey />
    </div>
  );
}

const KEY: Array<{ shape: "bar" | "dot" | "diamond" | "ring" | "tip" | "band"; color: string; label: string }> = [
  { shape: "bar", color: "--bz-user", label: "user message" },
  { shape: "bar", color: "--bz-assistant", label: "assistant message" },
  { shape: "bar", color: "--bz-tool", label: "tool result" },
  { shape: "bar", color: "--bz-bash", label: "bash run by the user" },
  { shape: "bar", color: "--bz-custom", label: "extension message" },
  { shape: "bar", color: "--bz-meta", label: "model, label, other" },
  { shape: "band", color: "--bz-compaction", label: "compaction" },
  { shape: "diamond", color: "--bz-branch-summary", label: "branch summary" },
  { shape: "dot", color: "--bz-branch", label: "branch point" },
  { shape: "tip", color: "--bz-path", label: "branch tip" },
  { shape: "ring", color: "--bz-path", label: "active leaf" },
];

/** The overview's colour key: bar colours and marks, folded until opened (open by default). */
function OverviewKey() {
  return (
    <details className="bz-overview-key" data-testid="overview-key" open>
      <summary>Key</summary>
      <ul>
        {KEY.map((k) => (
          <li key={k.label} data-key={k.label}>
            <span className={`bz-key-${k.shape}`} style={{ ["--c" as string]: `var(${k.color})` }} aria-hidden />
            {k.label}
          </li>
        ))}
      </ul>
    </details>
  );
}
