/**
 * The context chart of the active path as inline SVG: the context size at each reply, from the
 * usage the agent recorded (or, without any, from Bonsai's estimate), with the compactions marked.
 */
import { calculateContextTokens, estimateTokens, type AgentMessage, type AssistantMessage, type SessionEntry } from "@bonsai/core";
import { escapeHtml } from "./escape";

interface Point {
  tokens: number;
  compactionBefore: boolean;
}

function points(path: readonly SessionEntry[]): { points: Point[]; recorded: boolean } {
  const recorded: Point[] = [];
  const estimated: Point[] = [];
  // a compaction marks the next point of each series
  let compactionForRecorded = false;
  let compactionForEstimate = false;
  let running = 0;
  for (const entry of path) {
    if (entry.type === "compaction") {
      compactionForRecorded = true;
      compactionForEstimate = true;
      running = Math.ceil(String((entry as { summary?: unknown }).summary ?? "").length / 4);
      continue;
    }
    if (entry.type !== "message") continue;
    const m = (entry as { message?: AgentMessage }).message;
    if (!m) continue;
    running += estimateTokens(m);
    if (m.role !== "assistant") continue;
    const usage = (m as Partial<AssistantMessage>).usage;
    const tokens = usage ? calculateContextTokens(usage) : 0;
    // a reply without usage, or with an all-zero one (a synthetic or failed reply), is no measurement
    if (tokens > 0) {
      recorded.push({ tokens, compactionBefore: compactionForRecorded });
      compactionForRecorded = false;
    }
    estimated.push({ tokens: running, compactionBefore: compactionForEstimate });
    compactionForEstimate = false;
  }
  return recorded.length > 0 ? { points: recorded, recorded: true } : { points: estimated, recorded: false };
}

function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 100_000 ? 0 : 1)}K` : String(n);
}

export function renderChart(path: readonly SessionEntry[]): string {
  const { points: data, recorded } = points(path);
  if (data.length === 0) return '<p class="muted">No replies on this path: no context chart.</p>';
  const width = 1000;
  const height = 220;
  const pad = { left: 56, right: 12, top: 12, bottom: 24 };
  const max = Math.max(1, ...data.map((p) => p.tokens));
  const x = (i: number): number => pad.left + (data.length === 1 ? 0 : (i / (data.length - 1)) * (width - pad.left - pad.right));
  const y = (t: number): number => pad.top + (1 - t / max) * (height - pad.top - pad.bottom);
  const line = data.map((p, i) => `${x(i).toFixed(1)},${y(p.tokens).toFixed(1)}`).join(" ");
  const area = `${x(0).toFixed(1)},${y(0).toFixed(1)} ${line} ${x(data.length - 1).toFixed(1)},${y(0).toFixed(1)}`;
  const marks = data
    .map((p, i) => (p.compactionBefore ? `<line class="compaction-mark" x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${pad.top}" y2="${height - pad.bottom}"><title>compaction</title></line>` : ""))
    .join("");
  const dots = data.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.tokens).toFixed(1)}" r="2.5"><title>reply ${i + 1}: ${p.tokens.toLocaleString("en")} tokens</title></circle>`).join("");
  const source = recorded ? "recorded by the agent (usage of each reply)" : "estimated (no usage recorded)";
  const compactions = data.filter((p) => p.compactionBefore).length;
  return `<figure class="chart"><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="context size per reply"><line class="axis" x1="${pad.left}" x2="${width - pad.right}" y1="${y(0)}" y2="${y(0)}"/><text class="tick" x="${pad.left - 6}" y="${y(max) + 4}" text-anchor="end">${formatTokens(max)}</text><text class="tick" x="${pad.left - 6}" y="${y(0)}" text-anchor="end">0</text>${marks}<polygon class="area" points="${area}"/><polyline class="line" points="${line}"/>${dots}</svg><figcaption>Context size at each of ${data.length} replies, ${escapeHtml(source)}; ${compactions} ${compactions === 1 ? "compaction" : "compactions"} marked.</figcaption></figure>`;
}
