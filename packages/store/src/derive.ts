/**
 * Derived columns of an entry: what the tree skeleton, the session list and search need without
 * parsing the entry's JSON again (role, token estimate, preview, tool names, flags, FTS text).
 */
import { estimateTokens, fileOpCodesOf, summaryOrigin, type AgentMessage, type SessionEntry } from "@bonsai/core";

export const FLAG_PRUNED = 1;
export const FLAG_THINKING = 2;
export const FLAG_FROM_EXTENSION = 4;
export const FLAG_OFFLINE = 8;
/**
 * A `message` entry whose `message` is truthy but not an object with a text `role` (a string, an
 * array, an object without a role): readers that answer from the derived columns alone (the stored
 * context, plan, pruning and branch reads) take such an entry's JSON instead.
 */
export const FLAG_ODD_MESSAGE = 16;
/** a bashExecution / pythonExecution message with `excludeFromContext`: convertToLlm drops it */
export const FLAG_EXCLUDED = 32;
/** a branch_summary without a summary: it gives no context message (the compaction and branch variants still give one) */
export const FLAG_EMPTY_SUMMARY = 64;

export const PREVIEW_CHARS = 160;
/** Per-entry cap of the text indexed for search (the JSON itself is always kept whole). */
export const SEARCH_TEXT_CHARS = 64 * 1024;

export interface DerivedColumns {
  role: string | null;
  tokens: number;
  preview: string;
  toolName: string | null;
  customType: string | null;
  stopReason: string | null;
  refId: string | null;
  tokensBefore: number | null;
  flags: number;
  /**
   * an assistant message's file operations (core's fileOpCodesOf) as a JSON array, null when it has
   * none: a compaction plan lists its files from these, without the messages
   */
  fileOps: string | null;
  /** FTS columns */
  body: string;
  tools: string;
  paths: string;
  /** user text of a user message (the session list's "first message") */
  userText: string | null;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** Text of a string-or-blocks content (text blocks joined by a space; images as "[image]"). */
function contentText(content: unknown): string {
  return contentHead(content, Infinity);
}

/**
 * The first `max` characters (at least; the whole text when shorter) of contentText: what a preview
 * needs, without copying a whole tool output.
 */
function contentHead(content: unknown, max: number): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  let first = true;
  for (const b of content) {
    if (text.length > max) break;
    if (!isObj(b)) continue;
    let part: string;
    if (b.type === "text" && typeof b.text === "string") part = b.text;
    else if (b.type === "image") part = "[image]";
    else continue;
    text += first ? part : ` ${part}`;
    first = false;
  }
  return text;
}

/** contentText when the search text is wanted, else only as much as a preview reads. */
function contentFor(content: unknown, forSearch: boolean): string {
  return forSearch ? contentText(content) : contentHead(content, PREVIEW_CHARS * 2 + 1);
}

/** a character that is not whitespace (what `trim` keeps) */
const NOT_SPACE = /\S/;
/** whitespace that oneLine changes inside a text: any but " ", or a " " followed by more */
const FOLDED_SPACE = /[^\S ]| \s/;

/** What `\s` matches in a JavaScript regular expression (and what `trim` removes). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The text on one line: runs of whitespace become one space, the ends are trimmed, and it is cut at
 * `max` characters (with "…"). Only the start is read: never a whole tool output for a preview.
 * (The same as `text.replace(/\s+/g, " ").trim()` on the first 2 * max characters, without the
 * regular expression: this runs once per stored entry.)
 */
export function oneLine(text: string, max = PREVIEW_CHARS): string {
  // the common case, words separated by single spaces past the cut: the first max - 1 characters
  if (text.length > max + 1) {
    const head = text.slice(0, max + 1);
    if (!isSpace(head.charCodeAt(0)) && !isSpace(head.charCodeAt(max)) && !FOLDED_SPACE.test(head)) return `${head.slice(0, max - 1)}…`;
  }
  const end = Math.min(text.length, max * 2);
  let flat = "";
  let i = 0;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  let from = i; // start of the text kept as it is (a single " " between words needs no change)
  // stop once the result is longer than max: it is then cut at max - 1 whatever follows
  while (i < end && flat.length + (i - from) <= max) {
    const c = text.charCodeAt(i);
    if (!isSpace(c) || (c === 32 && i + 1 < end && !isSpace(text.charCodeAt(i + 1)))) {
      i++;
      continue;
    }
    flat += text.slice(from, i);
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i < end) flat += " ";
    from = i;
  }
  flat += text.slice(from, i < end ? i : end);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const PATH_KEYS = ["path", "file_path", "filePath", "file", "filename", "cwd", "directory"];

