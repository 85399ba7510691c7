/**
 * What the model sees from every node of the tree (core contextTokensOfTree over the skeleton, the
 * same rule as the backend's contextOf): computed once per tree, just after the tree is first drawn
 * (the store's `treeTokens`; views show "…" until then).
 */
import { contextTokensOfTree } from "@bonsai/core";
import type { TreeIndex } from "./model";

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
