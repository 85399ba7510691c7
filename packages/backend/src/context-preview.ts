/**
 * What the model sees from a node, as core's contextOf answers it: the context messages with their
 * estimates, the estimate, the last reported usage and its age, the system prompt, the figures
 * against the window and threshold, the latest compaction, and the estimate along the path (from
 * the path's narrow rows with the same rule: no entry JSON is parsed for the series).
 */
import {
  agentContextTokens,
  compactionThreshold,
  contextOf,
  convertMessageToLlm,
  isCompactionEntry,
  type AgentMessage,
  type BonsaiSettings,
  type SessionEntry,
} from "@bonsai/core";
import type { ContextMessage, ContextPreview } from "@bonsai/ipc";
import type { SessionStore } from "@bonsai/store";

const PREVIEW_CHARS = 160;

/**
 * The text on one line (whitespace runs as one space), cut to PREVIEW_CHARS with "…". Only as much
 * of the start is flattened as the preview needs: a tool output of megabytes costs what it shows.
 */
export function oneLine(text: string): string {
  for (let end = Math.min(text.length, PREVIEW_CHARS * 2); ; end = Math.min(text.length, end * 4)) {
    const flat = text.slice(0, end).replace(/\s+/g, " ").trim();
    // the start of the whole text flattens the same way: once it is longer than the preview, so is all of it
    if (flat.length > PREVIEW_CHARS) return `${flat.slice(0, PREVIEW_CHARS - 1)}…`;
    if (end === text.length) return flat;
  }
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

/** the stretches of the path the size series is thinned to (a chart's columns) */
export const SERIES_POINTS = 400;

/** The context preview of `leafId`; the size series along its path comes from the store's narrow rows. */
export function contextPreview(store: SessionStore, sessionId: string, leafId: string | null, settings: BonsaiSettings): ContextPreview {
  const entries = leafId === null ? [] : store.getContextEntries(sessionId, leafId);
  const figures = contextOf(entries, leafId);
  const { context } = figures;
  const messages: ContextMessage[] = context.messages.map((m, i) => {
    const llm = convertMessageToLlm(m);
    return {
      entryId: context.entryIds[i] ?? null,
      role: llm?.role ?? m.role,
      sourceRole: m.role,
      tokens: figures.messageTokens[i] as number,
      preview: oneLine(textOf(m)),
      ...(llm ? {} : { excluded: true }),
    };
  });
  const prompt = systemPromptOf(entries);
  const systemPrompt = prompt === null ? null : { text: prompt, tokens: chars4(prompt) };
  const agentTokens = agentContextTokens(figures);
  const threshold = compactionThreshold(settings.model.contextWindow, settings.compaction);

  let compaction: ContextPreview["compaction"] = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (isCompactionEntry(e)) {
      compaction = { entryId: e.id, firstKeptEntryId: e.firstKeptEntryId ?? null, tokensBefore: e.tokensBefore };
      break;
    }
  }

  const series = store.getSizeSeries(sessionId, leafId, SERIES_POINTS);

  return {
    sessionId,
    leafId,
    systemPrompt,
    messages,
    tokens: figures.tokens,
    usage: figures.usage,
    agentTokens,
    contextWindow: settings.model.contextWindow,
    threshold,
    overThreshold: settings.compaction.enabled && agentTokens > threshold,
    compaction,
    pathLength: series.pathLength,
    sizeSeries: series.points,
  };
}
