/**
 * Pure tree model over the session skeleton: indexing, the active path, the compaction
 * boundary, and the downsampling of the context-size chart. No React, no I/O: linear in the
 * number of entries (a 100,000-entry skeleton is indexed in about 0.2 s) and unit-tested.
 */
import type { SkeletonNode } from "@bonsai/core";

/** How a node looks in the tree. */
export type NodeKind =
  | "user"
  | "assistant"
  | "toolResult"
  | "bash"
  | "custom"
  | "meta"
  | "compaction"
  | "branchSummary";

export function kindOf(n: SkeletonNode): NodeKind {
  switch (n.type) {
    case "message":
      switch (n.role) {
        case "user":
          return "user";
        case "assistant":
          return "assistant";
        case "toolResult":
          return "toolResult";
        case "bashExecution":
        case "pythonExecution":
          return "bash";
        case "branchSummary":
          return "branchSummary";
        case "compactionSummary":
          return "compaction";
        default:
          return "custom";
      }
    case "compaction":
      return "compaction";
    case "branch_summary":
      return "branchSummary";
    case "custom_message":
      return "custom";
    default:
      return "meta";
  }
}

/**
 * The parent/child structure of a skeleton in flat arrays.
 * Entries with a duplicate id: the last one wins (as context building does), earlier ones are dropped.
 * Unknown parents make roots; cycles are broken at the first entry (file order) of the cycle.
 */
export interface TreeIndex {
  nodes: readonly SkeletonNode[];
  /** id -> index into nodes */
  byId: Map<string, number>;
  /** parent index, -1 for roots and dropped duplicates */
  parent: Int32Array;
  /** children of node i are childList[childStart[i] .. childStart[i+1]) in file order */
  childStart: Int32Array;
  childList: Int32Array;
  /** roots in file order */
  roots: number[];
  /** false for dropped duplicate entries */
  live: Uint8Array;
}

export function childCount(t: TreeIndex, i: number): number {
  return (t.childStart[i + 1] ?? 0) - (t.childStart[i] ?? 0);
}

export function childrenOf(t: TreeIndex, i: number): number[] {
  const out: number[] = [];
  for (let k = t.childStart[i] ?? 0; k < (t.childStart[i + 1] ?? 0); k++) out.push(t.childList[k] ?? 0);
  return out;
}

export function indexTree(nodes: readonly SkeletonNode[]): TreeIndex {
  const n = nodes.length;
  const byId = new Map<string, number>();
  for (let i = 0; i < n; i++) byId.set((nodes[i] as SkeletonNode).id, i);
  const live = new Uint8Array(n);
  const parent = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const node = nodes[i] as SkeletonNode;
    if (byId.get(node.id) !== i) continue;
    live[i] = 1;
    const p = node.parentId == null || node.parentId === "" ? undefined : byId.get(node.parentId);
    if (p !== undefined && p !== i) parent[i] = p;
  }
  breakCycles(parent, live);
  const counts = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const p = parent[i] as number;
    if (live[i] && p >= 0) counts[p + 1] = (counts[p + 1] as number) + 1;
  }
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) childStart[i + 1] = (childStart[i] as number) + (counts[i + 1] as number);
  const fill = childStart.slice(0, n);
  const childList = new Int32Array(childStart[n] as number);
  const roots: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!live[i]) continue;
    const p = parent[i] as number;
    if (p < 0) roots.push(i);
    else {
      childList[fill[p] as number] = i;
      fill[p] = (fill[p] as number) + 1;
    }
  }
  return { nodes, byId, parent, childStart, childList, roots, live };
}

/** Every node must reach a root; a node on a parent cycle becomes a root (first in file order wins). */
function breakCycles(parent: Int32Array, live: Uint8Array): void {
  const n = parent.length;
  // state: 0 unknown, 1 on the current walk, 2 known to reach a root
  const state = new Uint8Array(n);
  // the nodes of the current walk (a typed array: an array emptied for each walk got a new backing
  // store at its first push, 100,000 small allocations for a big session)
  const walk = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (!live[i] || state[i] === 2) continue;
    let length = 0;
    let j = i;
    while (j >= 0 && state[j] === 0) {
      state[j] = 1;
      walk[length++] = j;
      j = parent[j] as number;
    }
    if (j >= 0 && state[j] === 1) {
      // j is on the current walk: a cycle. Cut it at its first entry in file order.
      let first = j;
      let k = parent[j] as number;
      while (k !== j) {
        if (k < first) first = k;
        k = parent[k] as number;
      }
      parent[first] = -1;
    }
    for (let k = 0; k < length; k++) state[walk[k] as number] = 2;
  }
}

