/**
 * What the model sees from every node of the tree: the estimate (core contextTokensOfTree over the
 * skeleton, the same rule as the backend's contextOf), then the display figure every panel shows
 * (core displayTokensOfTree: the last usage reported since the latest compaction plus the estimate
 * after it). Computed once per tree, just after the tree is first drawn (the store's `treeTokens`;
 * views show "…" until then).
 */
import { contextTokensOfTree, displayTokensOfTree } from "@bonsai/core";
import type { UsagePoints } from "@bonsai/ipc";
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

/** The display figure of every node from the estimates and the usage the replies report (getUsagePoints). */
export function treeDisplayTokens(index: TreeIndex, estimates: Float64Array, usage: UsagePoints): Float64Array {
  const byIndex = new Map<number, number>();
  usage.entryIds.forEach((id, k) => {
    const i = index.byId.get(id);
    if (i !== undefined) byIndex.set(i, usage.tokens[k] as number);
  });
  return displayTokensOfTree(index.nodes, index.parent, estimates, (i) => byIndex.get(i));
}

/** What the model sees from one entry (the display figure); null when the entry is not in the tree or the figures are not computed yet. */
export function contextTokensAt(s: { index: TreeIndex | null; treeTokens: Float64Array | null }, entryId: string | null): number | null {
  if (!s.index || !s.treeTokens || entryId === null) return null;
  const i = s.index.byId.get(entryId);
  return i === undefined ? null : (s.treeTokens[i] as number);
}

/** A compaction's two figures: what the agent recorded before it, and what the model sees from it. */
export interface CompactionFigures {
  /** the compaction's tokensBefore as the agent recorded it (Claude Code's preTokens, Codex's last count); the estimate from the entry it follows where the file records none */
  before: number | null;
  beforeRecorded: boolean;
  /** what the model sees from the compaction (its summary and the kept entries: the figure every panel shows for it); null until computed */
  after: number | null;
}

export function compactionFigures(index: TreeIndex, tokens: Float64Array | null, i: number): CompactionFigures {
  const recorded = (index.nodes[i] as { tokensBefore?: number }).tokensBefore;
  const p = index.parent[i] as number;
  const beforeRecorded = typeof recorded === "number" && recorded > 0;
  const before = beforeRecorded ? recorded : tokens && p >= 0 ? (tokens[p] as number) : null;
  return { before, beforeRecorded, after: tokens ? (tokens[i] as number) : null };
}

/** "998.7K → 5.2K tok": the recorded tokensBefore → what the model sees from the compaction ("…" until computed). */
export function compactionBandLabel(index: TreeIndex, tokens: Float64Array | null, i: number): string {
  const f = compactionFigures(index, tokens, i);
  const after = f.after === null ? "…" : formatTokens(f.after);
  return f.before === null ? `${after} tok` : `${formatTokens(f.before)} → ${after} tok`;
}

/** The band's tooltip: both figures named. */
export function compactionBandTitle(index: TreeIndex, tokens: Float64Array | null, i: number, entryId: string): string {
  const f = compactionFigures(index, tokens, i);
  const n = (v: number | null) => (v === null ? "…" : Math.round(v).toLocaleString("en-US"));
  const before = f.beforeRecorded ? `before: ${n(f.before)} tokens, as the agent recorded it (tokensBefore)` : `before: ${n(f.before)} tokens, estimated (the file records no tokensBefore)`;
  return `Compaction ${entryId}: ${before}; after: ${n(f.after)} tokens, what the model sees from the compaction (its summary and the kept entries)`;
}
