/**
 * The transcript of the active path: messages with Markdown, thinking and tool calls collapsible,
 * tool results collapsible under their call, compactions and branch summaries marked, entries a
 * compaction summarized dimmed, metadata lines grouped and folded.
 */
import { summaryOrigin, summaryOriginLabel, type CompactionEntry, type SessionEntry } from "@bonsai/core";
import { agentEventOf } from "../entries";
import { isObj, objs, str, type Obj } from "../values";
import { capText, countHtml, escapeHtml } from "./escape";
import { kindOf, titleOf } from "./labels";
import { renderMarkdown } from "../markdown";

/** The longest text shown for one block (the rest is counted). */
const MAX_BLOCK = 100_000;

function time(iso: string): string {
  return iso ? `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace("T", " ").replace(/\.\d+Z$/, "Z"))}</time>` : "";
}

function image(b: Obj): string {
  const data = str(b.data) ?? "";
  const mime = str(b.mimeType) ?? "";
  if (/^image\/[\w.+-]+$/.test(mime) && /^[A-Za-z0-9+/=\s]+$/.test(data)) return `<img alt="image" src="data:${mime};base64,${data.replace(/\s+/g, "")}">`;
  return `<span class="muted">[image${mime ? ` ${escapeHtml(mime)}` : ""}]</span>`;
}

function md(text: string): string {
  return `<div class="md">${renderMarkdown(capText(text, MAX_BLOCK))}</div>`;
}

function pre(text: string): string {
  return `<pre>${escapeHtml(capText(text, MAX_BLOCK))}</pre>`;
}

function contentHtml(content: unknown): string {
  if (typeof content === "string") return md(content);
  return objs(content)
    .map((b) => (b.type === "text" ? md(str(b.text) ?? "") : b.type === "image" ? image(b) : ""))
    .join("");
}

function plainText(content: unknown): string {
  if (typeof content === "string") return content;
  return objs(content)
    .map((b) => (b.type === "text" ? (str(b.text) ?? "") : b.type === "image" ? "[image]" : ""))
    .join("\n");
}

/** A summary's code preview (nothing when empty). */
function codeSpan(text: string): string {
  return text.trim() === "" ? "" : ` <code>${escapeHtml(text)}</code>`;
}

