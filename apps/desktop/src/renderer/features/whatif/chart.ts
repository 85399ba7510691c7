/**
 * Geometry of the what-if chart: the context along a session's path (actual and candidate), the
 * window and threshold lines, compaction markers. Pure; tested.
 */
import type { WhatIfRunDto } from "@bonsai/ipc";

export interface ChartGeometry {
  width: number;
  height: number;
  /** x of a path position */
  x(position: number): number;
  /** y of a token count */
  y(tokens: number): number;
  /** the top of the y axis (tokens) */
  top: number;
}

export function chartGeometry(pathLength: number, maxTokens: number, width: number, height: number): ChartGeometry {
  const n = Math.max(1, pathLength - 1);
  const top = Math.max(1, maxTokens) * 1.08;
  return { width, height, top, x: (p) => (p / n) * width, y: (t) => height - (Math.max(0, t) / top) * height };
}

/** The polyline points attribute of a run's series. */
export function linePoints(run: Pick<WhatIfRunDto, "points">, g: ChartGeometry): string {
  return run.points.map(([p, t]) => `${g.x(p).toFixed(1)},${g.y(t).toFixed(1)}`).join(" ");
}

/** Round gridline values for a y axis up to `top`: 0, step, 2·step, … with a 1/2/5 step. */
export function yTicks(top: number, count = 4): number[] {
  if (top <= 0) return [0];
  const raw = top / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return ticks;
}
