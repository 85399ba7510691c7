/**
 * The entry notation of ../shared/spec/conformance-cases.md ("Notation"), as builders.
 * `chain(...)` links entries linearly with ids e0, e1, … and timestamps one second apart.
 */
import type {
  AssistantContentBlock,
  AssistantMessage,
  SessionEntry,
  ToolResultMessage,
  Usage,
  UserContentBlock,
} from "../../src/entries";

type Body = Record<string, unknown> & { type: string };

const BASE_TIME = Date.parse("2025-01-01T00:00:00.000Z");

export const x = (n: number): string => "x".repeat(n);

export function usage(input: number, output = 0, cacheRead = 0, cacheWrite = 0): Usage {
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

const ZERO_USAGE: Usage = usage(0);

const message = (m: Record<string, unknown>): Body => ({ type: "message", message: { timestamp: 0, ...m } });

export function U(content: number | string | UserContentBlock[]): Body {
  return message({ role: "user", content: typeof content === "number" ? x(content) : content });
}

export function assistantMessage(
  content: AssistantContentBlock[],
  u: Usage = ZERO_USAGE,
  stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
  return { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "m", usage: u, stopReason, timestamp: 0 };
}

export function A(text: number | string, u?: Usage, stop?: AssistantMessage["stopReason"]): Body {
  const t = typeof text === "number" ? x(text) : text;
  return { type: "message", message: assistantMessage([{ type: "text", text: t }], u, stop) };
}

export function AC(content: AssistantContentBlock[], u?: Usage, stop?: AssistantMessage["stopReason"]): Body {
  return { type: "message", message: assistantMessage(content, u, stop) };
}

let callCounter = 0;
export function call(name: string, args: Record<string, unknown> = {}): AssistantContentBlock {
  callCounter++;
  return { type: "toolCall", id: `call-${callCounter}`, name, arguments: args };
}

export function AT(...calls: AssistantContentBlock[]): Body {
  return { type: "message", message: assistantMessage(calls, ZERO_USAGE, "toolUse") };
}

export function toolResult(content: UserContentBlock[], toolName = "bash", extra: Partial<ToolResultMessage> = {}): ToolResultMessage {
  return { role: "toolResult", toolCallId: "call", toolName, content, isError: false, timestamp: 0, ...extra };
}

export function T(n: number | string, tool = "bash", extra: Partial<ToolResultMessage> = {}): Body {
  const text = typeof n === "number" ? x(n) : n;
  return { type: "message", message: toolResult([{ type: "text", text }], tool, extra) };
}

export function TR(content: UserContentBlock[], tool = "bash", extra: Partial<ToolResultMessage> = {}): Body {
  return { type: "message", message: toolResult(content, tool, extra) };
}

export const image = (): UserContentBlock => ({ type: "image", data: "aGVsbG8=", mimeType: "image/png" });

export function MC(model: string, role?: string): Body {
  return role === undefined ? { type: "model_change", model } : { type: "model_change", model, role };
}

export function TL(level: string): Body {
  return { type: "thinking_level_change", thinkingLevel: level };
}

export function C(summary: string, firstKeptEntryId: string, extra: Record<string, unknown> = {}): Body {
  return { type: "compaction", summary, firstKeptEntryId, tokensBefore: 1000, ...extra };
}

export function BS(summary: string, fromId = "root", extra: Record<string, unknown> = {}): Body {
  return { type: "branch_summary", fromId, summary, ...extra };
}

export function CM(content: string | UserContentBlock[], display = true): Body {
  return { type: "custom_message", customType: "t", content, display };
}

export function BX(command: string, output: string): Body {
  return message({ role: "bashExecution", command, output, exitCode: 0, cancelled: false, truncated: false });
}

export function L(targetId: string, label: string): Body {
  return { type: "label", targetId, label };
}

export function CU(n: number): Body {
  return message({ role: "custom", customType: "t", content: x(n), display: true });
}

export function timestampOf(i: number): string {
  return new Date(BASE_TIME + i * 1000).toISOString();
}

/** A linear chain e0 → e1 → … */
export function chain(...bodies: Body[]): SessionEntry[] {
  return bodies.map((body, i) => ({
    ...body,
    id: `e${i}`,
    parentId: i === 0 ? null : `e${i - 1}`,
    timestamp: timestampOf(i),
  })) as unknown as SessionEntry[];
}

/** Entries with explicit ids and parents: [id, parentId, body]. */
export function tree(...nodes: [string, string | null, Body][]): SessionEntry[] {
  return nodes.map(([id, parentId, body], i) => ({ ...body, id, parentId, timestamp: timestampOf(i) })) as unknown as SessionEntry[];
}

/** S(keep[, reserve]) */
export function S(keepRecentTokens: number, reserveTokens = 16384) {
  return { enabled: true, reserveTokens, keepRecentTokens };
}
