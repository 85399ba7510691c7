/**
 * Claude Code message lines -> Bonsai agent messages (pi's shapes): `user` lines become user
 * messages or tool results, `assistant` lines assistant messages (one per line: Claude Code writes
 * one API response as several lines, one per content block, sharing `message.id`).
 */
import type {
  AssistantContentBlock,
  AssistantMessage,
  StopReason,
  ToolResultMessage,
  Usage,
  UserContentBlock,
  UserMessage,
} from "@bonsai/core";
import { isObj, millis, num, objs, str, type Obj } from "../values";

export const CLAUDE_API = "anthropic-messages";
export const CLAUDE_PROVIDER = "anthropic";
/** The text Claude Code puts in place of a tool output cleared by microcompaction. */
export const CLEARED_TOOL_OUTPUT = "[Old tool result content cleared]";

function imageBlock(b: Obj): UserContentBlock | undefined {
  const source = isObj(b.source) ? b.source : undefined;
  const data = str(source?.data);
  if (source?.type !== "base64" || data === undefined) return undefined;
  return { type: "image", data, mimeType: str(source.media_type) ?? "image/png" };
}

/** Text and image blocks of a content value (a string is one text block). */
export function userBlocks(content: unknown): UserContentBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  const out: UserContentBlock[] = [];
  for (const b of objs(content)) {
    if (b.type === "text" && typeof b.text === "string") out.push({ type: "text", text: b.text });
    else if (b.type === "image") {
      const image = imageBlock(b);
      if (image) out.push(image);
    }
  }
  return out;
}

/** The plain text of a content value (text blocks joined by blank lines). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return objs(content)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n\n");
}

/** The tool_result blocks of a user line's content. */
export function toolResultBlocks(content: unknown): Obj[] {
  return objs(content).filter((b) => b.type === "tool_result");
}

export function userMessage(line: Obj, content: unknown, timestamp: string): UserMessage {
  const message: UserMessage = { role: "user", content: typeof content === "string" ? content : userBlocks(content), timestamp: millis(timestamp) };
  if (line.isMeta === true) message.synthetic = true;
  return message;
}

export function toolResultMessage(block: Obj, toolName: string, timestamp: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: str(block.tool_use_id) ?? "",
    toolName,
    content: userBlocks(block.content),
    isError: block.is_error === true,
    timestamp: millis(timestamp),
  };
}

export function claudeUsage(raw: unknown): Usage {
  const u = isObj(raw) ? raw : {};
  const input = num(u.input_tokens) ?? 0;
  const output = num(u.output_tokens) ?? 0;
  const cacheRead = num(u.cache_read_input_tokens) ?? 0;
  const cacheWrite = num(u.cache_creation_input_tokens) ?? 0;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

function stopReason(raw: unknown, content: readonly AssistantContentBlock[], error: boolean): StopReason {
  if (error) return "error";
  switch (raw) {
    case "tool_use":
      return "toolUse";
    case "max_tokens":
      return "length";
    case "end_turn":
    case "stop_sequence":
      return "stop";
    default:
      // a line in the middle of a split response has no stop reason yet
      return content.some((b) => b.type === "toolCall") ? "toolUse" : "stop";
  }
}

function assistantBlocks(content: unknown): AssistantContentBlock[] {
  const out: AssistantContentBlock[] = [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  for (const b of objs(content)) {
    switch (b.type) {
      case "text":
        out.push({ type: "text", text: str(b.text) ?? "" });
        break;
      case "thinking": {
        const signature = str(b.signature);
        out.push({ type: "thinking", thinking: str(b.thinking) ?? "", ...(signature !== undefined ? { thinkingSignature: signature } : {}) });
        break;
      }
      case "redacted_thinking":
        out.push({ type: "thinking", thinking: "", thinkingSignature: str(b.data) ?? "", redacted: true } as AssistantContentBlock);
        break;
      case "tool_use":
        out.push({ type: "toolCall", id: str(b.id) ?? "", name: str(b.name) ?? "", arguments: isObj(b.input) ? b.input : {} });
        break;
      // server tool blocks (web search, ...) have no pi shape: they stay in the line only
    }
  }
  return out;
}

/** The model Claude Code names on a reply it wrote itself, without calling one ("You've hit your limit", "No response requested."). */
const SYNTHETIC_MODEL = "<synthetic>";

export function assistantMessage(line: Obj, timestamp: string): AssistantMessage {
  const m = isObj(line.message) ? line.message : {};
  const content = assistantBlocks(m.content);
  const error = line.isApiErrorMessage === true;
  const model = str(m.model) ?? "";
  const message = {
    role: "assistant",
    content,
    api: CLAUDE_API,
    provider: CLAUDE_PROVIDER,
    model,
    // a usage only where a model reported one: a synthetic reply's zeros measure no context
    ...(model !== SYNTHETIC_MODEL && isObj(m.usage) ? { usage: claudeUsage(m.usage) } : {}),
    stopReason: stopReason(m.stop_reason, content, error),
    timestamp: millis(timestamp),
  } as AssistantMessage;
  const id = str(m.id);
  if (id !== undefined) message.responseId = id;
  if (error) message.errorMessage = contentText(m.content);
  return message;
}
