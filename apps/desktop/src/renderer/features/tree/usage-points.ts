/**
 * The replies' usage the page holds for the open tree (getUsagePoints): after a change of the tree it
 * asks only for the nodes it does not have (`after`) and joins the answer to what it holds.
 */
import type { UsagePoints, UsagePointsAfter } from "@bonsai/ipc";

/** The points held for one session: those of its tree's first `nodes` nodes. */
export interface HeldUsage {
  sessionId: string;
  points: UsagePoints;
}

/** what to ask for the session's tree given what is held (undefined: the whole tree) */
export function usageAfter(held: HeldUsage | null, sessionId: string): UsagePointsAfter | undefined {
  if (!held || held.sessionId !== sessionId || held.points.lastId === null) return undefined;
  return { nodes: held.points.nodes, lastId: held.points.lastId };
}

/**
 * The points of the whole tree from an answer and what was held when it was asked: the answer itself
 * when it is of the whole tree, the held points and the answer's when it starts where they end; null
 * when they do not join (an answer to an older question).
 */
export function joinUsage(held: HeldUsage | null, sessionId: string, answer: UsagePoints): UsagePoints | null {
  if (answer.from === 0) return answer;
  if (!held || held.sessionId !== sessionId || held.points.nodes !== answer.from) return null;
  return {
    entryIds: [...held.points.entryIds, ...answer.entryIds],
    tokens: [...held.points.tokens, ...answer.tokens],
    from: 0,
    nodes: answer.nodes,
    lastId: answer.lastId,
  };
}
