/**
 * "Continue in pi": any session read by a reader -> a pi v3 session of one path (root -> leaf) that
 * pi opens and resumes. Pure: the caller gives the new session's id and time.
 *
 * - Claude Code writes one API response as several lines (one per content block) and Codex one
 *   reply as several items: the assistant entries of one response (same responseId, or adjacent
 *   ones without one) become one pi assistant message, followed by its tool results in call order.
 * - Each compaction becomes a pi `compaction` entry with the agent's own summary (Codex remote
 *   compactions: the summary is encrypted; the entry says so) and tokensBefore; for Codex the
 *   replacement history follows it as messages, so pi's context after it is Codex's.
 * - Model and thinking level are carried over as model_change / thinking_level_change entries where
 *   they change; the source's title as a session_info name.
 * - Not carried over: metadata lines, Codex developer instructions (Codex's own sandbox and tool
 *   rules), and tool results whose call is not on the path (a file that starts mid-session): the
 *   result reports how many of each were left out.
 * - pi / oh-my-pi sessions: the path's entries as they are, under a new header.
 */
import {
  buildIndex,
  getPath,
  serializeSession,
  type AssistantContentBlock,
  type AssistantMessage,
  type CompactionEntry,
  type MessageEntry,
  type SessionEntry,
  type SessionHeader,
  type StopReason,
  type ToolResultMessage,
  type Usage,
} from "@bonsai/core";
import type { ReadSession } from "./types";

export interface PiExportOptions {
  /** the new session's id (pi writes a uuid) */
  sessionId: string;
  /** the new session's creation time (ISO) */
  now: string;
  /** the leaf whose path is written (default: the session's leaf) */
  leafId?: string | null;
  /** pi's lineage pointer: where the copy came from (e.g. the source file's path) */
  parentSession?: string;
}

export interface PiExport {
  header: SessionHeader;
  entries: SessionEntry[];
  /** the JSONL text (header line, one line per entry) */
  text: string;
  /** what was left out, by kind */
  omitted: { developerMessages: number; orphanToolResults: number; metadata: number };
}

/** pi requires a cost; the agents record none. */
const ZERO_COST = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };

/** Deterministic 8-hex ids (pi's id shape) derived from the source ids. */
class IdMaker {
  readonly #taken = new Set<string>();

  make(seed: string): string {
    let h = 0x811c9dc5;
    for (let i = 0; i < seed.length; i++) {
      h ^= seed.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    let id = h.toString(16).padStart(8, "0");
    while (this.#taken.has(id)) {
      h = (h + 1) >>> 0;
      id = h.toString(16).padStart(8, "0");
    }
    this.#taken.add(id);
    return id;
  }
}

interface OpenResponse {
  responseId: string | undefined;
  parts: AssistantMessage[];
  /** source entry of the first part (id seed, timestamp) */
  first: SessionEntry;
  results: ToolResultMessage[];
  resultEntries: SessionEntry[];
}

function piUsage(usage: Usage | undefined): Usage {
  const u = usage ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const input = u.input ?? 0;
  const output = u.output ?? 0;
  const cacheRead = u.cacheRead ?? 0;
  const cacheWrite = u.cacheWrite ?? 0;
  return { ...u, input, output, cacheRead, cacheWrite, totalTokens: u.totalTokens ?? input + output + cacheRead + cacheWrite, cost: u.cost ?? ZERO_COST };
}

/** The parts of one response as one pi assistant message. */
function mergeParts(parts: readonly AssistantMessage[]): AssistantMessage {
  const first = parts[0] as AssistantMessage;
  const content: AssistantContentBlock[] = parts.flatMap((p) => (Array.isArray(p.content) ? p.content : []));
  const withUsage = [...parts].reverse().find((p) => p.usage !== undefined);
  const error = parts.find((p) => p.stopReason === "error" || p.stopReason === "aborted");
  const last = parts[parts.length - 1] as AssistantMessage;
  const stopReason: StopReason = error ? error.stopReason : content.some((b) => b.type === "toolCall") ? "toolUse" : last.stopReason === "length" ? "length" : "stop";
  const model = [...parts].reverse().find((p) => p.model && p.model !== "<synthetic>")?.model ?? first.model;
  const message: AssistantMessage = { role: "assistant", content, api: first.api, provider: first.provider, model, usage: piUsage(withUsage?.usage), stopReason, timestamp: first.timestamp };
  if (typeof first.responseId === "string") message.responseId = first.responseId;
  if (error?.errorMessage !== undefined) message.errorMessage = error.errorMessage;
  return message;
}

class PiWriter {
  readonly entries: SessionEntry[] = [];
  readonly omitted = { developerMessages: 0, orphanToolResults: 0, metadata: 0 };
  readonly #ids = new IdMaker();
  #parentId: string | null = null;
  #open: OpenResponse | null = null;
  #model: string | undefined;
  #thinking: string | undefined;
  /** tool calls written so far (a result without its call is left out) */
  readonly #calls = new Set<string>();

