/**
 * The simple tree's model: the skeleton condensed to its structure. Entries that matter on their
 * own (roots, the leaf, branch points and the first entry of each branch, user messages,
 * compactions, branch summaries, labelled entries) stay nodes; every run of other entries between
 * them becomes one segment node. A 1,000-entry linear session becomes about one node per turn.
 */
import type { SkeletonNode, TreeSkeleton } from "@bonsai/core";

export interface CondensedNode {
  /** the id of its first entry */
  id: string;
  parentId: string | null;
  kind: "entry" | "segment";
  /** the entry (for kind "entry") or the segment's first entry */
  first: SkeletonNode;
  /** number of entries it stands for */
  entries: number;
  tokens: number;
  /** entries of this node on the active path (all or none, except a segment holding the leaf's tail) */
  activeEntries: number;
}

export interface CondensedTree {
  nodes: CondensedNode[];
  activePathLength: number;
  entryCount: number;
}

export function activePathIds(skeleton: TreeSkeleton): Set<string> {
  const byId = new Map(skeleton.nodes.map((n) => [n.id, n]));
  const path = new Set<string>();
  let id = skeleton.leafId;
  while (id !== null && !path.has(id)) {
    const n = byId.get(id);
    if (!n) break;
    path.add(id);
    id = n.parentId;
  }
  return path;
}

export function condense(skeleton: TreeSkeleton): CondensedTree {
  const nodes = skeleton.nodes;
  const byId = new Map<string, SkeletonNode>();
  for (const n of nodes) byId.set(n.id, n);
  const children = new Map<string, string[]>();
  for (const n of nodes) {
    if (n.parentId !== null && byId.has(n.parentId)) {
      let list = children.get(n.parentId);
      if (!list) children.set(n.parentId, (list = []));
      list.push(n.id);
    }
  }
  const active = activePathIds(skeleton);
  const parentOf = (n: SkeletonNode) => (n.parentId !== null && byId.has(n.parentId) ? n.parentId : null);
  const isKey = (n: SkeletonNode): boolean => {
    const p = parentOf(n);
    return (
      p === null ||
      n.id === skeleton.leafId ||
      (children.get(n.id)?.length ?? 0) !== 1 ||
      (children.get(p)?.length ?? 0) > 1 ||
      n.type === "compaction" ||
      n.type === "branch_summary" ||
      (n.type === "message" && n.role === "user") ||
      n.label !== undefined
    );
  };

  // map each entry to the condensed node that holds it
  const holder = new Map<string, string>();
  const out: CondensedNode[] = [];
  for (const n of nodes) {
    if (holder.has(n.id)) continue;
    const p = parentOf(n);
    if (isKey(n)) {
      holder.set(n.id, n.id);
      out.push({ id: n.id, parentId: p, kind: "entry", first: n, entries: 1, tokens: n.tokens, activeEntries: active.has(n.id) ? 1 : 0 });
      continue;
    }
    // start of a run only when its parent is a key entry; otherwise the run's start claims it
    if (p !== null && !isKey(byId.get(p)!)) continue;
    const seg: CondensedNode = { id: n.id, parentId: p, kind: "segment", first: n, entries: 0, tokens: 0, activeEntries: 0 };
    let cur: SkeletonNode | undefined = n;
    while (cur && !isKey(cur) && !holder.has(cur.id)) {
      holder.set(cur.id, seg.id);
      seg.entries++;
      seg.tokens += cur.tokens;
      if (active.has(cur.id)) seg.activeEntries++;
      const next: string | undefined = children.get(cur.id)?.[0];
      cur = next === undefined ? undefined : byId.get(next);
    }
    out.push(seg);
  }
  // parents point at the condensed node holding the parent entry
  for (const c of out) if (c.parentId !== null) c.parentId = holder.get(c.parentId) ?? null;
  // entries never reached (a cycle in a broken file) still show as roots
  for (const n of nodes) {
    if (!holder.has(n.id)) {
      holder.set(n.id, n.id);
      out.push({ id: n.id, parentId: null, kind: "entry", first: n, entries: 1, tokens: n.tokens, activeEntries: active.has(n.id) ? 1 : 0 });
    }
  }
  return { nodes: out, activePathLength: active.size, entryCount: nodes.length };
}
