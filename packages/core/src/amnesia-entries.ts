/**
 * What the amnesia report (amnesia.ts) reads of each entry: its tool calls, the files they read and
 * change, the text it puts into the context and the words the user or the agent used, the
 * identifiers in them and the user's sentences (EntryReader keeps each once per report).
 */
import type { AssistantMessage, SessionEntry, ToolCall, ToolResultMessage } from "./entries";
import { messageFromEntry } from "./context";
import { createFileOperations, extractFileOpsFromMessage } from "./file-ops";
import { bigrams, extractIdentifiers, sentencesOf, sentenceWords, type Identifier } from "./amnesia-text";

export interface CallAt {
  entryId: string;
  call: ToolCall;
  key: string;
}

export function assistantOf(entry: SessionEntry): AssistantMessage | undefined {
  return entry.type === "message" && entry.message?.role === "assistant" ? entry.message : undefined;
}

export function toolResultOf(entry: SessionEntry): ToolResultMessage | undefined {
  return entry.type === "message" && entry.message?.role === "toolResult" ? entry.message : undefined;
}

/** JSON with object keys sorted: equal arguments give equal text whatever their order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function callsOf(entry: SessionEntry): CallAt[] {
  const message = assistantOf(entry);
  if (!message || !Array.isArray(message.content)) return [];
  const calls: CallAt[] = [];
  for (const block of message.content) {
    if (block?.type !== "toolCall" || typeof block.name !== "string") continue;
    calls.push({ entryId: entry.id, call: block, key: `${block.name}(${canonical(block.arguments ?? {})})` });
  }
  return calls;
}

/** Files an assistant entry reads and changes (compaction.md §6.1's rule). */
export function fileOpsOf(entry: SessionEntry): { read: Set<string>; modified: Set<string> } {
  const message = assistantOf(entry);
  const ops = createFileOperations();
  if (message) extractFileOpsFromMessage(message, ops);
  return { read: ops.read, modified: new Set([...ops.written, ...ops.edited]) };
}

export function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b: { type?: unknown; text?: unknown }) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join("\n");
}

/** A user message's own words (not synthetic prompts, not summaries). */
export function userTextOf(entry: SessionEntry): string | undefined {
  if (entry.type !== "message" || entry.message?.role !== "user" || entry.message.synthetic === true) return undefined;
  return textOfContent(entry.message.content);
}

/** Tool-call argument values longer than this are file contents or edits, not names the agent chose. */
export const USED_ARGUMENT_MAX_CHARS = 300;

/** What the user or the agent wrote, and the short values the agent passed to tools (not tool output, not file contents). */
export function usedTextOf(entry: SessionEntry): string {
  const user = userTextOf(entry);
  if (user !== undefined) return user;
  const message = assistantOf(entry);
  if (!message || !Array.isArray(message.content)) return "";
  const parts: string[] = [];
  for (const block of message.content) {
    if (block?.type === "text") parts.push(block.text);
    else if (block?.type === "toolCall") parts.push(argumentText(block.arguments, USED_ARGUMENT_MAX_CHARS));
  }
  return parts.join("\n");
}

export function argumentText(value: unknown, maxChars: number): string {
  if (typeof value === "string") return value.length <= maxChars ? value : "";
  if (Array.isArray(value)) return value.map((v) => argumentText(v, maxChars)).join("\n");
  if (value && typeof value === "object") return Object.values(value as Record<string, unknown>).map((v) => argumentText(v, maxChars)).join("\n");
  return "";
}

/** Every text an entry puts into the context: the used text plus tool output, summaries, commands. */
export function contextTextOf(entry: SessionEntry): string {
  const message = messageFromEntry(entry);
  if (!message) return "";
  switch (message.role) {
    case "user":
      return textOfContent(message.content);
    case "assistant":
      return (Array.isArray(message.content) ? message.content : [])
        .map((b) => (b?.type === "text" ? b.text : b?.type === "thinking" ? b.thinking : b?.type === "toolCall" ? argumentText(b.arguments, Number.POSITIVE_INFINITY) : ""))
        .join("\n");
    case "toolResult":
    case "custom":
    case "hookMessage":
      return textOfContent(message.content);
    case "bashExecution":
      return `${message.command}\n${message.output}`;
    case "branchSummary":
      return message.summary;
    default:
      return "";
  }
}

// ---------------------------------------------------------------- identifiers


