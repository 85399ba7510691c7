/**
 * The reading view's path: root -> an entry (the leaf, or any selected entry), cut into what a
 * reader sees: a fold for the entries the latest compaction on that path summarized (not sent),
 * then the entries, with compactions and branch summaries as dividers. Pure; tested.
 */
import type { SkeletonNode } from "@bonsai/core";
import type { TreeIndex } from "../tree/model";

export type TranscriptItem =
  /** entries summarized by the latest compaction on the path: folded */
  | { kind: "summarized"; ids: string[]; compactionId: string }
  | { kind: "entry"; id: string };

export interface TranscriptPath {
  /** the entry the path ends at */
  endId: string | null;
  items: TranscriptItem[];
  /** position in `items` of each entry shown (not folded) */
  positionOf: Map<string, number>;
  /** how many entries the path has */
  length: number;
}

/** root -> entry i (index positions), stopping at cycles (the index has none) */
function pathTo(index: TreeIndex, i: number): number[] {
  const out: number[] = [];
  for (let j = i; j >= 0; j = index.parent[j] as number) out.push(j);
  return out.reverse();
}

export function transcriptPath(index: TreeIndex, endId: string | null): TranscriptPath {
  const end = endId === null ? undefined : index.byId.get(endId);
  if (end === undefined) return { endId: null, items: [], positionOf: new Map(), length: 0 };
  const path = pathTo(index, end);
  const node = (k: number) => index.nodes[path[k] as number] as SkeletonNode;
  let compaction = -1;
  for (let k = path.length - 1; k >= 0; k--) if (node(k).type === "compaction") { compaction = k; break; }
  let kept = compaction; // nothing before the compaction is kept unless its firstKeptEntryId is on the path
  if (compaction >= 0) {
    const keptId = node(compaction).firstKeptEntryId;
    for (let k = 0; k < compaction; k++) if (node(k).id === keptId) { kept = k; break; }
  }
  const items: TranscriptItem[] = [];
  const positionOf = new Map<string, number>();
  if (compaction >= 0 && kept > 0) items.push({ kind: "summarized", ids: path.slice(0, kept).map((i) => (index.nodes[i] as SkeletonNode).id), compactionId: node(compaction).id });
  for (let k = compaction >= 0 ? kept : 0; k < path.length; k++) {
    positionOf.set(node(k).id, items.length);
    items.push({ kind: "entry", id: node(k).id });
  }
  return { endId: node(path.length - 1).id, items, positionOf, length: path.length };
}
