/**
 * What the model sees from every node of the tree (core contextTokensOfTree over the skeleton, the
 * same rule as the backend's contextOf): computed once per tree, when a view first needs it.
 */
import { contextStepOfNode, contextTokensOfTree } from "@bonsai/core";
import type { TreeIndex } from "./model";

const cache = new WeakMap<TreeIndex, Float64Array>();

export function treeContextTokens(index: TreeIndex): Float64Array {
  let tokens = cache.get(index);
  if (!tokens) {
    tokens = contextTokensOfTree(index.nodes.map(contextStepOfNode), index.parent);
    cache.set(index, tokens);
  }
  return tokens;
}

/** The estimate from one entry, null when the entry is not in the tree. */
export function contextTokensAt(index: TreeIndex | null, entryId: string | null): number | null {
  if (!index || entryId === null) return null;
  const i = index.byId.get(entryId);
  return i === undefined ? null : (treeContextTokens(index)[i] as number);
}