export interface IdentifierUse {
  identifier: Identifier;
  /** entries of the span that contain it (first first) */
  spanEntryIds: string[];
  /** later entries that use it */
  laterEntryIds: string[];
}

export interface Sentence {
  entryId: string;
  text: string;
  bigrams: Set<string>;
}

/** What the findings read of each entry, computed once per report (entries recur in several windows). */
export class EntryReader {
  readonly #calls = new Map<SessionEntry, CallAt[]>();
  readonly #ops = new Map<SessionEntry, { read: Set<string>; modified: Set<string> }>();
  readonly #contextIds = new Map<SessionEntry, Identifier[]>();
  readonly #usedIds = new Map<SessionEntry, Identifier[]>();
  readonly #sentences = new Map<SessionEntry, Sentence[]>();

  calls(entry: SessionEntry): CallAt[] {
    return cached(this.#calls, entry, callsOf);
  }
  /** files the entry's tool calls read and change */
  fileOps(entry: SessionEntry): { read: Set<string>; modified: Set<string> } {
    return cached(this.#ops, entry, fileOpsOf);
  }
  /** identifiers of every text the entry puts into the context */
  contextIdentifiers(entry: SessionEntry): Identifier[] {
    return cached(this.#contextIds, entry, (e) => extractIdentifiers(contextTextOf(e)));
  }
  /** identifiers the user or the agent used: their words and the tool-call arguments */
  usedIdentifiers(entry: SessionEntry): Identifier[] {
    return cached(this.#usedIds, entry, (e) => extractIdentifiers(usedTextOf(e)));
  }
  /** the sentences of a user message's own words, with their word bigrams */
  userSentences(entry: SessionEntry): Sentence[] {
    return cached(this.#sentences, entry, (e) => {
      const text = userTextOf(e);
      return text === undefined ? [] : sentencesOf(text).map((sentence) => ({ entryId: e.id, text: sentence, bigrams: bigrams(sentenceWords(sentence)) }));
    });
  }
}

export function cached<T>(map: Map<SessionEntry, T>, entry: SessionEntry, compute: (e: SessionEntry) => T): T {
  let value = map.get(entry);
  if (value === undefined) {
    value = compute(entry);
    map.set(entry, value);
  }
  return value;
}

export function identifiersByEntry(entries: readonly SessionEntry[], of: (e: SessionEntry) => Identifier[]): Map<string, { identifier: Identifier; entryIds: string[] }> {
  const out = new Map<string, { identifier: Identifier; entryIds: string[] }>();
  for (const entry of entries) {
    for (const identifier of of(entry)) {
      const slot = out.get(identifier.value);
      if (slot) slot.entryIds.push(entry.id);
      else out.set(identifier.value, { identifier, entryIds: [entry.id] });
    }
  }
  return out;
}

/**
 * Identifiers present in `span` (any text it put into the context) and used in `later` (the user's
 * words, the agent's text and tool-call arguments), leaving out those `visible` still shows. The
 * summary check keeps those the summary does not mention (summaryMentions). Ordered by first use.
 */
export function identifiersUsedLater(
  span: readonly SessionEntry[],
  later: readonly SessionEntry[],
  visible: readonly SessionEntry[] = [],
  reader: EntryReader = new EntryReader(),
): IdentifierUse[] {
  if (span.length === 0 || later.length === 0) return [];
  const used = identifiersByEntry(later, (e) => reader.usedIdentifiers(e));
  if (used.size === 0) return [];
  const inSpan = identifiersByEntry(span, (e) => reader.contextIdentifiers(e));
  for (const entry of visible) for (const identifier of reader.contextIdentifiers(entry)) used.delete(identifier.value);
  const uses: IdentifierUse[] = [];
  for (const [value, { entryIds }] of used) {
    const before = inSpan.get(value);
    if (before) uses.push({ identifier: before.identifier, spanEntryIds: before.entryIds, laterEntryIds: entryIds });
  }
  return uses;
}

// ---------------------------------------------------------------- instruction similarity

/** Lowercased words (letters and digits) of a sentence. */

export function errorSignature(result: ToolResultMessage): string {
  const lines = textOfContent(result.content)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const line = lines.find((l) => /error|fail|exception|cannot|not found/i.test(l)) ?? lines[0] ?? "";
  const normalized = line.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ").slice(0, 160);
  return `${result.toolName}: ${normalized}`;
}
