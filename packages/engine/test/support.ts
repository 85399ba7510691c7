/**
 * Engine test support: the spec's notation (conformance-cases.md "Notation") as terse builders, the
 * prompt constants, and a loopback mock whose answers depend on which prompt was sent.
 */
import type { AssistantMessage, SessionEntry, Usage } from "@bonsai/core";
import { formatFileOperations } from "@bonsai/core";
import { prompt } from "@bonsai/llm";
import type { ChatReply, ChatRequestBody } from "@bonsai/testkit";

export const P = {
  SYSTEM: prompt("system"),
  SUMMARY: prompt("summary"),
  UPDATE: prompt("update"),
  TURN_PREFIX: prompt("turnPrefix"),
  SHORT: prompt("short"),
  BRANCH: prompt("branch"),
  PREAMBLE: prompt("branchPreamble"),
};

export const FILES = (read: string[], modified: string[]) => formatFileOperations(read, modified);
export const xs = (n: number) => "x".repeat(n);
type Spec = { type: string; [k: string]: unknown };

const zero: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
export const usageOf = (input: number, output = 0, cacheRead = 0, cacheWrite = 0): Usage => ({ input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite });

export function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "m", usage: zero, stopReason: "stop", timestamp: 0, ...extra };
}

export const N = {
  U: (c: number | string): Spec => ({ type: "message", message: { role: "user", content: typeof c === "number" ? xs(c) : c, timestamp: 0 } }),
  A: (t: number | string, extra: Partial<AssistantMessage> = {}): Spec => ({ type: "message", message: assistant([{ type: "text", text: typeof t === "number" ? xs(t) : t }], extra) }),
  AT: (...calls: [string, Record<string, unknown>][]): Spec => ({
    type: "message",
    message: assistant(
      calls.map(([name, args], i) => ({ type: "toolCall", id: `c${i}`, name, arguments: args })),
      { stopReason: "toolUse" },
    ),
  }),
  T: (t: number | string, toolName = "bash"): Spec => ({
    type: "message",
    message: { role: "toolResult", toolCallId: "c0", toolName, content: [{ type: "text", text: typeof t === "number" ? xs(t) : t }], isError: false, timestamp: 0 },
  }),
  C: (summary: string, firstKeptEntryId: string, extra: Record<string, unknown> = {}): Spec => ({ type: "compaction", summary, firstKeptEntryId, tokensBefore: 1000, ...extra }),
};

const T0 = Date.parse("2025-01-01T00:00:00.000Z");

/** e0 -> e1 -> ... with timestamps one second apart */
export function linear(...specs: Spec[]): SessionEntry[] {
  return specs.map((s, i) => ({ ...s, id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: new Date(T0 + i * 1000).toISOString() })) as unknown as SessionEntry[];
}

export const S = (keepRecentTokens: number, reserveTokens = 16384) => ({ enabled: true, reserveTokens, keepRecentTokens, autoContinue: true, remoteEndpoint: "" });

/** The user prompt text of a recorded chat request. */
export const userPrompt = (b: ChatRequestBody | undefined): string => String(b?.messages.find((m) => m.role === "user")?.content ?? "");

/** A fallback that answers by prompt kind: history -> h, turn prefix -> t, short -> s, branch -> b. */
export function answerByKind(answers: { history?: string | string[]; turnPrefix?: string; short?: string; branch?: string }) {
  return (body: ChatRequestBody): ChatReply => {
    const text = userPrompt(body);
    const pick = text.endsWith(P.TURN_PREFIX)
      ? answers.turnPrefix
      : text.endsWith(P.SHORT)
        ? answers.short
        : text.endsWith(P.BRANCH) || body.max_completion_tokens === 2048
          ? answers.branch
          : answers.history;
    return { kind: "text", text: pick ?? "ANSWER" };
  };
}
