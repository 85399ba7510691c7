/**
 * The usage every assistant reply of a session reports (core calculateContextTokens), for the page
 * to give every node of the tree the display figure (core displayTokensOfTree) that What the model
 * sees, the Compact panel and the CLI give it. The page asks once for the whole tree, then after each
 * change of it only for the nodes it does not have: an entry's usage never changes once written
 * (entries are appended; pruning rewrites tool results only), so the replies' entries are read once.
 */
import { reportedContextTokens } from "@bonsai/core";
import type { UsagePoints, UsagePointsAfter } from "@bonsai/ipc";
import type { SessionStore } from "@bonsai/store";

/**
 * The points of the session's tree (its skeleton's nodes, in file order), or of its nodes after the
 * first `after.nodes` when the caller holds those: when the node there is still `after.lastId`
 * (else, as after a rewrite of the session, of the whole tree again: `from` 0).
 */
export function usagePoints(store: Pick<SessionStore, "getSkeleton" | "getEntries">, sessionId: string, after?: UsagePointsAfter): UsagePoints {
  const nodes = store.getSkeleton(sessionId).nodes;
  const from = after !== undefined && after.nodes <= nodes.length && nodes[after.nodes - 1]?.id === after.lastId ? after.nodes : 0;
  const replies: string[] = [];
  for (let i = from; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (n.type === "message" && n.role === "assistant") replies.push(n.id);
  }
  const entryIds: string[] = [];
  const tokens: number[] = [];
  store.getEntries(sessionId, replies).forEach((entry, i) => {
    const reported = entry ? reportedContextTokens(entry) : undefined;
    if (reported === undefined) return;
    entryIds.push(replies[i] as string);
    tokens.push(reported);
  });
  return { entryIds, tokens, from, nodes: nodes.length, lastId: nodes.at(-1)?.id ?? null };
}
