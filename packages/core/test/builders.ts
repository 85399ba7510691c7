/**
 * Entry builders following the notation of conformance-cases.md: a linear chain with ids e0, e1, …
 * and entry timestamps 1 s apart unless a parent or id is given.
 */
import type {
  AgentMessage,
  AssistantMessage,
  SessionEntry,
  SessionHeader,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "../src/index";

export const BASE_TIME = Date.parse("2025-01-01T00:00:00.000Z");

export function usage(input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage {
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

export const ZERO_USAGE = usage(0, 0);

export function user(content: string | UserMessage["content"]): UserMessage {
  return { role: "user", content, timestamp: BASE_TIME };
}

/** U(n): user message with "x" repeated n times */
export function U(n: number): UserMessage {
  return user("x".repeat(n));
}

export function assistant(text: string, opts: { usage?: Usage; stop?: AssistantMessage["stopReason"]; provider?: string; model?: string } = {}): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: opts.provider ?? "anthropic",
    model: opts.model ?? "m",
    usage: opts.usage ?? ZERO_USAGE,
    stopReason: opts.stop ?? "stop",
    timestamp: BASE_TIME,
  };
}

/** A(n): assistant with "x" repeated n times */
export function A(n: number, opts: Parameters<typeof assistant>[1] = {}): AssistantMessage {
  return assistant("x".repeat(n), opts);
}

export function toolResult(text: string, toolName = "bash"): ToolResultMessage {
  return { role: "toolResult", toolCallId: "call", toolName, content: [{ type: "text", text }], isError: false, timestamp: BASE_TIME };
}

/** Builds a session: each spec is a message or a partial entry; ids e0…, chain parents, 1 s apart. */
export class SessionBuilder {
  readonly entries: SessionEntry[] = [];

  private nextMeta(): { id: string; parentId: string | null; timestamp: string } {
    const i = this.entries.length;
    const prev = this.entries[i - 1];
    return { id: `e${i}`, parentId: prev ? prev.id : null, timestamp: new Date(BASE_TIME + i * 1000).toISOString() };
  }

  /** Appends a message entry; `over` can set id / parentId. */
  msg(message: AgentMessage, over: { id?: string; parentId?: string | null } = {}): this {
    const meta = this.nextMeta();
    this.entries.push({ type: "message", ...meta, ...over, message } as SessionEntry);
    return this;
  }

  /** Appends any entry: fields given win over the generated id/parentId/timestamp. */
  entry(fields: Record<string, unknown> & { type: string }): this {
    const meta = this.nextMeta();
    this.entries.push({ ...meta, ...fields } as unknown as SessionEntry);
    return this;
  }

  compaction(summary: string, firstKeptEntryId: string | undefined, extra: Record<string, unknown> = {}): this {
    return this.entry({ type: "compaction", summary, firstKeptEntryId, tokensBefore: 1000, ...extra });
  }

  branchSummary(summary: string, fromId: string, extra: Record<string, unknown> = {}): this {
    return this.entry({ type: "branch_summary", fromId, summary, ...extra });
  }

  id(i: number): string {
    return (this.entries[i] as SessionEntry).id;
  }
}

export function header(extra: Partial<SessionHeader> = {}): SessionHeader {
  return { type: "session", version: 3, id: "sess", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p", ...extra };
}

export function jsonl(values: readonly unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join("");
}
