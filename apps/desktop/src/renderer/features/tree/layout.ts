/**
 * toFlow: the session tree as React Flow nodes and edges, computed once per change of the
 * skeleton, leaf or expanded segments (in the store's actions, never inside a render).
 *
 * Linear runs of ordinary entries collapse into segment nodes (at most SEGMENT_CHUNK entries
 * each, so expanding one never puts more than that many nodes on the canvas). Entries that
 * matter stay individual: branch points, tree leaves, the active leaf, compactions and their
 * firstKeptEntryId targets, branch summaries and their fromId targets, labelled entries.
 *
 * Layout: lanes, as a git graph draws them. Each node sits on the row of its depth; a parent's
 * main child (the one on the active path, else the one with the deepest subtree) continues in the
 * parent's lane, so the active path is one straight column (lane 0); every other child starts a
 * lane to the right, the leftmost one free for the rows its chain needs. A 100,000-entry session
 * is then a trunk with short side lanes, not a diagonal drift.
 */
import { Position } from "@xyflow/react";
import type { Edge, Node, NodeHandle } from "@xyflow/react";
import type { SkeletonNode } from "@bonsai/core";
import { activePath, childCount, kindOf, Region, REGION_NAMES } from "./model";
import type { ActivePath, NodeKind, RegionName, TreeIndex } from "./model";

export const NODE_W = 264;
export const NODE_H = 90;
export const COL_W = NODE_W + 56;
export const ROW_H = NODE_H + 30;
/** side of a handle box (React Flow's stylesheet: 6 px, border included) */
const HANDLE = 6;

/**
 * Where every node's handles sit (nodes.tsx renders the same five, hidden). Given to React Flow
 * with the node's size, so it never measures a node or its handles in the DOM before drawing edges.
 * Tree edges go bottom -> top; a compaction's link to its first kept entry runs in the gutter left
 * of the column (left -> left), a branch summary's link to the branch it summarized leaves on the
 * right and arrives on the left.
 */