function argsPreview(args: unknown): string {
  if (!isObj(args)) return "";
  const first = str(args.command) ?? str(args.cmd) ?? str(args.file_path) ?? str(args.path) ?? str(args.pattern) ?? str(args.description) ?? str(args.input) ?? "";
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

function assistantHtml(m: Obj): string {
  const parts: string[] = [];
  for (const b of objs(m.content)) {
    if (b.type === "text") parts.push(md(str(b.text) ?? ""));
    else if (b.type === "thinking") {
      const thinking = str(b.thinking) ?? "";
      parts.push(`<details class="thinking"><summary>Thinking${thinking.trim() === "" ? " (not readable: kept encrypted)" : ""}</summary>${thinking.trim() === "" ? "" : md(thinking)}</details>`);
    } else if (b.type === "toolCall") {
      parts.push(`<details class="tool call"><summary>→ <b>${escapeHtml(str(b.name) ?? "tool")}</b>${codeSpan(argsPreview(b.arguments))}</summary>${pre(JSON.stringify(b.arguments ?? {}, null, 2))}</details>`);
    }
  }
  const error = str(m.errorMessage);
  if (error) parts.push(`<p class="error">${escapeHtml(error)}</p>`);
  return parts.join("");
}

function toolResultHtml(m: Obj): string {
  const text = plainText(m.content);
  const firstLine = text.split("\n", 1)[0] ?? "";
  const images = objs(m.content).filter((b) => b.type === "image").map(image).join("");
  const pruned = m.prunedAt !== undefined ? ' <span class="badge">pruned</span>' : "";
  const error = m.isError === true ? ' <span class="badge error">error</span>' : "";
  return `<details class="tool result"><summary>Result · <b>${escapeHtml(str(m.toolName) || "tool")}</b>${pruned}${error}${codeSpan(firstLine.slice(0, 100))}</summary>${pre(text)}${images}</details>`;
}

function usageLine(m: Obj): string {
  const u = isObj(m.usage) ? m.usage : undefined;
  if (!u) return "";
  const n = (k: string): number => (typeof u[k] === "number" ? (u[k] as number) : 0);
  return `<span class="usage">${n("input").toLocaleString("en")} in · ${n("cacheRead").toLocaleString("en")} cached · ${n("output").toLocaleString("en")} out</span>`;
}

function entryBody(entry: SessionEntry): string {
  const e = entry as unknown as Obj;
  const m = isObj(e.message) ? e.message : {};
  switch (kindOf(entry)) {
    case "user":
      return contentHtml(m.content);
    case "assistant":
      return assistantHtml(m);
    case "toolResult":
      return toolResultHtml(m);
    case "compaction":
    case "branchSummary":
      return md(str(e.summary) ?? "");
    case "custom": {
      // instructions injected by the agent (Codex developer messages, extension messages): folded
      const content = m.content ?? e.content;
      const first = plainText(content).trim().split("\n", 1)[0] ?? "";
      return `<details class="custom"><summary>${escapeHtml(first.slice(0, 120))}</summary>${contentHtml(content)}</details>`;
    }
    default:
      return "";
  }
}

function metaLine(entry: SessionEntry): string {
  const event = agentEventOf(entry);
  const e = entry as unknown as Obj;
  const text = event ? event.text : e.type === "thinking_level_change" ? `thinking: ${String(e.thinkingLevel)}` : e.type === "model_change" ? `model: ${str(e.model) ?? [str(e.provider), str(e.modelId)].filter(Boolean).join("/")}` : String(e.type);
  return `<li>${time(entry.timestamp)} <b>${escapeHtml(titleOf(entry))}</b> ${escapeHtml(text)}</li>`;
}

/**
 * @param anchors entry id -> anchor (the transcript block's element id)
 */
export function renderTranscript(path: readonly SessionEntry[], anchors: ReadonlyMap<string, string>): string {
  const lastCompaction = [...path].reverse().find((e): e is CompactionEntry => e.type === "compaction");
  const compactionIndex = lastCompaction ? path.indexOf(lastCompaction) : -1;
  const keptFrom = lastCompaction?.firstKeptEntryId !== undefined ? path.findIndex((e) => e.id === lastCompaction.firstKeptEntryId) : -1;
  const out: string[] = [];
  let meta: string[] = [];
  const flushMeta = (): void => {
    if (meta.length === 0) return;
    out.push(`<details class="meta"><summary>${meta.length} metadata ${meta.length === 1 ? "line" : "lines"}</summary><ul>${meta.join("")}</ul></details>`);
    meta = [];
  };
  path.forEach((entry, i) => {
    const kind = kindOf(entry);
    const anchor = anchors.get(entry.id) as string;
    if (kind === "meta") {
      meta.push(metaLine(entry).replace("<li>", `<li id="${anchor}">`));
      return;
    }
    flushMeta();
    const summarized = i < compactionIndex && (keptFrom < 0 || i < keptFrom);
    const e = entry as unknown as Obj;
    const m = isObj(e.message) ? e.message : {};
    const model = kind === "assistant" && str(m.model) ? ` <span class="muted">${escapeHtml(str(m.model) as string)}</span>` : "";
    const badge = kind === "compaction" ? ` <span class="badge">${countHtml((entry as CompactionEntry).tokensBefore)} tokens before</span>` : "";
    const classes = `entry ${kind}${summarized ? " summarized" : ""}`;
    // a summary Bonsai's offline summarizer or a hook wrote says so (as the inspector's "written by")
    const origin = (kind === "compaction" || kind === "branchSummary") && summaryOrigin(entry) !== "model" ? ` <span class="badge" title="written by ${escapeHtml(summaryOriginLabel(summaryOrigin(entry)))}">${summaryOrigin(entry) === "offline" ? "offline summary" : "by a hook"}</span>` : "";
    out.push(
      `<section class="${classes}" id="${anchor}"><header><span class="who">${escapeHtml(titleOf(entry))}</span>${model}${badge}${origin}${kind === "assistant" ? usageLine(m) : ""}${time(entry.timestamp)}</header>${entryBody(entry)}</section>`,
    );
    if (entry === lastCompaction) out.push(`<p class="boundary">The model sees the summary above${keptFrom >= 0 ? ", the entries it kept" : ""} and what follows; the dimmed entries before it were summarized.</p>`);
  });
  flushMeta();
  return out.join("");
}
