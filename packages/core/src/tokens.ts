/**
 * Token accounting (spec: compaction.md §2, §3): usage-based context size, the chars/4 estimate
 * per message (omp-exact, including its quirks), the compaction threshold and the display estimate.
 */
import type { AgentMessage, AssistantMessage, SessionEntry, Usage } from "./entries";

/** Characters per image block in toolResult/hookMessage estimates (= 1200 tokens). */
export const IMAGE_CHARS = 4800;

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** totalTokens, or (when missing or 0) input + output + cacheRead + cacheWrite. */
export function calculateContextTokens(usage: Usage): number {
  return num(usage.totalTokens) || num(usage.input) + num(usage.output) + num(usage.cacheRead) + num(usage.cacheWrite);
}

/** input + cacheRead + cacheWrite when positive, else calculateContextTokens. */
export function calculatePromptTokens(usage: Usage): number {
  const prompt = num(usage.input) + num(usage.cacheRead) + num(usage.cacheWrite);
  return prompt > 0 ? prompt : calculateContextTokens(usage);
}

/** An assistant message whose usage can be trusted: has usage, not aborted, not an error. */
function validAssistantUsage(entry: SessionEntry): Usage | undefined {
  if (entry.type !== "message") return undefined;
  const message = (entry as { message?: AgentMessage }).message;
  if (!message || message.role !== "assistant") return undefined;
  const { usage, stopReason } = message as AssistantMessage;
  if (!usage || stopReason === "aborted" || stopReason === "error") return undefined;
  return usage;
}

/**
 * The context size an entry's assistant reply reports (calculateContextTokens of its usage), or
 * undefined when it reports none: not an assistant reply, no usage object, or a usage of all zeros (a
 * reply aborted or refused before the model counted anything says nothing about the context). Every
 * figure Bonsai shows (context, ls, the tree's nodes, the model-window evidence, what-if) reads
 * reported usage through this one rule, so they agree.
 */
export function reportedContextTokens(entry: SessionEntry): number | undefined {
  const message = entry.type === "message" ? (entry as { message?: AgentMessage }).message : undefined;
  if (typeof message !== "object" || message === null || message.role !== "assistant") return undefined;
  return replyContextTokens(message as AssistantMessage);
}

/** reportedContextTokens of an assistant reply itself. */
export function replyContextTokens(message: AssistantMessage): number | undefined {
  const usage: unknown = message.usage;
  if (typeof usage !== "object" || usage === null) return undefined;
  const tokens = calculateContextTokens(usage as Usage);
  return tokens > 0 ? tokens : undefined;
}

/** Usage of the last assistant message (scanning from the end) that is neither aborted nor an error. */
export function getLastAssistantUsage(entries: readonly SessionEntry[]): Usage | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const usage = validAssistantUsage(entries[i] as SessionEntry);
    if (usage) return usage;
  }
  return undefined;
}

function textLength(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

type Block = { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown; arguments?: unknown };

function isBlock(b: unknown): b is Block {
  return typeof b === "object" && b !== null;
}

// loops over the content instead of a filtered copy of it: this runs once per stored entry

function userChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const b of content as unknown[]) if (isBlock(b) && b.type === "text") chars += textLength(b.text);
  return chars;
}

function toolResultChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const b of content as unknown[]) {
    if (!isBlock(b)) continue;
    if (b.type === "text") chars += textLength(b.text);
    else if (b.type === "image") chars += IMAGE_CHARS;
  }
  return chars;
}

function assistantChars(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const b of content as unknown[]) {
    if (!isBlock(b)) continue;
    if (b.type === "text") chars += textLength(b.text);
    else if (b.type === "thinking") chars += textLength(b.thinking);
    else if (b.type === "toolCall") chars += textLength(b.name) + textLength(JSON.stringify(b.arguments ?? {}));
  }
  return chars;
}

/** Characters counted for a message by the chars/4 heuristic (omp: custom/python/fileMention count 0; an agent's instructions count). */
export function estimateChars(message: AgentMessage): number {
  const m = message as unknown as Record<string, unknown>;
  switch (message.role) {
    case "user":
      return userChars(m.content);
    case "assistant":
      return assistantChars(m.content);
    case "toolResult":
    case "hookMessage":
      return toolResultChars(m.content);
    case "bashExecution":
      return textLength(m.command) + textLength(m.output);
    case "branchSummary":
    case "compactionSummary":
      return textLength(m.summary);
    case "custom":
      // an agent's own instructions read from its session (Codex developer messages) reach the model;
      // pi's custom messages count 0, as the reference counts them
      return m.agentInstructions === true ? userChars(m.content) : 0;
    default:
      return 0;
  }
}