export const NODE_HANDLES: NodeHandle[] = [
  { id: null, type: "target", position: Position.Top, x: NODE_W / 2 - HANDLE / 2, y: -HANDLE / 2, width: HANDLE, height: HANDLE },
  { id: null, type: "source", position: Position.Bottom, x: NODE_W / 2 - HANDLE / 2, y: NODE_H - HANDLE / 2, width: HANDLE, height: HANDLE },
  { id: "side-out", type: "source", position: Position.Left, x: -HANDLE / 2, y: NODE_H / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
  { id: "side-in", type: "target", position: Position.Left, x: -HANDLE / 2, y: NODE_H / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
  { id: "from-out", type: "source", position: Position.Right, x: NODE_W - HANDLE / 2, y: NODE_H / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
];

const MEASURED = { width: NODE_W, height: NODE_H };

/** runs shorter than this stay individual entries */
export const MIN_RUN = 3;
/** longest segment: a run longer than this is cut into several segments */
export const SEGMENT_CHUNK = 400;

export interface EntryNodeData extends Record<string, unknown> {
  entryId: string;
  kind: NodeKind;
  type: string;
  role: string | null;
  preview: string;
  tokens: number;
  region: RegionName;
  onPath: boolean;
  isLeaf: boolean;
  /** number of children (> 1: a branch point) */
  children: number;
  /** target of a compaction's firstKeptEntryId */
  keptTarget: boolean;
  label?: string;
  toolName?: string;
  pruned?: boolean;
  stopReason?: string;
  thinking?: boolean;
  customType?: string;
  tokensBefore?: number;
  fromId?: string;
  firstKeptEntryId?: string;
  fromExtension?: boolean;
  offline?: boolean;
}

export interface SegmentNodeData extends Record<string, unknown> {
  segKey: string;
  count: number;
  tokens: number;
  region: RegionName;
  onPath: boolean;
  firstId: string;
  lastId: string;
  /** preview of the first user message in the segment (else of its first entry) */
  preview: string;
  users: number;
  assistants: number;
  tools: number;
}

export type EntryFlowNode = Node<EntryNodeData, "entry">;
export type SegmentFlowNode = Node<SegmentNodeData, "segment">;
export type FlowNode = EntryFlowNode | SegmentFlowNode;

export interface FlowGraph {
  nodes: FlowNode[];
  edges: Edge[];
  active: ActivePath;
  /** entry index -> index into nodes of the flow node showing it (-1: dropped duplicate) */
  flowOf: Int32Array;
  /** flow node index -> parent flow node index (-1 for roots) */
  flowParent: Int32Array;
  /** flow node index -> child flow node indices (layout order) */
  flowChildren: number[][];
  /** id -> index into nodes */
  flowIndex: Map<string, number>;
  /** flow node index -> lane (column, 0 = the active path's) and row (depth) */
  lane: Int32Array;
  row: Int32Array;
}

export interface FlowOptions {
  leafId: string | null;
  /** keys of segments the user expanded */
  expanded?: ReadonlySet<string>;
  minRun?: number;
  chunk?: number;
}

export function segmentKey(firstEntryId: string): string {
  return `seg:${firstEntryId}`;
}

interface VNode {
  id: string;
  /** entry index, or -1 for a segment */
  entry: number;
  members: number[];
  parent: number;
  children: number[];
}

/** Which entries must stay visible as their own node. */
function pinnedMask(t: TreeIndex, active: ActivePath): Uint8Array {
  const n = t.nodes.length;
  const pinned = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!t.live[i]) continue;
    const node = t.nodes[i] as SkeletonNode;
    if (childCount(t, i) !== 1 || node.label !== undefined || node.type === "compaction" || node.type === "branch_summary") {
      pinned[i] = 1;
    }
    const target = node.type === "compaction" ? node.firstKeptEntryId : node.type === "branch_summary" ? node.fromId : undefined;
    if (target !== undefined) {
      const k = t.byId.get(target);
      if (k !== undefined) pinned[k] = 1;
    }
  }
  if (active.leaf >= 0) pinned[active.leaf] = 1;
  return pinned;
}

/** Groups entries into visual nodes: single entries and collapsed segments. */
function visualTree(t: TreeIndex, active: ActivePath, expanded: ReadonlySet<string>, minRun: number, chunk: number): VNode[] {
  const pinned = pinnedMask(t, active);
  const vnodes: VNode[] = [];
  const add = (v: Omit<VNode, "children">): number => {
    const at = vnodes.length;
    vnodes.push({ ...v, children: [] });
    if (v.parent >= 0) (vnodes[v.parent] as VNode).children.push(at);
    return at;
  };
  const single = (i: number, parent: number): number =>
    add({ id: (t.nodes[i] as SkeletonNode).id, entry: i, members: [i], parent });

  // stack of [entry index, parent vnode]; children pushed in reverse to keep file order
  const stack: Array<[number, number]> = [];
  for (let r = t.roots.length - 1; r >= 0; r--) stack.push([t.roots[r] as number, -1]);
  while (stack.length > 0) {
    const [i, parentV] = stack.pop() as [number, number];
    if (pinned[i]) {
      const v = single(i, parentV);
      for (let k = (t.childStart[i + 1] as number) - 1; k >= (t.childStart[i] as number); k--) stack.push([t.childList[k] as number, v]);
      continue;
    }
    // a linear run: unpinned entries have exactly one child
    const run: number[] = [];
    const region = active.region[i];
    let j = i;
    let next: number;
    for (;;) {
      run.push(j);
      next = t.childList[t.childStart[j] as number] as number;
      if (pinned[next] || active.region[next] !== region) break;
      j = next;
    }
    let parent = parentV;
    for (let s = 0; s < run.length; s += chunk) {
      const members = run.slice(s, s + chunk);
      const key = segmentKey((t.nodes[members[0] as number] as SkeletonNode).id);
      if (members.length >= minRun && !expanded.has(key)) {
        parent = add({ id: key, entry: -1, members, parent });
      } else {
        for (let k = 0; k < members.length; k++) parent = single(members[k] as number, parent);
      }
    }
    stack.push([next, parent]);
  }
  return vnodes;
}

/**
 * Lane and row of every vnode (see the header): rows are depths; each chain (a root or a child that
 * is not its parent's main child, followed down through main children) takes the leftmost lane
 * right of its parent's whose last row is above the chain's first. Chains are placed in the order
 * of their first row, so short side branches share lanes.
 */
function lanes(vnodes: readonly VNode[], onPath: (v: number) => boolean): { lane: Int32Array; row: Int32Array } {
  const n = vnodes.length;
  const row = new Int32Array(n);
  const lane = new Int32Array(n).fill(-1);
  // vnodes come in DFS pre-order: parents before children
  for (let v = 0; v < n; v++) {
    const p = (vnodes[v] as VNode).parent;
    row[v] = p >= 0 ? (row[p] as number) + 1 : 0;
  }
  const height = new Int32Array(n);
  for (let v = n - 1; v >= 0; v--) {
    const p = (vnodes[v] as VNode).parent;
    if (p >= 0 && (height[v] as number) + 1 > (height[p] as number)) height[p] = (height[v] as number) + 1;
  }
  const main = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) {
    const kids = (vnodes[v] as VNode).children;
    if (kids.length === 0) continue;
    let pick = kids.find(onPath);
    if (pick === undefined) {
      pick = kids[0] as number;
      for (const k of kids) if ((height[k] as number) > (height[pick] as number)) pick = k;
    }
    main[v] = pick;
  }
  const starts: number[] = [];
  for (let v = 0; v < n; v++) {
    const p = (vnodes[v] as VNode).parent;
    if (p < 0 || main[p] !== v) starts.push(v);
  }
  starts.sort((a, b) => (row[a] as number) - (row[b] as number) || a - b);
  const laneEnd: number[] = [];
  for (const start of starts) {
    const p = (vnodes[start] as VNode).parent;
    let l = p >= 0 ? (lane[p] as number) + 1 : 0;
    while (l < laneEnd.length && (laneEnd[l] as number) >= (row[start] as number)) l++;
    let v = start;
    for (;;) {
      lane[v] = l;
      laneEnd[l] = row[v] as number;
      if ((main[v] as number) < 0) break;
      v = main[v] as number;
    }
  }
  return { lane, row };
}

