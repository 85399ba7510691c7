/**
 * The amnesia report: signs, in what an agent did after a compaction or a pruning, that it lost
 * something it needed. No model is asked; everything is read from the session.
 *
 * For a compaction C on a path (root -> the session's leaf, or the newest leaf below C):
 * - the summarized span: the entries after the previous compaction up to C's first kept entry;
 * - the kept part: from the first kept entry to C (still sent to the model: never a sign);
 * - after: the entries after C up to the next compaction (the time C's summary was the memory),
 *   except the messages the agent carried forward into its compacted history (Codex's
 *   replacement_history, marked `fromCompaction` by the reader): those are what the model kept,
 *   part of the kept part, never a sign.
 *
 * Findings (each names entries on both sides, before first):
 * - reread: a file read in the span (or listed in C's read files) read again after C, before the
 *   agent changed it after C, and not read in the kept part;
 * - repeatedCall: a tool call (other than read) with the same name and the same arguments as one
 *   of the span, not also in the kept part; calls made twice or more in the span itself are routine
 *   (test runs, status checks) and not counted;
 * - recurringError: a tool error of the span that a later identical call fixed there, whose
 *   signature (tool, first error line with numbers as #) comes back after C;
 * - restatedInstruction: a sentence of a user message after C of at least RESTATE_MIN_WORDS words
 *   whose word-bigram Dice similarity with a sentence the user wrote in the span is at least
 *   RESTATE_SIMILARITY (text lowercased, letters and digits only, paths and URLs left out), not
 *   also said in the kept part;
 * - droppedIdentifier: a path, URL, code symbol or error code present in the span and used after C
 *   (in the user's words, the agent's text or its tool-call arguments of at most
 *   USED_ARGUMENT_MAX_CHARS characters: names, not file contents), not in the kept part, and absent
 *   from C's summary.
 *
 * Score of a compaction (or pruning): Σ over kinds of weight × min(count, SCORE_CAP), weights
 * restatedInstruction 3, recurringError 3, reread 2, repeatedCall 2, droppedIdentifier 1; 0 means
 * no sign, the most is 55.
 *
 * A pruning (the tool results of one prunedAt on the active path) is read the same way, the pruned
 * results being the span and "after" starting where it ran: reread and repeatedCall only (the
 * pruned text is gone from the session, and pruning removes no user message).
 */
import type { AssistantMessage, CompactionEntry, SessionEntry, ToolCall, ToolResultMessage } from "./entries";
import { messageFromEntry } from "./context";
import { createFileOperations, extractFileOpsFromMessage, recoverFileLists } from "./file-ops";
import { buildIndex, childrenOf, defaultLeafId, getPath, type SessionIndex } from "./tree";
import { undoneCompactionIds } from "./undo-markers";

export type AmnesiaKind = "reread" | "repeatedCall" | "recurringError" | "restatedInstruction" | "droppedIdentifier";

export interface AmnesiaFinding {
  kind: AmnesiaKind;
  /** entries on both sides: the earlier ones (span, or the compaction itself) first, then the later ones */
  entryIds: string[];
  detail: string;
}

export interface CompactionAmnesia {
  compactionId: string;
  score: number;
  findings: AmnesiaFinding[];
}

export interface PruningAmnesia {
  /** the entry after which the pruning ran */
  atEntryId: string;
  /** ms, the pruned results' prunedAt */
  prunedAt: number;
  prunedEntryIds: string[];
  score: number;
  findings: AmnesiaFinding[];
}

export interface AmnesiaReport {
  compactions: CompactionAmnesia[];
  prunings: PruningAmnesia[];
}

export const RESTATE_SIMILARITY = 0.6;
export const RESTATE_MIN_WORDS = 4;
export const SCORE_CAP = 5;
export const SCORE_WEIGHTS: Readonly<Record<AmnesiaKind, number>> = {
  restatedInstruction: 3,
  recurringError: 3,
  reread: 2,
  repeatedCall: 2,
  droppedIdentifier: 1,
};

