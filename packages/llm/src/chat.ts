/**
 * One conversation turn against an OpenAI-compatible model, streamed. The result is an assistant
 * message in the session format (entries.ts) so it can be appended as-is: usage mapped to
 * input/output/cacheRead, stopReason `stop | length | error | aborted`, and on failure the provider's
 * error text (status first) in `errorMessage`, with the typed failure beside the message (errors.ts)
 * for retry and overflow recovery to decide from.
 */
import type OpenAI from "openai";
import type { AssistantMessage, LlmMessage, Usage, UserContentBlock } from "@bonsai/core";
import { STREAM_LIMITS } from "./bounded-fetch";
import { CONNECTION_FAILURE, isAbortError, toModelCallError, type ModelFailure } from "./errors";
import { createOpenAiClient, type OpenAiEndpoint } from "./openai-summarizer";

export const OPENAI_COMPLETIONS_API = "openai-completions";

export interface StreamTurnOptions {
  endpoint: OpenAiEndpoint;
  model: string;
  /** provider name recorded on the message (default "openai") */
  provider?: string;
  systemPrompt?: string;
  maxTokens?: number;
  signal?: AbortSignal;
  /** called with each text delta as it arrives */
  onDelta?: (delta: string) => void;
}

type ChatParam = OpenAI.ChatCompletionMessageParam;

function textOf(content: string | UserContentBlock[]): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

function userContent(content: string | UserContentBlock[]): string | OpenAI.ChatCompletionContentPart[] {
  if (typeof content === "string") return content;
  if (!content.some((b) => b.type === "image")) return textOf(content);
  return content.map((b): OpenAI.ChatCompletionContentPart =>
    b.type === "text" ? { type: "text", text: b.text } : { type: "image_url", image_url: { url: `data:${b.mimeType};base64,${b.data}` } },
  );
}

/**
 * Session messages -> chat-completions messages. Assistant turns that failed or were aborted are left
 * out (they carry no usable content); every tool call gets a tool message (a placeholder when the
 * session has none, as the API requires), and tool results without their call are sent as user text.
 */
export function toChatMessages(messages: readonly LlmMessage[], systemPrompt?: string): ChatParam[] {
  const out: ChatParam[] = [];
  if (systemPrompt) out.push({ role: "system", content: systemPrompt });
  let openCalls: string[] = [];
  const closeCalls = () => {
    for (const id of openCalls) out.push({ role: "tool", tool_call_id: id, content: "(no result recorded)" });
    openCalls = [];
  };
  for (const m of messages) {
    if (m.role === "toolResult") {
      const i = openCalls.indexOf(m.toolCallId);
      if (i >= 0) {
        openCalls.splice(i, 1);
        out.push({ role: "tool", tool_call_id: m.toolCallId, content: textOf(m.content) || "(empty result)" });
      } else {
        closeCalls();
        out.push({ role: "user", content: `[Tool result of ${m.toolName}]: ${textOf(m.content)}` });
      }
      continue;
    }
    closeCalls();
    if (m.role === "user") {
      out.push({ role: "user", content: userContent(m.content) });
    } else {
      if (m.stopReason === "error" || m.stopReason === "aborted") continue;
      const text = m.content.map((b) => (b.type === "text" ? b.text : "")).filter(Boolean).join("\n");
      const calls = m.content.flatMap((b) =>
        b.type === "toolCall" ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.arguments ?? {}) } }] : [],
      );
      if (!text && calls.length === 0) continue;
      const param: OpenAI.ChatCompletionAssistantMessageParam = { role: "assistant", content: text || null };
      if (calls.length > 0) {
        param.tool_calls = calls;
        openCalls = calls.map((c) => c.id);
      }
      out.push(param);
    }
  }
  closeCalls();
  return out;
}

function toUsage(u: OpenAI.CompletionUsage | undefined | null): Usage {
  if (!u) return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input: Math.max(0, u.prompt_tokens - cached),
    output: u.completion_tokens,
    cacheRead: cached,
    cacheWrite: 0,
    totalTokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens,
  };
}

/** A turn's reply, and when it failed, what failed (not stored: the session keeps the message). */
export interface TurnReply {
  message: AssistantMessage;
  failure?: ModelFailure;
}

/** Streams one turn; never throws for model or transport failures (they become stopReason "error" and a failure). */
export async function streamTurn(messages: readonly LlmMessage[], options: StreamTurnOptions): Promise<TurnReply> {
  const started = Date.now();
  const result: AssistantMessage = {
    role: "assistant",
    content: [],
    api: OPENAI_COMPLETIONS_API,
    provider: options.provider ?? "openai",
    model: options.model,
    usage: toUsage(undefined),
    stopReason: "stop",
    timestamp: started,
  };
  let text = "";
  const finish = (stopReason: AssistantMessage["stopReason"], errorMessage?: string, failure?: ModelFailure): TurnReply => {
    if (text) result.content = [{ type: "text", text }];
    result.stopReason = stopReason;
    if (errorMessage !== undefined) result.errorMessage = errorMessage;
    result.duration = Date.now() - started;
    return failure ? { message: result, failure } : { message: result };
  };
  if (options.signal?.aborted) return finish("aborted", "Request was aborted");
  const client = createOpenAiClient(options.endpoint, STREAM_LIMITS);
  try {
    const params: OpenAI.ChatCompletionCreateParamsStreaming = {
      model: options.model,
      messages: toChatMessages(messages, options.systemPrompt),
      stream: true,
      stream_options: { include_usage: true },
    };
    if (options.maxTokens) params.max_completion_tokens = options.maxTokens;
    const stream = await client.chat.completions.create(params, { signal: options.signal });
    let finishReason: string | null | undefined;
    for await (const chunk of stream) {
      if (chunk.usage) result.usage = toUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta?.content;
      if (delta) {
        if (!result.ttft) result.ttft = Date.now() - started;
        text += delta;
        options.onDelta?.(delta);
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
    if (options.signal?.aborted) return finish("aborted", "Request was aborted");
    if (finishReason === undefined) return finish("error", "Connection error: the stream ended before the model finished", CONNECTION_FAILURE);
    return finish(finishReason === "length" ? "length" : "stop");
  } catch (error) {
    if (isAbortError(error, options.signal)) return finish("aborted", "Request was aborted");
    const failed = toModelCallError(error);
    return finish("error", failed.message, failed.failure);
  }
}