/** Top-left corner of every vnode: x from its lane, y from its row. */
function place(vnodes: readonly VNode[], onPath: (v: number) => boolean): { pos: Float64Array; lane: Int32Array; row: Int32Array } {
  const { lane, row } = lanes(vnodes, onPath);
  const pos = new Float64Array(vnodes.length * 2);
  for (let v = 0; v < vnodes.length; v++) {
    pos[v * 2] = (lane[v] as number) * COL_W;
    pos[v * 2 + 1] = (row[v] as number) * ROW_H;
  }
  return { pos, lane, row };
}

function entryData(t: TreeIndex, active: ActivePath, i: number, keptTargets: Set<string>): EntryNodeData {
  const n = t.nodes[i] as SkeletonNode;
  const data: EntryNodeData = {
    entryId: n.id,
    kind: kindOf(n),
    type: n.type,
    role: n.role,
    preview: n.preview,
    tokens: n.tokens,
    region: REGION_NAMES[active.region[i] as number] as RegionName,
    onPath: active.region[i] !== Region.Off,
    isLeaf: i === active.leaf,
    children: childCount(t, i),
    keptTarget: keptTargets.has(n.id),
    // no timestamp: the nodes do not show it (the inspector reads it from the skeleton), and making
    // each drawn entry's ISO text took about 75 ms of a 100,000-entry open
  };
  if (n.label !== undefined) data.label = n.label;
  if (n.toolName !== undefined) data.toolName = n.toolName;
  if (n.pruned) data.pruned = true;
  if (n.stopReason !== undefined) data.stopReason = n.stopReason;
  if (n.thinking) data.thinking = true;
  if (n.customType !== undefined) data.customType = n.customType;
  if (n.tokensBefore !== undefined) data.tokensBefore = n.tokensBefore;
  if (n.fromId !== undefined) data.fromId = n.fromId;
  if (n.firstKeptEntryId !== undefined) data.firstKeptEntryId = n.firstKeptEntryId;
  if (n.fromExtension) data.fromExtension = true;
  if (n.offline) data.offline = true;
  return data;
}

function segmentData(t: TreeIndex, active: ActivePath, members: number[], key: string): SegmentNodeData {
  let tokens = 0;
  let users = 0;
  let assistants = 0;
  let tools = 0;
  let preview: string | undefined;
  // index loops over the members and nodes here and below: these run once per open over up to every
  // entry, mostly before the JIT optimizes them, and for...of made an iterator result per step
  for (let k = 0; k < members.length; k++) {
    const n = t.nodes[members[k] as number] as SkeletonNode;
    tokens += n.tokens;
    const kind = kindOf(n);
    if (kind === "user") {
      users++;
      preview ??= n.preview;
    } else if (kind === "assistant") assistants++;
    else if (kind === "toolResult" || kind === "bash") tools++;
  }
  const first = t.nodes[members[0] as number] as SkeletonNode;
  const last = t.nodes[members[members.length - 1] as number] as SkeletonNode;
  const r = active.region[members[0] as number] as number;
  return {
    segKey: key,
    count: members.length,
    tokens,
    region: REGION_NAMES[r] as RegionName,
    onPath: r !== Region.Off,
    firstId: first.id,
    lastId: last.id,
    preview: preview ?? first.preview,
    users,
    assistants,
    tools,
  };
}