/** Region of a node relative to the active path and the latest compaction on it. */
export const Region = {
  /** not on the active path */
  Off: 0,
  /** on the path, summarized by the latest compaction: not sent to the model */
  Summarized: 1,
  /** on the path from firstKeptEntryId up to the compaction: sent verbatim */
  Kept: 2,
  /** the latest compaction on the path (sent as the summary message) */
  Compaction: 3,
  /** on the path after the latest compaction (or the whole path without one): sent */
  Live: 4,
} as const;
export type Region = (typeof Region)[keyof typeof Region];

export const REGION_NAMES = ["off", "summarized", "kept", "compaction", "live"] as const;
export type RegionName = (typeof REGION_NAMES)[number];

export interface ActivePath {
  /** node indices root -> leaf (empty when the leaf is null) */
  path: Int32Array;
  /** index of the leaf node, -1 = before the first entry */
  leaf: number;
  /** per node: Region */
  region: Uint8Array;
  /** latest compaction on the path (node index) or -1 */
  compaction: number;
  /** node index of that compaction's firstKeptEntryId when it lies on the path before it, else -1 */
  firstKept: number;
}

/**
 * Resolves the leaf as context building does (null = empty; unknown id = last entry) and
 * classifies every node. Entries before firstKeptEntryId of the latest compaction on the path are
 * "summarized"; when firstKeptEntryId is absent or not on the path, everything before the
 * compaction is summarized (context-building.md §1.5).
 */
export function activePath(t: TreeIndex, leafId: string | null): ActivePath {
  const n = t.nodes.length;
  const region = new Uint8Array(n);
  let leaf = -1;
  if (leafId !== null && n > 0) {
    const found = t.byId.get(leafId);
    if (found !== undefined) leaf = found;
    else {
      for (let i = n - 1; i >= 0; i--) if (t.live[i]) { leaf = i; break; }
    }
  }
  const rev: number[] = [];
  for (let j = leaf; j >= 0; j = t.parent[j] as number) rev.push(j);
  const path = new Int32Array(rev.length);
  for (let k = 0; k < rev.length; k++) path[k] = rev[rev.length - 1 - k] as number;

  let cPos = -1;
  for (let k = path.length - 1; k >= 0; k--) {
    if ((t.nodes[path[k] as number] as SkeletonNode).type === "compaction") { cPos = k; break; }
  }
  let fPos = -1;
  if (cPos >= 0) {
    const keptId = (t.nodes[path[cPos] as number] as SkeletonNode).firstKeptEntryId;
    if (keptId !== undefined) {
      for (let k = 0; k < cPos; k++) {
        if ((t.nodes[path[k] as number] as SkeletonNode).id === keptId) { fPos = k; break; }
      }
    }
  }
  for (let k = 0; k < path.length; k++) {
    let r: Region;
    if (cPos < 0 || k > cPos) r = Region.Live;
    else if (k === cPos) r = Region.Compaction;
    else if (fPos >= 0 && k >= fPos) r = Region.Kept;
    else r = Region.Summarized;
    region[path[k] as number] = r;
  }
  return {
    path,
    leaf,
    region,
    compaction: cPos >= 0 ? (path[cPos] as number) : -1,
    firstKept: fPos >= 0 ? (path[fPos] as number) : -1,
  };
}

/** One point of the estimated-context chart: the context the model would get with this entry as the leaf. */
export interface ContextPoint {
  /** position on the active path */
  pos: number;
  entryId: string;
  tokens: number;
  /** the entry is a compaction (the context drops here) */
  compaction: boolean;
}

/**
 * Reduces a series to at most `buckets` points for drawing: each bucket keeps its maximum, and
 * every compaction point is kept so the drops stay visible.
 */
export function downsample(series: readonly ContextPoint[], buckets: number): ContextPoint[] {
  if (series.length <= buckets) return series.slice();
  const size = series.length / buckets;
  const out: ContextPoint[] = [];
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor(b * size);
    const end = Math.min(series.length, Math.floor((b + 1) * size));
    let best: ContextPoint | undefined;
    for (let k = start; k < end; k++) {
      const p = series[k] as ContextPoint;
      if (p.compaction) {
        if (best) out.push(best);
        out.push(p);
        best = undefined;
      } else if (!best || p.tokens > best.tokens) best = p;
    }
    if (best) out.push(best);
  }
  return out;
}
