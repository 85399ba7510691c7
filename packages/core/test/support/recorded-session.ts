/**
 * Sessions as an agent records them without compaction: turns of a user prompt, tool rounds (an
 * assistant tool call answered by its result) and a final reply, each assistant message carrying
 * the usage a model would report for that context (overhead + ratio × the estimate of everything
 * sent so far, plus its own output). Ids r0, r1, …; timestamps one second apart.
 */
import type { AssistantMessage, SessionEntry, Usage } from "../../src/entries";
import { estimateTokens } from "../../src/tokens";
import { x } from "./notation";

export interface TurnSpec {
  /** characters of the user prompt */
  prompt: number;
  /** characters of each tool result (one tool round each) */
  tools: number[];
  /** characters of the final reply */
  reply: number;
  /** tool name of the rounds (default bash) */
  tool?: string;
}

export interface RecordedOptions {
  /** tokens of system prompt and tool definitions (default 3000) */
  overhead?: number;
  /** real tokens per estimated token (default 1.25) */
  ratio?: number;
}

const T0 = Date.parse("2025-03-01T10:00:00.000Z");

export function recordedSession(turns: readonly TurnSpec[], options: RecordedOptions = {}): SessionEntry[] {
  const overhead = options.overhead ?? 3000;
  const ratio = options.ratio ?? 1.25;
  const entries: SessionEntry[] = [];
  let sent = 0;
  let calls = 0;
  const push = (message: Record<string, unknown>): SessionEntry => {
    const i = entries.length;
    const time = T0 + i * 1000;
    const entry = {
      type: "message",
      id: `r${i}`,
      parentId: i === 0 ? null : `r${i - 1}`,
      timestamp: new Date(time).toISOString(),
      message: { ...message, timestamp: time },
    } as unknown as SessionEntry;
    entries.push(entry);
    return entry;
  };
  const assistant = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"]) => {
    const draft = { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "m", stopReason } as unknown as AssistantMessage;
    const output = estimateTokens(draft);
    const input = overhead + Math.round(ratio * sent);
    const usage: Usage = { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output };
    const entry = push({ ...draft, usage });
    sent += output;
    return entry;
  };
  for (const turn of turns) {
    const user = push({ role: "user", content: x(turn.prompt) });
    sent += estimateTokens((user as { message: AssistantMessage }).message);
    for (const size of turn.tools) {
      const id = `call-${calls++}`;
      assistant([{ type: "toolCall", id, name: turn.tool ?? "bash", arguments: { command: `step ${calls}` } }], "toolUse");
      const result = push({ role: "toolResult", toolCallId: id, toolName: turn.tool ?? "bash", content: [{ type: "text", text: x(size) }], isError: false });
      sent += Math.ceil(size / 4);
      void result;
    }
    assistant([{ type: "text", text: x(turn.reply) }], "stop");
  }
  return entries;
}
