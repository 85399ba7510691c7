/**
 * The readable text of an entry of any format (what a search looks in and what a transcript
 * shows), and a small in-memory search over a session's entries with the store's query syntax:
 * every word must match (word* matches a prefix), "a phrase" matches in order, case ignored.
 */
import type { SessionEntry } from "@bonsai/core";
import { agentEventOf } from "./entries";
import { isSubstringTerm } from "./scripts";
import { isObj, objs, oneLine, str, type Obj } from "./values";

function blocksText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const b of objs(content)) {
    if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b.type === "thinking" && typeof b.thinking === "string") parts.push(b.thinking);
    else if (b.type === "toolCall") parts.push(`${str(b.name) ?? ""} ${JSON.stringify(b.arguments ?? {})}`);
    else if (b.type === "image") parts.push("[image]");
  }
  return parts.join("\n");
}

function messageText(m: Obj): string {
  switch (m.role) {
    case "toolResult":
      return `${str(m.toolName) ?? ""}\n${blocksText(m.content)}`;
    case "bashExecution":
      return `${str(m.command) ?? ""}\n${str(m.output) ?? ""}`;
    case "pythonExecution":
      return `${str(m.code) ?? ""}\n${str(m.output) ?? ""}`;
    case "assistant":
      return [blocksText(m.content), str(m.errorMessage) ?? ""].filter(Boolean).join("\n");
    default:
      return blocksText(m.content);
  }
}

/** Everything readable in an entry, as plain text. */
export function entryText(entry: SessionEntry): string {
  const e = entry as unknown as Obj;
  const event = agentEventOf(entry);
  if (event) return event.text;
  switch (e.type) {
    case "message":
      return isObj(e.message) ? messageText(e.message) : "";
    case "compaction":
    case "branch_summary":
      return str(e.summary) ?? "";
    case "custom_message":
      return blocksText(e.content);
    case "label":
      return str(e.label) ?? "";
    case "model_change":
      return str(e.model) ?? [str(e.provider), str(e.modelId)].filter(Boolean).join("/");
    case "thinking_level_change":
      return str(e.thinkingLevel) ?? "";
    case "session_info":
      return str(e.name) ?? "";
    default:
      return "";
  }
}

export interface EntryHit {
  entryId: string;
  type: string;
  role: string | null;
  snippet: string;
}

type Term = { phrase: string } | { word: string; prefix: boolean };

function terms(query: string): Term[] {
  const out: Term[] = [];
  for (const m of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (m[1] !== undefined) {
      const phrase = m[1].trim().replace(/\s+/g, " ").toLowerCase();
      if (phrase) out.push({ phrase });
    } else if (m[2] !== undefined) {
      const prefix = m[2].endsWith("*");
      const word = (prefix ? m[2].slice(0, -1) : m[2]).toLowerCase();
      if (word) out.push({ word, prefix });
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function matcher(term: Term): RegExp {
  if ("phrase" in term) return new RegExp(term.phrase.split(" ").map(escapeRegExp).join("\\s+"), "iu");
  // Chinese, Japanese, Thai, ...: the word is found inside a sentence
  if (isSubstringTerm(term.word)) return new RegExp(escapeRegExp(term.word), "iu");
  const edge = "[\\p{L}\\p{N}_]";
  return new RegExp(`(?<!${edge})${escapeRegExp(term.word)}${term.prefix ? "" : `(?!${edge})`}`, "iu");
}

/** Entries whose text matches every term of the query, in file order, at most `limit`. */
export function searchEntries(entries: readonly SessionEntry[], query: string, limit = 50): EntryHit[] {
  const matchers = terms(query).map(matcher);
  if (matchers.length === 0) return [];
  const hits: EntryHit[] = [];
  for (const entry of entries) {
    if (hits.length >= limit) break;
    const text = entryText(entry);
    if (!matchers.every((m) => m.test(text))) continue;
    const at = (matchers[0] as RegExp).exec(text)?.index ?? 0;
    const start = Math.max(0, at - 60);
    const message = (entry as { message?: { role?: unknown } }).message;
    hits.push({
      entryId: entry.id,
      type: entry.type,
      role: typeof message?.role === "string" ? message.role : null,
      snippet: `${start > 0 ? "…" : ""}${oneLine(text.slice(start, at + 100), 160)}`,
    });
  }
  return hits;
}