function collectArgPaths(args: unknown, out: Set<string>): void {
  if (!isObj(args)) return;
  for (const key of PATH_KEYS) {
    const v = args[key];
    if (typeof v === "string" && v.length > 0 && v.length < 1024) out.add(v);
  }
  const paths = args.paths;
  if (Array.isArray(paths)) for (const p of paths) if (typeof p === "string" && p.length < 1024) out.add(p);
}

function collectDetailPaths(details: unknown, out: Set<string>): void {
  if (!isObj(details)) return;
  for (const key of ["readFiles", "modifiedFiles"]) {
    const list = details[key];
    if (Array.isArray(list)) for (const p of list) if (typeof p === "string") out.add(p);
  }
}

function capped(text: string): string {
  return text.length > SEARCH_TEXT_CHARS ? text.slice(0, SEARCH_TEXT_CHARS) : text;
}

/** custom messages (entry or message role): customType, content */
function customColumns(d: DerivedColumns, source: Obj): void {
  d.customType = str(source.customType);
  const text = contentText(source.content);
  d.preview = oneLine(`[${d.customType ?? "custom"}] ${text}`);
  d.body = text;
}

function messageColumns(message: Obj, d: DerivedColumns, paths: Set<string>, forSearch: boolean): void {
  const role = str(message.role);
  d.role = role;
  if (role === null) d.flags |= FLAG_ODD_MESSAGE;
  if ((role === "bashExecution" || role === "pythonExecution") && message.excludeFromContext) d.flags |= FLAG_EXCLUDED;
  try {
    d.tokens = estimateTokens(message as unknown as AgentMessage);
  } catch {
    d.tokens = 0;
  }
  switch (role) {
    case "user": {
      const text = contentFor(message.content, forSearch);
      if (forSearch) d.userText = text;
      d.preview = oneLine(text);
      d.body = text;
      break;
    }
    case "assistant": {
      const texts: string[] = [];
      const tools: string[] = [];
      let thinking = false;
      const content = Array.isArray(message.content) ? message.content : [];
      for (const b of content) {
        if (!isObj(b)) continue;
        if (b.type === "text" && typeof b.text === "string") {
          if (forSearch) texts.push(b.text);
        } else if (b.type === "thinking" && typeof b.thinking === "string") {
          // not blank (what trim() would leave non-empty), without copying the thinking text
          if (!thinking && NOT_SPACE.test(b.thinking)) thinking = true;
          if (forSearch) texts.push(b.thinking);
        } else if (b.type === "toolCall") {
          if (typeof b.name === "string") tools.push(b.name);
          if (!forSearch) continue;
          collectArgPaths(b.arguments, paths);
          const args = isObj(b.arguments) ? b.arguments : {};
          const command = str(args.command);
          if (command) texts.push(command);
        }
      }
      if (thinking) d.flags |= FLAG_THINKING;
      if (tools.length > 0) {
        const ops = fileOpCodesOf(message as unknown as AgentMessage);
        if (ops.length > 0) d.fileOps = JSON.stringify(ops);
      }
      const stop = str(message.stopReason);
      if (stop === "error" || stop === "aborted") d.stopReason = stop;
      d.toolName = tools.length === 0 ? null : tools.length === 1 ? (tools[0] as string) : [...new Set(tools)].join(",");
      if (forSearch) d.tools = tools.join(" ");
      // the preview needs only the start of the visible text: never copy all of it
      let visible = "";
      for (const b of content) {
        if (visible.length >= PREVIEW_CHARS * 2) break;
        if (isObj(b) && b.type === "text" && typeof b.text === "string") visible += `${visible ? " " : ""}${b.text.slice(0, PREVIEW_CHARS * 2)}`;
      }
      const err = str(message.errorMessage);
      d.preview = oneLine(visible || (tools.length > 0 ? `→ ${tools.join(", ")}` : err ? `error: ${err}` : `(${stop ?? "empty"})`));
      if (forSearch) d.body = [...texts, err ?? ""].join("\n");
      break;
    }
    case "toolResult": {
      const name = str(message.toolName);
      d.toolName = name;
      d.tools = name ?? "";
      if (message.prunedAt !== undefined) d.flags |= FLAG_PRUNED;
      const text = contentFor(message.content, forSearch);
      d.preview = oneLine(`${name ?? "tool"}: ${text.slice(0, PREVIEW_CHARS * 2)}`);
      d.body = text;
      break;
    }
    case "bashExecution":
    case "pythonExecution": {
      const code = str(message.command) ?? str(message.code) ?? "";
      const output = str(message.output) ?? "";
      d.preview = oneLine(`${role === "bashExecution" ? "$" : ">>>"} ${code}`);
      d.body = `${code}\n${output}`;
      break;
    }
    case "fileMention": {
      const files = Array.isArray(message.files) ? message.files.filter(isObj) : [];
      for (const f of files) if (typeof f.path === "string") paths.add(f.path);
      d.preview = oneLine(`@ ${files.map((f) => str(f.path) ?? "?").join(", ")}`);
      if (forSearch) d.body = files.map((f) => str(f.content) ?? "").join("\n");
      break;
    }
    case "custom":
    case "hookMessage":
      customColumns(d, message);
      break;
    default: {
      const text = contentText(message.content);
      d.preview = oneLine(text || `(${role ?? "message"})`);
      d.body = text;
    }
  }
}

