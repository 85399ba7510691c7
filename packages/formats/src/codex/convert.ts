/**
 * Codex response items -> Bonsai agent messages (pi's shapes). A model reply is written as several
 * items (reasoning, message, function calls); each becomes one assistant message. Tool outputs are
 * paired with their calls by `call_id`.
 */
import type {
  AgentMessage,
  AssistantContentBlock,
  AssistantMessage,
  CustomMessage,
  ToolResultMessage,
  Usage,
  UserContentBlock,
  UserMessage,
} from "@bonsai/core";
import { isObj, num, objs, str, type Obj } from "../values";

export const CODEX_API = "openai-responses";

/** What an assistant message needs from the session: the model of the turn and its provider. */
export interface CodexModel {
  provider: string;
  model: string;
}

function imageFromUrl(url: string): UserContentBlock | undefined {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { type: "image", mimeType: m[1] as string, data: m[2] as string } : undefined;
}

/** input_text / output_text / input_image blocks -> text and image blocks. */
export function codexBlocks(content: unknown): UserContentBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  const out: UserContentBlock[] = [];
  for (const b of objs(content)) {
    if ((b.type === "input_text" || b.type === "output_text" || b.type === "text") && typeof b.text === "string") out.push({ type: "text", text: b.text });
    else if (b.type === "refusal" && typeof b.refusal === "string") out.push({ type: "text", text: b.refusal });
    else if (b.type === "input_image" && typeof b.image_url === "string") {
      const image = imageFromUrl(b.image_url);
      out.push(image ?? { type: "text", text: `[image: ${b.image_url.slice(0, 200)}]` });
    }
  }
  return out;
}

/** The text of a reasoning item: its summaries, then its readable content (encrypted parts stay in the line). */
function reasoningText(item: Obj): string {
  const parts: string[] = [];
  for (const s of objs(item.summary)) if (typeof s.text === "string") parts.push(s.text);
  for (const c of objs(item.content)) if (typeof c.text === "string") parts.push(c.text);
  return parts.join("\n\n");
}

function parseArguments(raw: unknown): Record<string, unknown> {
  if (isObj(raw)) return raw;
  if (typeof raw !== "string") return {};
  try {
    const value: unknown = JSON.parse(raw);
    return isObj(value) ? value : { value };
  } catch {
    return { raw };
  }
}

function assistant(content: AssistantContentBlock[], model: CodexModel, timestamp: number): AssistantMessage {
  // usage is added when the reply's token_count arrives (an item without one has none)
  const message = {
    role: "assistant",
    content,
    api: CODEX_API,
    provider: model.provider,
    model: model.model,
    stopReason: content.some((b) => b.type === "toolCall") ? "toolUse" : "stop",
    timestamp,
  };
  return message as unknown as AssistantMessage;
}

/** The call a response item makes, if it is a tool call: id and name. */
export function callOf(item: Obj): { id: string; name: string } | undefined {
  const id = str(item.call_id) ?? str(item.id);
  if (id === undefined) return undefined;
  switch (item.type) {
    case "function_call":
    case "custom_tool_call":
      return { id, name: str(item.name) ?? "" };
    case "local_shell_call":
      return { id, name: "local_shell" };
    default:
      return undefined;
  }
}

/** Whether a response item is written by the model (it belongs to a reply). */
export function isModelItem(item: Obj): boolean {
  switch (item.type) {
    case "reasoning":
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call":
      return true;
    case "message":
      return item.role === "assistant";
    default:
      return false;
  }
}

/**
 * The message a response item contributes to the context, or undefined for items that have no
 * pi shape (web searches, tool searches, image generation, ...: kept as metadata).
 */
export function itemMessage(item: Obj, model: CodexModel, toolName: (callId: string) => string, timestamp: number): AgentMessage | undefined {
  switch (item.type) {
    case "message": {
      const role = str(item.role);
      if (role === "assistant") return assistant(codexBlocks(item.content) as AssistantContentBlock[], model, timestamp);
      if (role === "user") {
        const user: UserMessage = { role: "user", content: codexBlocks(item.content), timestamp };
        return user;
      }
      // developer / system instructions reach the model too: a custom message keeps their role
      // (agentInstructions: they count in the context's estimate, core estimateChars)
      const custom: CustomMessage = { role: "custom", customType: role ?? "message", content: codexBlocks(item.content), display: false, agentInstructions: true, timestamp };
      return custom;
    }
    case "reasoning": {
      const block = { type: "thinking", thinking: reasoningText(item), thinkingSignature: JSON.stringify(item) } as AssistantContentBlock;
      return assistant([block], model, timestamp);
    }
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call": {
      const call = callOf(item) as { id: string; name: string };
      const args = item.type === "function_call" ? parseArguments(item.arguments) : item.type === "custom_tool_call" ? { input: str(item.input) ?? "" } : isObj(item.action) ? item.action : {};
      return assistant([{ type: "toolCall", id: call.id, name: call.name, arguments: args }], model, timestamp);
    }
    case "function_call_output":
    case "custom_tool_call_output": {
      const callId = str(item.call_id) ?? "";
      const output = item.output;
      const content = typeof output === "string" ? codexBlocks(output) : Array.isArray(output) ? codexBlocks(output) : isObj(output) ? codexBlocks(str(output.content) ?? JSON.stringify(output)) : [];
      const result: ToolResultMessage = { role: "toolResult", toolCallId: callId, toolName: toolName(callId), content, isError: false, timestamp };
      return result;
    }
    default:
      return undefined;
  }
}

/** A token_count's last_token_usage as Bonsai usage (OpenAI counts cached input inside input_tokens). */
export function codexUsage(raw: unknown): Usage | undefined {
  if (!isObj(raw)) return undefined;
  const inputAll = num(raw.input_tokens) ?? 0;
  const cached = num(raw.cached_input_tokens) ?? 0;
  const output = num(raw.output_tokens) ?? 0;
  const usage: Usage = { input: Math.max(0, inputAll - cached), output, cacheRead: cached, cacheWrite: 0, totalTokens: num(raw.total_tokens) ?? inputAll + output };
  const reasoning = num(raw.reasoning_output_tokens);
  if (reasoning !== undefined) usage.reasoning = reasoning;
  return usage;
}

/** Codex reasoning effort -> pi thinking level ("none" is pi's "off"; other values as written). */
export function thinkingLevelOf(effort: string): string {
  return effort === "none" ? "off" : effort;
}
