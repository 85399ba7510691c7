/**
 * The Markdown export: the active path of a session as Markdown (for reading and sharing, not for
 * resuming), beside the HTML page (html/page.ts) and the pi export (to-pi.ts).
 */
import { firstRealPrompt, sessionTitle, summaryOrigin, summaryOriginLabel, type SessionEntry, type SessionHeader } from "@bonsai/core";
import { mdCode, mdText } from "./markdown-inline";
import { leafContextLine } from "./context-line";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function fence(text: string, lang = ""): string {
  let ticks = "```";
  while (text.includes(ticks)) ticks += "`";
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function blocksText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => (isObj(b) && b.type === "text" && typeof b.text === "string" ? b.text : isObj(b) && b.type === "image" ? "*[image]*" : ""))
    .filter((t) => t !== "")
    .join("\n\n");
}

function messageMarkdown(m: Obj): string {
  switch (m.role) {
    case "user":
      return `## User\n\n${blocksText(m.content)}`;
    case "assistant": {
      const parts: string[] = [];
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (!isObj(b)) continue;
        if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
        else if (b.type === "thinking" && typeof b.thinking === "string" && b.thinking.trim())
          parts.push(`<details><summary>Thinking</summary>\n\n${b.thinking}\n\n</details>`);
        else if (b.type === "toolCall") parts.push(`**Tool call** ${mdCode(b.name)}\n\n${fence(JSON.stringify(b.arguments ?? {}, null, 2), "json")}`);
      }
      if (typeof m.errorMessage === "string") parts.push(`*Error: ${mdText(m.errorMessage)}*`);
      const model = typeof m.model === "string" ? ` (${mdText(`${String(m.provider ?? "")}/${m.model}`)})` : "";
      return `## Assistant${model}\n\n${parts.join("\n\n")}`;
    }
    case "toolResult": {
      const pruned = m.prunedAt !== undefined ? " (pruned)" : "";
      const err = m.isError === true ? " (error)" : "";
      return `### Tool result: ${mdCode(m.toolName)}${pruned}${err}\n\n${fence(blocksText(m.content))}`;
    }
    case "bashExecution":
      return `## Shell\n\n${fence(`$ ${String(m.command)}\n${String(m.output ?? "")}`, "console")}`;
    case "pythonExecution":
      return `## Python\n\n${fence(`${String(m.code)}\n# output:\n${String(m.output ?? "")}`, "python")}`;
    case "fileMention":
      return `## Files mentioned\n\n${(Array.isArray(m.files) ? m.files : []).map((f) => `- ${isObj(f) ? mdCode(f.path) : "?"}`).join("\n")}`;
    default:
      return `## ${mdText(m.role)}${typeof m.customType === "string" ? ` (${mdText(m.customType)})` : ""}\n\n${blocksText(m.content)}`;
  }
}

function entryMarkdown(e: SessionEntry): string | null {
  const x = e as unknown as Obj;
  switch (e.type) {
    case "message":
      return isObj(x.message) ? messageMarkdown(x.message) : null;
    case "compaction":
      // Claude Code and Codex compactions keep nothing before them (no firstKeptEntryId)
      return `## Compaction summary\n\n*${mdText(x.tokensBefore ?? "?")} tokens before${typeof x.firstKeptEntryId === "string" && x.firstKeptEntryId !== "" ? `; kept from entry ${mdText(x.firstKeptEntryId)}` : ""}*\n\n${String(x.summary ?? "")}`;
    case "branch_summary":
      return `## Branch summary\n\n${String(x.summary ?? "")}`;
    case "custom_message":
      return `## ${mdText(x.customType ?? "custom")}\n\n${blocksText(x.content)}`;
    case "model_change":
      return `*Model: ${mdText(x.model ?? `${String(x.provider ?? "")}/${String(x.modelId ?? "")}`)}*`;
    case "thinking_level_change":
      return `*Thinking level: ${mdText(x.thinkingLevel)}*`;
    default:
      return null;
  }
}

/** The session titled by core's title rule (`title`, else the path's first real prompt, else its id), its header facts, then each entry of `path` that shows in a transcript. */
export function renderSessionMarkdown(header: SessionHeader, title: string | null, path: readonly SessionEntry[]): string {
  const out: string[] = [`# ${mdText(sessionTitle({ name: title, firstPrompt: firstRealPrompt(path) }) ?? `Session ${header.id}`)}`, ""];
  out.push(`- Session: ${mdCode(header.id)}`, `- Started: ${mdText(header.timestamp)}`, `- Folder: ${mdCode(header.cwd)}`, `- Entries on this path: ${path.length}`, `- ${leafContextLine(path)}`, "");
  for (const e of path) {
    const md = entryMarkdown(e);
    if (md !== null) out.push(md, "");
    if (md !== null && (e.type === "compaction" || e.type === "branch_summary") && summaryOrigin(e) !== "model") out.push(`*Written by ${summaryOriginLabel(summaryOrigin(e))}.*`, "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
