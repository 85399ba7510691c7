/**
 * What the model sees from every node of the tree (core contextTokensOfTree over the skeleton, the
 * same rule as the backend's contextOf): computed once per tree, just after the tree is first drawn
 * (the store's `treeTokens`; views show "…" until then).
 */
import { contextTokensOfTree } from "@bonsai/core";
import type { TreeIndex } from "./model";
import { formatTokens } from "./format";

const cache = new WeakMap<TreeIndex, Float64Array>();

export function treeContextTokens(index: TreeIndex): Float64Array {
  let tokens = cache.get(index);
  if (!tokens) {
    // skeleton nodes are context steps as they are (id, type, tokens, firstKeptEntryId)
    tokens = contextTokensOfTree(index.nodes, index.parent, (id) => index.byId.get(id));
    cache.set(index, tokens);
  }
  return tokens;
}

/** The estimate from one entry; null when the entry is not in the tree or the figures are not computed yet. */
export function contextTokensAt(s: { index: TreeIndex | null; treeTokens: Float64Array | null }, entryId: string | null): number | null {
  if (!s.index || !s.treeTokens || entryId === null) return null;
  const i = s.index.byId.get(entryId);
  return i === undefined ? null : (s.treeTokens[i] as number);
}

/**
 * A compaction's "before → after" on one basis, the estimate: what the model saw from the entry it
 * was appended to, and from the compaction itself ("…" until the figures are computed). The
 * recorded tokensBefore is the model's own count, with the system prompt and tools: beside an
 * estimated "after" it would read as if compacting grew the context.
 */
export function compactionBandLabel(index: TreeIndex, tokens: Float64Array | null, i: number): string {
  if (!tokens) return "… tok (est.)";
  const p = index.parent[i] as number;
  const after = formatTokens(tokens[i] as number);
  return p < 0 ? `${after} tok (est.)` : `${formatTokens(tokens[p] as number)} → ${after} tok (est.)`;
}