export function toFlow(t: TreeIndex, options: FlowOptions): FlowGraph {
  const active = activePath(t, options.leafId);
  const vnodes = visualTree(t, active, options.expanded ?? new Set(), options.minRun ?? MIN_RUN, options.chunk ?? SEGMENT_CHUNK);
  const { pos, lane, row } = place(vnodes, (v) => active.region[(vnodes[v] as VNode).members[0] as number] !== Region.Off);
  const keptTargets = new Set<string>();
  for (let i = 0; i < t.nodes.length; i++) {
    const n = t.nodes[i] as SkeletonNode;
    if (n.type === "compaction" && n.firstKeptEntryId !== undefined) keptTargets.add(n.firstKeptEntryId);
  }

  const flowOf = new Int32Array(t.nodes.length).fill(-1);
  const flowParent = new Int32Array(vnodes.length);
  const flowChildren: number[][] = new Array(vnodes.length);
  const flowIndex = new Map<string, number>();
  const nodes: FlowNode[] = new Array(vnodes.length);
  const edges: Edge[] = [];
  for (let v = 0; v < vnodes.length; v++) {
    const vn = vnodes[v] as VNode;
    for (let k = 0; k < vn.members.length; k++) flowOf[vn.members[k] as number] = v;
    flowParent[v] = vn.parent;
    flowChildren[v] = vn.children;
    flowIndex.set(vn.id, v);
    const position = { x: pos[v * 2] as number, y: pos[v * 2 + 1] as number };
    nodes[v] =
      vn.entry >= 0
        ? { id: vn.id, type: "entry", position, width: NODE_W, height: NODE_H, measured: MEASURED, handles: NODE_HANDLES, data: entryData(t, active, vn.entry, keptTargets) }
        : { id: vn.id, type: "segment", position, width: NODE_W, height: NODE_H, measured: MEASURED, handles: NODE_HANDLES, data: segmentData(t, active, vn.members, vn.id) };
    if (vn.parent >= 0) {
      const parent = vnodes[vn.parent] as VNode;
      const onPath = active.region[vn.members[0] as number] !== Region.Off;
      edges.push({
        id: `e:${vn.id}`,
        source: parent.id,
        target: vn.id,
        className: onPath ? "edge-path" : "edge-off",
        zIndex: onPath ? 1 : 0,
      });
    }
  }
  // compaction -> firstKeptEntryId, branch summary -> fromId (when that is not simply its parent)
  for (let i = 0; i < t.nodes.length; i++) {
    const n = t.nodes[i] as SkeletonNode;
    if (!t.live[i]) continue;
    let targetId: string | undefined;
    let kind: "kept" | "from";
    if (n.type === "compaction" && n.firstKeptEntryId !== undefined) {
      targetId = n.firstKeptEntryId;
      kind = "kept";
    } else if (n.type === "branch_summary" && n.fromId !== undefined && n.fromId !== n.parentId) {
      targetId = n.fromId;
      kind = "from";
    } else continue;
    const target = t.byId.get(targetId);
    if (target === undefined) continue;
    const sv = flowOf[i] as number;
    const tv = flowOf[target] as number;
    if (sv < 0 || tv < 0 || sv === tv) continue;
    const latest = kind === "kept" && i === active.compaction;
    edges.push({
      id: `${kind}:${n.id}`,
      source: (nodes[sv] as FlowNode).id,
      target: (nodes[tv] as FlowNode).id,
      sourceHandle: kind === "kept" ? "side-out" : "from-out",
      targetHandle: "side-in",
      className: `edge-${kind}${latest ? " edge-kept-active" : ""}`,
      zIndex: 2,
    });
  }
  return { nodes, edges, active, flowOf, flowParent, flowChildren, flowIndex, lane, row };
}

/** The key of the collapsed segment holding an entry, if it is hidden in one. */
export function hiddenIn(graph: FlowGraph, t: TreeIndex, entryId: string): string | undefined {
  const i = t.byId.get(entryId);
  if (i === undefined) return undefined;
  const v = graph.flowOf[i] as number;
  const node = graph.nodes[v];
  return node?.type === "segment" ? node.id : undefined;
}
