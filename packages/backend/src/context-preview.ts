/**
 * What the model sees from a leaf: the context messages (core buildSessionContext + convertToLlm),
 * their token estimates, the system prompt, the total against the window and threshold, the latest
 * compaction, and the estimated context size along the active path (from the skeleton: no entry
 * JSON is parsed for the series).
 */
import {
  buildSessionContext,
  compactionThreshold,
  convertMessageToLlm,
  estimateContextUsage,
  estimateTokens,
  isCompactionEntry,
  isOlderThanLatestCompaction,
  type AgentMessage,
  type SessionContext,
  type BonsaiSettings,
  type SessionEntry,
  type SkeletonNode,
  type TreeSkeleton,
} from "@bonsai/core";
import type { ContextMessage, ContextPreview } from "@bonsai/ipc";
import type { SessionStore } from "@bonsai/store";

const PREVIEW_CHARS = 160;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

function textOf(message: AgentMessage): string {
  const m = message as unknown as Record<string, unknown>;
  if (typeof m.summary === "string") return m.summary;
  if (typeof m.command === "string") return `$ ${m.command}`;
  const content = m.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((b: Record<string, unknown>) =>
        b.type === "text" ? String(b.text) : b.type === "thinking" ? String(b.thinking) : b.type === "toolCall" ? `${String(b.name)}(…)` : `[${String(b.type)}]`,
      )
      .join(" ");
  }
  return "";
}

function chars4(text: string): number {
  return Math.ceil(text.length / 4);
}

function systemPromptOf(entries: readonly SessionEntry[]): string | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i] as SessionEntry & { systemPrompt?: unknown };
    if (e.type === "session_init" && typeof e.systemPrompt === "string") return e.systemPrompt;
  }
  return null;
}

/** root -> leaf node indexes of the skeleton (cycles stop) */
export function skeletonPath(skeleton: TreeSkeleton, leafId: string | null): SkeletonNode[] {
  const byId = new Map(skeleton.nodes.map((n) => [n.id, n]));
  const path: SkeletonNode[] = [];
  const seen = new Set<string>();
  let id = leafId;
  while (id !== null && !seen.has(id)) {
    const n = byId.get(id);
    if (!n) break;
    seen.add(id);
    path.push(n);
    id = n.parentId;
  }
  return path.reverse();
}

/**
 * Estimated context size if each path entry were the leaf; drops at each compaction to its summary
 * (the skeleton's estimate of a compaction is its summary's) plus the kept part. No entry is read.
 */
export function sizeSeries(path: readonly SkeletonNode[]): ContextPreview["sizeSeries"] {
  const prefix = new Float64Array(path.length + 1);
  const indexOf = new Map<string, number>();
  for (let i = 0; i < path.length; i++) {
    // a compaction's own estimate is its summary, counted as `base` below, not as a kept message
    prefix[i + 1] = prefix[i]! + (path[i]!.type === "compaction" ? 0 : path[i]!.tokens);
    indexOf.set(path[i]!.id, i);
  }
  let base = 0;
  let start = 0;
  return path.map((n, i) => {
    const compaction = n.type === "compaction";
    if (compaction) {
      base = n.tokens;
      const kept = n.firstKeptEntryId !== undefined ? indexOf.get(n.firstKeptEntryId) : undefined;
      start = kept !== undefined && kept <= i ? kept : i + 1;
    }
    return { entryId: n.id, tokens: base + prefix[i + 1]! - prefix[start]!, compaction };
  });
}

/**
 * The context size from the model's own count (compaction.md §2.6) over the live context `ctx` built
 * from `entries` (the leaf's context entries): the usage of the last assistant message with a usage,
 * plus the estimates of the messages after it. A usage not newer than the latest compaction does not
 * count (Bonsai deviation 2, core's isOlderThanLatestCompaction, the engine's rule too): the kept
 * messages before a compaction carry usages of the old, larger context. `null` when no usage
 * qualifies (the caller sums the estimates).
 */
export function liveContextUsage(entries: readonly SessionEntry[], ctx: Pick<SessionContext, "messages">): { tokens: number; usageIndex: number } | null {
  const usage = estimateContextUsage(ctx.messages, 0);
  if (usage.lastUsageIndex < 0) return null;
  // every earlier usage is older still
  if (isOlderThanLatestCompaction(ctx.messages[usage.lastUsageIndex]!, entries)) return null;
  return { tokens: usage.tokens, usageIndex: usage.lastUsageIndex };
}

/** @param path the skeleton's root -> leaf nodes for `leafId` */
export function contextPreview(store: SessionStore, sessionId: string, leafId: string | null, path: readonly SkeletonNode[], settings: BonsaiSettings): ContextPreview {
  const entries = leafId === null ? [] : store.getContextEntries(sessionId, leafId);
  const ctx = buildSessionContext(entries, leafId);
  const messages: ContextMessage[] = [];
  ctx.messages.forEach((m, i) => {
    const llm = convertMessageToLlm(m);
    if (!llm) return;
    const sourceRole = m.role;
    messages.push({
      entryId: ctx.entryIds[i] ?? null,
      role: llm.role,
      sourceRole,
      tokens: estimateTokens(m),
      preview: oneLine(textOf(m)),
    });
  });
  const prompt = systemPromptOf(entries);
  const systemPrompt = prompt === null ? null : { text: prompt, tokens: chars4(prompt) };
  const usage = liveContextUsage(entries, ctx);
  const estimateOnly = messages.reduce((n, m) => n + m.tokens, 0) + (systemPrompt?.tokens ?? 0);
  const totalTokens = usage !== null ? usage.tokens : estimateOnly;
  const threshold = compactionThreshold(settings.model.contextWindow, settings.compaction);

  let compaction: ContextPreview["compaction"] = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (isCompactionEntry(e)) {
      compaction = { entryId: e.id, firstKeptEntryId: e.firstKeptEntryId ?? null, tokensBefore: e.tokensBefore };
      break;
    }
  }

  const series = sizeSeries(path);

  return {
    sessionId,
    leafId,
    systemPrompt,
    messages,
    totalTokens,
    totalSource: usage !== null ? "usage" : "estimate",
    contextWindow: settings.model.contextWindow,
    threshold,
    overThreshold: settings.compaction.enabled && totalTokens > threshold,
    compaction,
    sizeSeries: series,
  };
}
