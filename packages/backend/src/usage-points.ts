/**
 * The usage every assistant reply of a session reports (core calculateContextTokens), for the page
 * to give every node of the tree the display figure (core displayTokensOfTree) that What the model
 * sees, the Compact panel and the CLI give it. Read once per opened tree: the replies' entries only.
 */
import { calculateContextTokens, type AssistantMessage } from "@bonsai/core";
import type { UsagePoints } from "@bonsai/ipc";
import type { SessionStore } from "@bonsai/store";

export function usagePoints(store: Pick<SessionStore, "getSkeleton" | "getEntries">, sessionId: string): UsagePoints {
  const replies = store
    .getSkeleton(sessionId)
    .nodes.filter((n) => n.type === "message" && n.role === "assistant")
    .map((n) => n.id);
  const entryIds: string[] = [];
  const tokens: number[] = [];
  store.getEntries(sessionId, replies).forEach((entry, i) => {
    const message = entry?.type === "message" ? (entry as { message?: AssistantMessage }).message : undefined;
    if (message?.role !== "assistant" || !message.usage || typeof message.usage !== "object") return;
    entryIds.push(replies[i] as string);
    tokens.push(calculateContextTokens(message.usage));
  });
  return { entryIds, tokens };
}