/** Σ weight × min(count, SCORE_CAP) over the findings' kinds. */
export function amnesiaScore(findings: readonly AmnesiaFinding[]): number {
  const counts = new Map<AmnesiaKind, number>();
  for (const f of findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  let score = 0;
  for (const [kind, count] of counts) score += SCORE_WEIGHTS[kind] * Math.min(count, SCORE_CAP);
  return score;
}

// ---------------------------------------------------------------- reading entries

interface CallAt {
  entryId: string;
  call: ToolCall;
  key: string;
}

function assistantOf(entry: SessionEntry): AssistantMessage | undefined {
  return entry.type === "message" && entry.message?.role === "assistant" ? entry.message : undefined;
}

function toolResultOf(entry: SessionEntry): ToolResultMessage | undefined {
  return entry.type === "message" && entry.message?.role === "toolResult" ? entry.message : undefined;
}

/** JSON with object keys sorted: equal arguments give equal text whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function callsOf(entry: SessionEntry): CallAt[] {
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
function fileOpsOf(entry: SessionEntry): { read: Set<string>; modified: Set<string> } {
  const message = assistantOf(entry);
  const ops = createFileOperations();
  if (message) extractFileOpsFromMessage(message, ops);
  return { read: ops.read, modified: new Set([...ops.written, ...ops.edited]) };
}

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b: { type?: unknown; text?: unknown }) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join("\n");
}

/** A user message's own words (not synthetic prompts, not summaries). */
function userTextOf(entry: SessionEntry): string | undefined {
  if (entry.type !== "message" || entry.message?.role !== "user" || entry.message.synthetic === true) return undefined;
  return textOfContent(entry.message.content);
}

/** Tool-call argument values longer than this are file contents or edits, not names the agent chose. */
export const USED_ARGUMENT_MAX_CHARS = 300;

/** What the user or the agent wrote, and the short values the agent passed to tools (not tool output, not file contents). */
function usedTextOf(entry: SessionEntry): string {
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

function argumentText(value: unknown, maxChars: number): string {
  if (typeof value === "string") return value.length <= maxChars ? value : "";
  if (Array.isArray(value)) return value.map((v) => argumentText(v, maxChars)).join("\n");
  if (value && typeof value === "object") return Object.values(value as Record<string, unknown>).map((v) => argumentText(v, maxChars)).join("\n");
  return "";
}

/** Every text an entry puts into the context: the used text plus tool output, summaries, commands. */
function contextTextOf(entry: SessionEntry): string {
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

export type IdentifierKind = "path" | "url" | "symbol" | "errorCode";

export interface Identifier {
  value: string;
  kind: IdentifierKind;
}

/** Runs of characters identifiers are made of (URLs included); everything else separates them. */
const TOKEN_RE = /[A-Za-z0-9_.~@+/:%?=&#-]+/g;
const FILE_EXTENSION = /\.(?:tsx?|jsx?|mjs|cjs|json|md|py|rs|go|java|kt|rb|php|c|h|cpp|hpp|cs|swift|sh|ya?ml|toml|sql|css|scss|html|vue|svelte|lock|txt)$/;
const SYMBOL = /^(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$/;
const ERROR_CODE = /^(?:[A-Z]{1,4}\d{3,5}|E[A-Z]{3,}|ERR_[A-Z0-9_]+)$/;
const TRAILING = /[.,:;!?'"`)\]}#=&%-]+$/;
const PLAIN_WORD = /^[A-Za-z][a-z]*[.,:;!?-]?$/;
const LEADING = /^[:;,.'"`([{#=&%?-]+(?=[^.~/])/;

function isPath(token: string): boolean {
  if (!token.includes("/")) return FILE_EXTENSION.test(token) && /^[\w-]+\.\w+$/.test(token);
  if (!/^(?:~|\.{1,2})?[\w@+./-]+$/.test(token)) return false;
  const segments = token.split("/").filter((p) => p !== "" && p !== "." && p !== "..");
  const last = segments[segments.length - 1] ?? "";
  return segments.length >= 3 || (segments.length >= 2 && (/\.[A-Za-z0-9]{1,6}$/.test(last) || token.startsWith("/")));
}

/**
 * The identifiers of a text: URLs, paths (three or more segments, or two with a file name or from
 * the root), file names with a known extension, code symbols (camelCase, PascalCase with two humps,
 * snake_case, SCREAMING_CASE, also inside paths) and error codes (TS2345, E0308, ENOENT, ERR_…),
 * each at least 5 characters. One pass over the text, then each run of identifier characters is
 * classified.
 */
export function extractIdentifiers(text: string): Identifier[] {
  const found = new Map<string, IdentifierKind>();
  const add = (value: string, kind: IdentifierKind) => {
    if (value.length >= 5 && !found.has(value)) found.set(value, kind);
  };
  for (const match of text.matchAll(TOKEN_RE)) {
    // most runs are plain words: nothing to classify
    if (match[0].length < 5 || PLAIN_WORD.test(match[0])) continue;
    const raw = match[0].replace(TRAILING, "").replace(LEADING, "");
    if (raw.length < 5) continue;
    if (/^https?:\/\//.test(raw)) {
      add(raw, "url");
      continue;
    }
    // a location such as src/app.ts:12:5 names the file
    const token = raw.replace(/(?::\d+)+$/, "");
    if (isPath(token)) add(token, "path");
    for (const word of token.split(/[^A-Za-z0-9_]+/)) {
      if (word.length < 5) continue;
      if (ERROR_CODE.test(word)) add(word, "errorCode");
      else if (SYMBOL.test(word)) add(word, "symbol");
    }
  }
  return [...found].map(([value, kind]) => ({ value, kind }));
}

/** Whether a summary mentions an identifier (a path also by its file name). */
export function summaryMentions(summary: string, identifier: Identifier): boolean {
  if (summary.includes(identifier.value)) return true;
  if (identifier.kind !== "path") return false;
  const name = identifier.value.split("/").pop() ?? "";
  return name.length >= 5 && summary.includes(name);
}

export interface IdentifierUse {
  identifier: Identifier;
  /** entries of the span that contain it (first first) */
  spanEntryIds: string[];
  /** later entries that use it */
  laterEntryIds: string[];
}

interface Sentence {
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

function cached<T>(map: Map<SessionEntry, T>, entry: SessionEntry, compute: (e: SessionEntry) => T): T {
  let value = map.get(entry);
  if (value === undefined) {
    value = compute(entry);
    map.set(entry, value);
  }
  return value;
}

function identifiersByEntry(entries: readonly SessionEntry[], of: (e: SessionEntry) => Identifier[]): Map<string, { identifier: Identifier; entryIds: string[] }> {
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
export function sentenceWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function bigrams(words: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) out.add(`${words[i]} ${words[i + 1]}`);
  return out;
}

function dice(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (x.size === 0 || y.size === 0) return 0;
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  let common = 0;
  for (const g of small) if (large.has(g)) common++;
  return (2 * common) / (x.size + y.size);
}

/** Dice coefficient of the two sentences' word-bigram sets (0..1). */
export function instructionSimilarity(a: string, b: string): number {
  return dice(bigrams(sentenceWords(a)), bigrams(sentenceWords(b)));
}

/** Sentences (ended by . ! ? ; before a space, or a line break) without their paths and URLs. */
function sentencesOf(text: string): string[] {
  return text
    .split(/[.!?;]+(?=\s|$)|\n+/)
    .map((s) => s.replace(/\S*\/\S*/g, " ").trim())
    .filter((s) => sentenceWords(s).length >= RESTATE_MIN_WORDS);
}

// ---------------------------------------------------------------- errors

function errorSignature(result: ToolResultMessage): string {
  const lines = textOfContent(result.content)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const line = lines.find((l) => /error|fail|exception|cannot|not found/i.test(l)) ?? lines[0] ?? "";
  const normalized = line.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ").slice(0, 160);
  return `${result.toolName}: ${normalized}`;
}

// ---------------------------------------------------------------- findings

interface Window {
  /** entries whose content the compaction or pruning took away */
  span: readonly SessionEntry[];
  /** entries still sent to the model afterwards */
  kept: readonly SessionEntry[];
  after: readonly SessionEntry[];
  /** the compaction entry (compactions only) */
  compaction?: CompactionEntry;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function rereads(w: Window, r: EntryReader): (AmnesiaFinding & { file: string })[] {
  const before = new Map<string, string[]>();
  for (const entry of w.span) for (const file of r.fileOps(entry).read) push(before, file, entry.id);
  const listed = w.compaction ? new Set(recoverFileLists(w.compaction).readFiles) : new Set<string>();
  for (const file of listed) if (!before.has(file)) before.set(file, [(w.compaction as CompactionEntry).id]);
  for (const entry of w.kept) for (const file of r.fileOps(entry).read) before.delete(file);
  const again = new Map<string, string[]>();
  const changed = new Set<string>();
  for (const entry of w.after) {
    const ops = r.fileOps(entry);
    for (const file of ops.read) if (before.has(file) && !changed.has(file)) push(again, file, entry.id);
    for (const file of ops.modified) changed.add(file);
  }
  return [...again].map(([file, later]) => ({
    file,
    kind: "reread" as const,
    entryIds: [...(before.get(file) as string[]), ...later],
    detail: `${file} read again ${later.length === 1 ? "once" : `${later.length} times`} after it had been read before${listed.has(file) ? " (and listed in the summary's read files)" : ""}`,
  }));
}

function repeatedCalls(w: Window, r: EntryReader): AmnesiaFinding[] {
  const spanCalls = new Map<string, CallAt[]>();
  for (const entry of w.span) for (const c of r.calls(entry)) if (c.call.name !== "read") push(spanCalls, c.key, c);
  for (const entry of w.kept) for (const c of r.calls(entry)) spanCalls.delete(c.key);
  const again = new Map<string, string[]>();
  for (const entry of w.after) {
    for (const c of r.calls(entry)) {
      const earlier = spanCalls.get(c.key);
      if (earlier && earlier.length === 1) push(again, c.key, entry.id);
    }
  }
  return [...again].map(([key, later]) => ({
    kind: "repeatedCall" as const,
    entryIds: [(spanCalls.get(key) as CallAt[])[0]!.entryId, ...later],
    detail: `${key.length > 200 ? `${key.slice(0, 199)}…` : key} called again with the same arguments`,
  }));
}

function recurringErrors(w: Window, r: EntryReader): AmnesiaFinding[] {
  // the call behind each result of the span, by tool call id
  const callById = new Map<string, CallAt>();
  for (const entry of w.span) for (const c of r.calls(entry)) callById.set(c.call.id, c);
  const fixed = new Map<string, { errorId: string; fixId: string }>();
  const open = new Map<string, { signature: string; entryId: string }>();
  for (const entry of w.span) {
    const result = toolResultOf(entry);
    const call = result ? callById.get(result.toolCallId) : undefined;
    if (!result || !call) continue;
    if (result.isError) open.set(call.key, { signature: errorSignature(result), entryId: entry.id });
    else {
      const error = open.get(call.key);
      if (error && !fixed.has(error.signature)) fixed.set(error.signature, { errorId: error.entryId, fixId: entry.id });
      open.delete(call.key);
    }
  }
  if (fixed.size === 0) return [];
  const findings: AmnesiaFinding[] = [];
  const reported = new Set<string>();
  for (const entry of w.after) {
    const result = toolResultOf(entry);
    if (!result?.isError) continue;
    const signature = errorSignature(result);
    const earlier = fixed.get(signature);
    if (!earlier || reported.has(signature)) continue;
    reported.add(signature);
    findings.push({ kind: "recurringError", entryIds: [earlier.errorId, earlier.fixId, entry.id], detail: `an error fixed before came back: ${signature}` });
  }
  return findings;
}

function restatedInstructions(w: Window, r: EntryReader): AmnesiaFinding[] {
  const span = w.span.flatMap((e) => r.userSentences(e));
  if (span.length === 0) return [];
  const kept = w.kept.flatMap((e) => r.userSentences(e));
  const findings: AmnesiaFinding[] = [];
  // the span's sentences by bigram: only those sharing one with a later sentence are compared
  const byBigram = new Map<string, Sentence[]>();
  for (const earlier of span) for (const g of earlier.bigrams) push(byBigram, g, earlier);
  for (const later of w.after.flatMap((e) => r.userSentences(e))) {
    let best: { sentence: Sentence; similarity: number } | undefined;
    const compared = new Set<Sentence>();
    for (const g of later.bigrams) {
      for (const earlier of byBigram.get(g) ?? []) {
        if (compared.has(earlier)) continue;
        compared.add(earlier);
        const similarity = dice(earlier.bigrams, later.bigrams);
        if (similarity >= RESTATE_SIMILARITY && (!best || similarity > best.similarity)) best = { sentence: earlier, similarity };
      }
    }
    if (!best || kept.some((k) => dice(k.bigrams, later.bigrams) >= RESTATE_SIMILARITY)) continue;
    findings.push({
      kind: "restatedInstruction",
      entryIds: [best.sentence.entryId, later.entryId],
      detail: `“${later.text}” restates “${best.sentence.text}” (similarity ${best.similarity.toFixed(2)})`,
    });
  }
  return findings;
}

/** `reread`: files already reported as read again (not reported twice) */
function droppedIdentifiers(w: Window, r: EntryReader, reread: ReadonlySet<string>): AmnesiaFinding[] {
  const summary = w.compaction?.summary ?? "";
  return identifiersUsedLater(w.span, w.after, w.kept, r)
    .filter((use) => !reread.has(use.identifier.value) && !summaryMentions(summary, use.identifier))
    .map((use) => ({
      kind: "droppedIdentifier" as const,
      entryIds: [use.spanEntryIds[0] as string, use.laterEntryIds[0] as string],
      detail: `${use.identifier.kind} ${use.identifier.value} was in the summarized part and is used later, but the summary does not mention it`,
    }));
}

// ---------------------------------------------------------------- windows

/** The path a compaction is judged on: to the session's leaf when the compaction is on it, else to its newest descendant leaf. */
function pathThrough(index: SessionIndex, compactionId: string, leafPath: readonly SessionEntry[]): SessionEntry[] {
  if (leafPath.some((e) => e.id === compactionId)) return [...leafPath];
  let newest = compactionId;
  let newestPosition = index.position.get(compactionId) ?? -1;
  const stack = [compactionId];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    for (const child of childrenOf(index, id)) {
      const position = index.position.get(child.id) ?? -1;
      if (position > newestPosition) {
        newest = child.id;
        newestPosition = position;
      }
      stack.push(child.id);
    }
  }
  return getPath(index, newest);
}

function compactionWindow(path: readonly SessionEntry[], c: number): Window {
  const compaction = path[c] as CompactionEntry;
  let previous = -1;
  for (let i = c - 1; i >= 0; i--) {
    if (path[i]?.type === "compaction") {
      previous = i;
      break;
    }
  }
  let next = path.length;
  for (let i = c + 1; i < path.length; i++) {
    if (path[i]?.type === "compaction") {
      next = i;
      break;
    }
  }
  let kept = c;
  for (let i = 0; i < c; i++) if (path[i]?.id === compaction.firstKeptEntryId) kept = i;
  const spanEnd = Math.max(previous + 1, kept);
  // what the agent carried forward into its compacted history (Codex's replacement_history) is kept,
  // not said again: it joins the kept part and leaves "after"
  const after = path.slice(c + 1, next);
  const carried = after.filter((e) => carriedForwardBy(e, compaction));
  const keptPart = path.slice(kept, c);
  if (carried.length === 0) return { span: path.slice(previous + 1, spanEnd), kept: keptPart, after, compaction };
  return { span: path.slice(previous + 1, spanEnd), kept: [...keptPart, ...carried], after: after.filter((e) => !carriedForwardBy(e, compaction)), compaction };
}

/** An entry the agent wrote into its context when it compacted (a reader marks it `fromCompaction`: the compaction's id). */
function carriedForwardBy(entry: SessionEntry, compaction: CompactionEntry): boolean {
  return (entry as { fromCompaction?: unknown }).fromCompaction === compaction.id;
}

function findingsOf(w: Window, kinds: "all" | "calls", r: EntryReader): AmnesiaFinding[] {
  const reread = rereads(w, r);
  const calls = [...reread.map(({ file: _file, ...finding }) => finding), ...repeatedCalls(w, r)];
  if (kinds === "calls") return calls;
  const rereadFiles = new Set(reread.map((f) => f.file));
  return [...calls, ...recurringErrors(w, r), ...restatedInstructions(w, r), ...droppedIdentifiers(w, r, rereadFiles)];
}

/**
 * The report of a session: every compaction entry (on the path through it) that is not undone
 * (undo-markers.ts) and every pruning on the active path. `leafId` defaults to the session's default
 * leaf (the last entry).
 */
export function amnesiaReport(entries: readonly SessionEntry[], leafId: string | null = defaultLeafId(entries)): AmnesiaReport {
  const index = buildIndex(entries);
  const leafPath = getPath(index, leafId);
  const reader = new EntryReader();
  const compactions: CompactionAmnesia[] = [];
  const undone = undoneCompactionIds(entries);
  for (const entry of entries) {
    if (entry.type !== "compaction" || index.byId.get(entry.id) !== entry || undone.has(entry.id)) continue;
    const path = pathThrough(index, entry.id, leafPath);
    const c = path.findIndex((e) => e.id === entry.id);
    const findings = findingsOf(compactionWindow(path, c), "all", reader);
    compactions.push({ compactionId: entry.id, score: amnesiaScore(findings), findings });
  }
  return { compactions, prunings: pruningReports(leafPath, reader) };
}

function pruningReports(path: readonly SessionEntry[], reader: EntryReader): PruningAmnesia[] {
  const groups = new Map<number, number[]>();
  path.forEach((entry, i) => {
    const prunedAt = toolResultOf(entry)?.prunedAt;
    if (typeof prunedAt === "number") groups.set(prunedAt, [...(groups.get(prunedAt) ?? []), i]);
  });
  const times = path.map((e) => Date.parse(e.timestamp));
  const events = [...groups]
    .map(([prunedAt, indexes]) => {
      let at = Math.max(...indexes);
      for (let i = 0; i < path.length; i++) if ((times[i] as number) <= prunedAt && i > at) at = i;
      return { prunedAt, indexes, at };
    })
    .sort((a, b) => a.at - b.at || a.prunedAt - b.prunedAt);
  return events.map((event, k) => {
    const nextEvent = events[k + 1]?.at ?? path.length - 1;
    let end = path.length;
    for (let i = event.at + 1; i < path.length; i++) {
      if (path[i]?.type === "compaction" || i > nextEvent) {
        end = i;
        break;
      }
    }
    // the pruned results stand for the span through the calls that produced them
    const pruned = new Set(event.indexes.map((i) => (toolResultOf(path[i] as SessionEntry) as ToolResultMessage).toolCallId));
    const span = path.slice(0, event.at + 1).filter((e) => reader.calls(e).some((c) => pruned.has(c.call.id)));
    const onlyPruned = span.map((e) => {
      const message = assistantOf(e) as AssistantMessage;
      return { ...e, message: { ...message, content: message.content.filter((b) => b?.type !== "toolCall" || pruned.has(b.id)) } } as SessionEntry;
    });
    const findings = findingsOf({ span: onlyPruned, kept: [], after: path.slice(event.at + 1, end) }, "calls", reader);
    return {
      atEntryId: (path[event.at] as SessionEntry).id,
      prunedAt: event.prunedAt,
      prunedEntryIds: event.indexes.map((i) => (path[i] as SessionEntry).id),
      score: amnesiaScore(findings),
      findings,
    };
  });
}

/**
 * The "absent from the summary" check of a summary not yet appended (a dry run): identifiers of
 * the entries it summarizes that the kept entries (what the agent goes on with) use, and that the
 * summary does not mention. The same rule as droppedIdentifier, with the kept part as "later".
 */
export function summaryIdentifierCandidates(summarized: readonly SessionEntry[], kept: readonly SessionEntry[]): IdentifierUse[] {
  return identifiersUsedLater(summarized, kept);
}

/** The candidates a summary text does not mention. */
export function missingFromSummary(summary: string, candidates: readonly IdentifierUse[]): IdentifierUse[] {
  return candidates.filter((c) => !summaryMentions(summary, c.identifier));
}
