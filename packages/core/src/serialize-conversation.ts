/**
 * Conversation serialization for summarization prompts (spec: compaction.md §7).
 *
 * Input is the output of convertToLlm (user / assistant / toolResult only); output is plain text,
 * one part per message kind joined by a blank line. Nothing is truncated: pruned tool results
 * already carry their notice.
 */
import type { LlmMessage, ToolCall, UserContentBlock } from "./entries";

function concatenatedText(content: string | readonly UserContentBlock[]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const block of content) if (block?.type === "text" && typeof block.text === "string") text += block.text;
  return text;
}

function formatToolCall(call: ToolCall): string {
  const args = typeof call.arguments === "object" && call.arguments !== null ? call.arguments : {};
  const rendered = Object.entries(args).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `${call.name}(${rendered.join(", ")})`;
}

function assistantParts(content: LlmMessage["content"], parts: string[]): void {
  if (!Array.isArray(content)) return;
  const thinking: string[] = [];
  const text: string[] = [];
  const calls: string[] = [];
  for (const block of content) {
    if (!block) continue;
    if (block.type === "thinking") thinking.push(block.thinking);
    else if (block.type === "text") text.push(block.text);
    else if (block.type === "toolCall") calls.push(formatToolCall(block));
  }
  if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join("\n")}`);
  if (text.length > 0) parts.push(`[Assistant]: ${text.join("\n")}`);
  if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
}

export function serializeConversation(messages: readonly LlmMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "user": {
        const text = concatenatedText(message.content);
        if (text) parts.push(`[User]: ${text}`);
        break;
      }
      case "assistant":
        assistantParts(message.content, parts);
        break;
      case "toolResult": {
        const text = concatenatedText(message.content);
        if (text) parts.push(`[Tool result]: ${text}`);
        break;
      }
    }
  }
  return parts.join("\n\n");
}