  append(fields: Record<string, unknown> & { type: string }, seed: string, timestamp: string): SessionEntry {
    const { type, ...rest } = fields;
    const entry = { type, id: this.#ids.make(seed), parentId: this.#parentId, timestamp, ...rest } as unknown as SessionEntry;
    this.entries.push(entry);
    this.#parentId = entry.id;
    return entry;
  }

  thinking(level: string, seed: string, timestamp: string): void {
    if (level === this.#thinking) return;
    this.flush();
    this.#thinking = level;
    this.append({ type: "thinking_level_change", thinkingLevel: level }, `${seed}:thinking`, timestamp);
  }

  message(entry: MessageEntry): void {
    const m = entry.message;
    switch (m.role) {
      case "user":
        this.flush();
        this.append({ type: "message", message: { role: "user", content: m.content, timestamp: m.timestamp } }, entry.id, entry.timestamp);
        return;
      case "assistant": {
        const responseId = typeof m.responseId === "string" ? m.responseId : undefined;
        const open = this.#open;
        const sameResponse = open !== null && (responseId !== undefined ? open.responseId === responseId : open.responseId === undefined && open.results.length === 0);
        if (!sameResponse) {
          this.flush();
          this.#open = { responseId, parts: [m], first: entry, results: [], resultEntries: [] };
        } else open.parts.push(m);
        return;
      }
      case "toolResult": {
        const open = this.#open;
        const called = open?.parts.some((p) => p.content.some((b) => b.type === "toolCall" && b.id === m.toolCallId));
        if (open && called) {
          open.results.push(m);
          open.resultEntries.push(entry);
        } else if (this.#calls.has(m.toolCallId)) {
          this.flush();
          this.append({ type: "message", message: toolResult(m) }, entry.id, entry.timestamp);
        } else this.omitted.orphanToolResults++;
        return;
      }
      case "custom":
        this.omitted.developerMessages++;
        return;
      default:
        this.omitted.metadata++;
    }
  }

  /** Writes the open response: model change if needed, the merged message, its results in call order. */
  flush(): void {
    const open = this.#open;
    if (!open) return;
    this.#open = null;
    const message = mergeParts(open.parts);
    const model = `${message.provider}/${message.model}`;
    if (message.model !== "" && message.model !== "<synthetic>" && model !== this.#model) {
      this.#model = model;
      this.append({ type: "model_change", provider: message.provider, modelId: message.model }, `${open.first.id}:model`, open.first.timestamp);
    }
    this.append({ type: "message", message }, open.first.id, open.first.timestamp);
    const order = message.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : []));
    for (const id of order) this.#calls.add(id);
    const results = open.results.map((r, i) => ({ r, e: open.resultEntries[i] as SessionEntry })).sort((a, b) => order.indexOf(a.r.toolCallId) - order.indexOf(b.r.toolCallId));
    for (const { r, e } of results) this.append({ type: "message", message: toolResult(r) }, e.id, e.timestamp);
  }
}

function toolResult(m: ToolResultMessage): ToolResultMessage {
  const out: ToolResultMessage = { role: "toolResult", toolCallId: m.toolCallId, toolName: m.toolName, content: m.content, isError: m.isError, timestamp: m.timestamp };
  if (m.prunedAt !== undefined) out.prunedAt = m.prunedAt;
  return out;
}

function newHeader(session: ReadSession, options: PiExportOptions): SessionHeader {
  const header: SessionHeader = { type: "session", version: 3, id: options.sessionId, timestamp: options.now, cwd: session.header.cwd };
  if (options.parentSession !== undefined) header.parentSession = options.parentSession;
  return header;
}

/** pi / omp sources: the path's entries as written. */
function piPath(path: readonly SessionEntry[]): SessionEntry[] {
  return path.map((e, i) => (i === 0 ? { ...e, parentId: null } : e));
}

function foreignPath(session: ReadSession, path: readonly SessionEntry[]): { entries: SessionEntry[]; omitted: PiExport["omitted"] } {
  const writer = new PiWriter();
  if (session.title) writer.append({ type: "session_info", name: session.title }, "title", path[0]?.timestamp ?? session.header.timestamp);
  for (const entry of path) {
    const e = entry as SessionEntry & Record<string, unknown>;
    if (typeof e.thinkingLevel === "string") writer.thinking(e.thinkingLevel, e.id, e.timestamp);
    switch (e.type) {
      case "message":
        writer.message(e as MessageEntry);
        break;
      case "compaction": {
        writer.flush();
        const c = e as CompactionEntry;
        writer.append({ type: "compaction", summary: c.summary, firstKeptEntryId: "", tokensBefore: c.tokensBefore, ...(c.details !== undefined ? { details: c.details } : {}) }, c.id, c.timestamp);
        break;
      }
      case "thinking_level_change":
        break; // handled above
      default:
        writer.omitted.metadata++;
    }
  }
  writer.flush();
  // nothing before a foreign compaction is kept: firstKeptEntryId names the entry after it
  const entries = writer.entries;
  entries.forEach((entry, i) => {
    if (entry.type === "compaction") (entry as CompactionEntry).firstKeptEntryId = entries[i + 1]?.id ?? entry.id;
  });
  return { entries, omitted: writer.omitted };
}

/** The pi session of the path to `leafId` (see the module comment). */
export function toPiSession(session: ReadSession, options: PiExportOptions): PiExport {
  const index = buildIndex(session.entries);
  const leafId = options.leafId === undefined ? session.leafId : options.leafId;
  const path = getPath(index, leafId);
  const header = newHeader(session, options);
  const { entries, omitted } = session.format === "pi" ? { entries: piPath(path), omitted: { developerMessages: 0, orphanToolResults: 0, metadata: 0 } } : foreignPath(session, path);
  return { header, entries, text: serializeSession(header, entries), omitted };
}
