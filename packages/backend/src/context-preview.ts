/**
 * What the model sees from a node, as core's contextOf answers it: the context messages with their
 * estimates, the estimate, the last reported usage and its age, the system prompt, the figures
 * against the window and threshold, the latest compaction, and the estimate along the path (from
 * the path's narrow rows with the same rule: no entry JSON is parsed for the series).
 */
import {
  compactionThreshold,
  contextFigureOf,
  contextOf,
  convertMessageToLlm,
  isCompactionEntry,
  listedOf,
  reportedUsageOf,
  reportedUsageWith,
  type AgentMessage,
  type BonsaiSettings,
  type CompactionEntry,
  type ContextFigure,
  type ModelWindow,
  type SessionEntry,
  windowEvidenceOf,
  windowOfSession,
} from "@bonsai/core";
import { CONTEXT_LIST_HEAD, CONTEXT_LIST_TAIL, type ContextMessage, type ContextPreview } from "@bonsai/ipc";
import type { ContextMessageRows, StoreReads } from "@bonsai/store";

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

/** the window a context preview lists a long context's messages in */
const LISTED = { head: CONTEXT_LIST_HEAD, tail: CONTEXT_LIST_TAIL };

/**
 * The context preview of `leafId`. A regular stored session answers from its narrow rows
 * (getContextMessages): each message's figures from the derived columns and its node's stored
 * preview, the JSON of only the compaction, the usage and the system prompt; an irregular one
 * builds the context from its entries. The size series along the path comes from the narrow rows.
 * A long context lists its first and newest messages (the rows of only those are read), all of
 * them when `allMessages`.
 */
export function contextPreview(store: StoreReads, sessionId: string, leafId: string | null, settings: BonsaiSettings, options: { allMessages?: boolean } = {}): ContextPreview {
  const window = options.allMessages ? undefined : LISTED;
  const rows = leafId === null ? null : store.getContextMessages(sessionId, leafId, window);
  // the store lists a window's part of the rows; what it lists whole (odd rows), or the entries' context, is folded here
  const part = listedPart(rows ? partFromRows(rows) : partFromEntries(leafId === null ? [] : store.getContextEntries(sessionId, leafId), leafId), window);
  const figure = contextFigureOf(part);
  const agentTokens = figure.contextTokens;
  const modelWindow = sessionWindow(part, settings);
  const threshold = compactionThreshold(modelWindow.contextWindow, settings.compaction);
  const series = store.getSizeSeries(sessionId, leafId, SERIES_POINTS);
  return {
    sessionId,
    leafId,
    ...part,
    agentTokens,
    contextWindow: modelWindow.contextWindow,
    contextWindowSource: modelWindow.source,
    basis: figure.basis,
    threshold,
    overThreshold: settings.compaction.enabled && agentTokens > threshold,
    pathLength: series.pathLength,
    sizeSeries: series.points,
  };
}

/** The window of the model that reported the path's usage (core windowOfSession), judged by the largest figure the path reports. */
export function sessionWindow(part: Pick<ContextPreview, "usage" | "compaction">, settings: BonsaiSettings): ModelWindow {
  return windowOfSession(windowEvidenceOf(part.usage, part.compaction), settings.model);
}

/**
 * The context figure of `leafId` (core contextFigureOf: the reported usage plus the estimate after
 * it, else the estimate), read as the preview reads it (a long context's listed window only).
 */
export function contextFigureAt(store: StoreReads, sessionId: string, leafId: string): ContextFigure {
  const rows = store.getContextMessages(sessionId, leafId, LISTED);
  return contextFigureOf(listedPart(rows ? partFromRows(rows) : partFromEntries(store.getContextEntries(sessionId, leafId), leafId), LISTED));
}

/**
 * What the model sees from `leafId`, estimated: the preview's `tokens`, from the narrow rows (a
 * regular stored session), else from the context's entries (core contextOf).
 */
export function contextTokensAt(store: StoreReads, sessionId: string, leafId: string): number {
  // one aggregate over the narrow rows (a session list counts every session's)
  const tokens = store.getContextTokens(sessionId, leafId);
  if (tokens !== undefined) return tokens;
  const rows = store.getContextMessages(sessionId, leafId);
  return rows ? sumOf(rows.summary.tokens) : contextOf(store.getContextEntries(sessionId, leafId), leafId).tokens;
}

function sumOf(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum;
}

type PreviewPart = Pick<ContextPreview, "systemPrompt" | "messages" | "unlisted" | "tokens" | "usage" | "compaction">;

/** a part listed in `window` (all its messages without one; as it is when it is folded already) */
function listedPart(part: PreviewPart, window: typeof LISTED | undefined): PreviewPart {
  const { messages } = part;
  if (!window || part.unlisted || messages.length <= window.head + window.tail) return part;
  const resumesAt = messages.length - window.tail;
  let tokens = 0;
  let largestTokens = 0;
  for (let i = 0; i < messages.length; i++) {
    const t = (messages[i] as ContextMessage).tokens;
    if (i >= window.head && i < resumesAt) tokens += t;
    if (t > largestTokens) largestTokens = t;
  }
  return {
    ...part,
    messages: listedOf(messages, window.head, window.tail),
    unlisted: { at: window.head, count: resumesAt - window.head, tokens, largestTokens },
  };
}

function systemPromptPart(prompt: string | null): ContextPreview["systemPrompt"] {
  return prompt === null ? null : { text: prompt, tokens: chars4(prompt) };
}

function compactionPart(e: CompactionEntry | null): ContextPreview["compaction"] {
  return e === null ? null : { entryId: e.id, firstKeptEntryId: e.firstKeptEntryId ?? null, tokensBefore: e.tokensBefore };
}

/** from the columns: the messages' previews are their nodes' */
function partFromRows(rows: ContextMessageRows): PreviewPart {
  const { summary } = rows;
  const messages: ContextMessage[] = summary.entryIds.map((entryId, i) => {
    const sent = rows.sent[i] ?? null;
    const sourceRole = String(summary.roles[i]);
    return { entryId, role: sent ?? sourceRole, sourceRole, tokens: summary.tokens[i] as number, preview: rows.previews[i] ?? "", ...(sent === null ? { excluded: true } : {}) };
  });
  const { unlisted, usageMessage } = rows;
  // the lists' sums hold every message only when none is left out
  const usage = !usageMessage
    ? null
    : unlisted && rows.usageTrailingTokens !== undefined
      ? reportedUsageWith(usageMessage, rows.compaction, rows.usageTrailingTokens)
      : reportedUsageOf(usageMessage, rows.compaction, summary.entryIds, summary.tokens);
  return {
    systemPrompt: systemPromptPart(rows.sessionInit ? systemPromptOf([rows.sessionInit]) : null),
    messages,
    unlisted: unlisted && { at: unlisted.at, count: unlisted.count, tokens: unlisted.tokens, largestTokens: unlisted.largestTokens },
    tokens: sumOf(summary.tokens) + (unlisted?.tokens ?? 0),
    usage,
    compaction: compactionPart(rows.compaction),
  };
}

/** from the context's entries (an irregular session) */
function partFromEntries(entries: readonly SessionEntry[], leafId: string | null): PreviewPart {
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
  let compaction: CompactionEntry | null = null;
  for (let i = entries.length - 1; i >= 0 && compaction === null; i--) {
    const e = entries[i]!;
    if (isCompactionEntry(e)) compaction = e;
  }
  return { systemPrompt: systemPromptPart(systemPromptOf(entries)), messages, unlisted: null, tokens: figures.tokens, usage: figures.usage, compaction: compactionPart(compaction) };
}