/** a compaction or branch summary entry (`title` starts its preview) */
function summaryColumns(e: Obj, d: DerivedColumns, paths: Set<string>, title: string): void {
  const summary = str(e.summary) ?? "";
  d.tokens = Math.ceil(summary.length / 4);
  d.body = summary;
  collectDetailPaths(e.details, paths);
  const origin = summaryOrigin(e);
  if (origin === "hook") d.flags |= FLAG_FROM_EXTENSION;
  if (origin === "offline") d.flags |= FLAG_OFFLINE;
  d.preview = oneLine(`${title}: ${str(e.shortSummary) ?? summary}`);
}

/** where deriveColumns without `forSearch` collects paths nobody reads */
const UNUSED_PATHS = new Set<string>();

/**
 * Derived columns of one entry (never throws: unexpected shapes give empty columns). With
 * `forSearch` false (what an import stores) the search columns (body, tools, paths) may be left incomplete.
 */
export function deriveColumns(entry: SessionEntry, forSearch = true): DerivedColumns {
  const e = entry as unknown as Obj;
  const d: DerivedColumns = {
    role: null,
    tokens: 0,
    preview: "",
    toolName: null,
    customType: null,
    stopReason: null,
    refId: null,
    tokensBefore: null,
    flags: 0,
    fileOps: null,
    body: "",
    tools: "",
    paths: "",
    userText: null,
  };
  // the paths go to the search columns only: an import's entries share one set, emptied each time
  const paths = forSearch ? new Set<string>() : UNUSED_PATHS;
  paths.clear();
  switch (e.type) {
    case "message":
      if (isObj(e.message)) messageColumns(e.message, d, paths, forSearch);
      else {
        if (e.message) d.flags |= FLAG_ODD_MESSAGE;
        d.preview = "(message without payload)";
      }
      break;
    case "compaction":
      summaryColumns(e, d, paths, "Compaction");
      d.refId = str(e.firstKeptEntryId);
      d.tokensBefore = typeof e.tokensBefore === "number" ? e.tokensBefore : null;
      break;
    case "branch_summary":
      summaryColumns(e, d, paths, "Branch summary");
      d.refId = str(e.fromId);
      if (!e.summary) d.flags |= FLAG_EMPTY_SUMMARY;
      break;
    case "custom_message":
      customColumns(d, e);
      break;
    case "custom":
      d.customType = str(e.customType);
      d.preview = oneLine(`[${d.customType ?? "custom"}]`);
      break;
    case "label":
      d.preview = oneLine(`label ${str(e.targetId) ?? "?"}: ${str(e.label) ?? "(cleared)"}`);
      d.body = str(e.label) ?? "";
      break;
    case "model_change":
      d.preview = oneLine(`model: ${str(e.model) ?? [str(e.provider), str(e.modelId)].filter(Boolean).join("/")}${e.role ? ` (${String(e.role)})` : ""}`);
      break;
    case "thinking_level_change":
      d.preview = oneLine(`thinking: ${String(e.thinkingLevel)}`);
      break;
    case "mode_change":
      d.preview = oneLine(`mode: ${String(e.mode)}`);
      break;
    case "session_info":
      d.preview = oneLine(`name: ${str(e.name) ?? ""}`);
      break;
    case "session_init":
      d.preview = oneLine(`task: ${str(e.task) ?? ""}`);
      d.body = `${str(e.task) ?? ""}`;
      break;
    case "agent_event": {
      // a Claude Code / Codex line that is not conversation (formats' AgentEventEntry): the node is
      // titled by the agent's own name of the line's kind, previewed and searched by its text
      d.customType = str(e.event);
      const text = str(e.text) ?? "";
      d.preview = oneLine(text || (d.customType ?? "agent event"));
      d.body = text;
      break;
    }
    case "ttsr_injection":
      d.preview = oneLine(`rules: ${Array.isArray(e.injectedRules) ? e.injectedRules.join(", ") : ""}`);
      break;
    default:
      d.preview = oneLine(String(e.type));
  }
  if (forSearch) {
    d.body = capped(d.body);
    d.paths = [...paths].join("\n");
  }
  return d;
}