/** ceil(chars / 4) for one message (compaction.md §2.4). */
export function estimateTokens(message: AgentMessage): number {
  return Math.ceil(estimateChars(message) / 4);
}

/** Sum of estimateTokens over messages. */
export function estimateMessagesTokens(messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const m of messages) total += estimateTokens(m);
  return total;
}

/** `max tokens` of the three compaction calls from `reserveTokens` (compaction.md §1). */
export function compactionMaxTokens(reserveTokens: number): { history: number; turnPrefix: number; short: number } {
  return {
    history: Math.floor(0.8 * reserveTokens),
    turnPrefix: Math.floor(0.5 * reserveTokens),
    short: Math.min(512, Math.floor(0.2 * reserveTokens)),
  };
}

export interface ThresholdSettings {
  enabled: boolean;
  reserveTokens: number;
  /** Bonsai setting: an absolute threshold replacing contextWindow - reserveTokens (0 or absent = unset) */
  thresholdTokens?: number;
  /** Bonsai setting: a threshold as a percentage of the context window (0 or absent = unset) */
  thresholdPercent?: number;
}

/**
 * The context size above which a threshold compaction triggers: contextWindow - reserveTokens (the
 * spec), unless Bonsai's thresholdTokens (absolute) or thresholdPercent (of the window, rounded down)
 * is set; thresholdTokens wins when both are.
 */
export function compactionThreshold(contextWindow: number, settings: ThresholdSettings): number {
  if (settings.thresholdTokens !== undefined && settings.thresholdTokens > 0) return settings.thresholdTokens;
  if (settings.thresholdPercent !== undefined && settings.thresholdPercent > 0) return Math.floor((contextWindow * settings.thresholdPercent) / 100);
  return contextWindow - settings.reserveTokens;
}

/** enabled && contextTokens > compactionThreshold (strict; spec: > contextWindow - reserveTokens). */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: ThresholdSettings): boolean {
  return settings.enabled && contextTokens > compactionThreshold(contextWindow, settings);
}

export interface ContextUsageEstimate {
  /** usage tokens of the last assistant message with a usage object + estimates of the messages after it */
  tokens: number;
  /** tokens / contextWindow * 100; undefined when contextWindow <= 0 */
  percent: number | undefined;
  /** tokens taken from usage (0 when no message had usage) */
  usageTokens: number;
  /** tokens estimated for messages after that assistant message (or for all, without usage) */
  trailingTokens: number;
  /** index in `messages` of the assistant message whose usage was used, -1 if none */
  lastUsageIndex: number;
}

/**
 * The status-display estimate (compaction.md §2.6): the last assistant message with a usage object
 * (aborted and error ones included here) supplies calculateContextTokens; later messages are estimated.
 */
export function estimateContextUsage(messages: readonly AgentMessage[], contextWindow: number): ContextUsageEstimate {
  let lastUsageIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AgentMessage;
    if (m.role === "assistant" && (m as AssistantMessage).usage) {
      lastUsageIndex = i;
      break;
    }
  }
  const usageTokens = lastUsageIndex >= 0 ? calculateContextTokens((messages[lastUsageIndex] as AssistantMessage).usage) : 0;
  let trailingTokens = 0;
  for (let i = lastUsageIndex + 1; i < messages.length; i++) trailingTokens += estimateTokens(messages[i] as AgentMessage);
  const tokens = usageTokens + trailingTokens;
  return { tokens, percent: contextWindow > 0 ? (tokens / contextWindow) * 100 : undefined, usageTokens, trailingTokens, lastUsageIndex };
}

/**
 * Bonsai deviations 2 and 3: whether an assistant message is not newer than the latest compaction on
 * its path. Its usage (or overflow error) then describes the context before that compaction, so it
 * neither triggers a threshold or overflow compaction nor counts as the context's size. The same
 * rule serves the engine's checks and the context-usage display, so they never disagree.
 * @param pathEntries the root -> leaf entries (or the context entries) the message belongs to
 */
export function isOlderThanLatestCompaction(message: { timestamp: number }, pathEntries: readonly SessionEntry[]): boolean {
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    const entry = pathEntries[i]!;
    if (entry.type === "compaction") return message.timestamp <= Date.parse(entry.timestamp);
  }
  return false;
}
