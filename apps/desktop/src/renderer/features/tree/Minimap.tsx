/**
 * The minimap: a column beside the tree (it never covers it), one shape per run of a lane, ticks
 * at compactions, and the part of the tree in view. Click or drag to look elsewhere; it folds away
 * (remembered).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useReactFlow, useStore } from "@xyflow/react";
import { useBonsai } from "../../state/store";
import { useDarkTheme } from "../theme";
import type { FlowGraph, FlowNode } from "./layout";
import { centerOn, inView } from "./overview-viewport";
import { cssColor } from "./css-color";
import { runsOf } from "./overview";

const WIDTH = 96;
const PAD = 8;

interface MapScale {
  laneStep: number;
  left: number;
  rowScale: number;
  rows: number;
}

function mapScale(graph: FlowGraph, height: number): MapScale {
  let lanes = 1;
  let rows = 1;
  for (let v = 0; v < graph.nodes.length; v++) {
    lanes = Math.max(lanes, (graph.lane[v] as number) + 1);
    rows = Math.max(rows, (graph.row[v] as number) + 1);
  }
  const laneStep = Math.min(14, (WIDTH - 2 * PAD) / lanes);
  // a narrow tree sits in the middle of the column
  return { laneStep, left: Math.max(PAD, (WIDTH - laneStep * lanes) / 2), rowScale: (height - 2 * PAD) / rows, rows };
}

export function Minimap({ graph }: { graph: FlowGraph }) {
  const open = useBonsai((s) => s.minimapOpen);
  const setOpen = useBonsai((s) => s.setMinimapOpen);
  return (
    <div className={`bz-minimap${open ? "" : " bz-minimap-closed"}`} data-testid="tree-minimap">
      <button type="button" className="bz-minimap-toggle" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="minimap-toggle" title={open ? "Hide the map" : "Show the map of the whole tree"}>
        {open ? "Map ▸" : "◂"}
      </button>
      {open ? <MapCanvas graph={graph} /> : null}
    </div>
  );
}

/** the part of the tree in view, in the map's pixels (the overview's lanes are spread: overview-viewport.ts) */
function viewFrame(s: MapScale, graph: FlowGraph, transform: readonly [number, number, number], viewW: number, viewH: number) {
  const x = (lane: number) => s.left + lane * s.laneStep;
  const y = (row: number) => PAD + row * s.rowScale;
  const shown = inView(graph, { x: transform[0], y: transform[1], zoom: transform[2] }, { width: viewW, height: viewH });
  const top = Math.max(1, y(shown.rows[0]));
  const bottom = y(shown.rows[1]);
  const left = Math.max(1, x(shown.lanes[0]));
  const right = Math.min(WIDTH - 2, x(shown.lanes[1]));
  return { left, top, width: Math.max(4, right - left), height: Math.max(4, bottom - top) };
}

function MapCanvas({ graph }: { graph: FlowGraph }) {
  // redrawn when the theme changes: its colours come from the page's palette
  const dark = useDarkTheme();
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const flow = useReactFlow();
  const transform = useStore((s) => s.transform);
  const viewW = useStore((s) => s.width);
  const viewH = useStore((s) => s.height);
  const runs = useMemo(() => runsOf(graph), [graph]);
  // the map's height, known once it is laid out (it follows the window)
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const parent = box.current;
    if (!parent) return;
    const measure = () => setHeight(parent.clientHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(parent);
    return () => observer.disconnect();
  }, []);
  const scale = useMemo(() => mapScale(graph, height), [graph, height]);

  // the tree is painted once per graph, size and theme; panning only moves the frame (a DOM box)
  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext("2d");
    if (!el || !ctx || height === 0) return;
    const h = height;
    const ratio = window.devicePixelRatio || 1;
    el.width = Math.round(WIDTH * ratio);
    el.height = Math.round(h * ratio);
    el.style.height = `${h}px`;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, WIDTH, h);
    const path = cssColor(el, "--bz-path");
    const muted = cssColor(el, "--muted");
    const s = scale;
    const x = (lane: number) => s.left + lane * s.laneStep;
    const y = (row: number) => PAD + row * s.rowScale;
    for (const run of runs) {
      ctx.fillStyle = run.onPath ? path : muted;
      ctx.globalAlpha = run.onPath ? 0.9 : 0.6;
      ctx.fillRect(x(run.lane), y(run.rowStart), Math.max(2, s.laneStep * 0.6), Math.max(1.5, (run.rowEnd - run.rowStart + 1) * s.rowScale));
    }
    ctx.globalAlpha = 1;
    ctx.fillStyle = cssColor(el, "--bz-compaction");
    for (let v = 0; v < graph.nodes.length; v++) {
      const n = graph.nodes[v] as FlowNode;
      if (n.type === "entry" && n.data.type === "compaction") ctx.fillRect(x(graph.lane[v] as number) - 2, y(graph.row[v] as number), s.laneStep * 0.6 + 4, 2);
    }
  }, [graph, runs, scale, height, dark]);
  const frame = height > 0 ? viewFrame(scale, graph, transform, viewW, viewH) : null;

  const lookAt = (clientX: number, clientY: number) => {
    const el = canvas.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    const s = scale;
    const row = (clientY - rect.top - PAD) / s.rowScale;
    const lane = Math.max(0, (clientX - rect.left - s.left) / s.laneStep);
    void flow.setViewport(centerOn(graph, Math.floor(lane), row, flow.getZoom(), { width: viewW, height: viewH }), { duration: 0 });
  };

  return (
    <div className="bz-minimap-body" ref={box}>
      <canvas
        ref={canvas}
        width={WIDTH}
        style={{ width: WIDTH }}
        role="img"
        aria-label="Map of the whole tree: the active path, side branches, compactions and the part in view"
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          lookAt(e.clientX, e.clientY);
        }}
        onPointerMove={(e) => {
          if (e.buttons & 1) lookAt(e.clientX, e.clientY);
        }}
      />
      {frame ? <div className="bz-minimap-frame" data-testid="minimap-frame" style={{ transform: `translate(${frame.left}px, ${frame.top}px)`, width: frame.width, height: frame.height }} /> : null}
    </div>
  );
}
