/**
 * Provider error classification (spec: triggers-and-hooks.md §1.4, §2.2, §2.3): context overflow
 * (including silent overflow), retryable errors, and the retry delay a provider asks for.
 */
import type { AssistantMessage } from "./entries";

/** Error texts by which providers report a prompt larger than the model's context window. */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i, // Anthropic
  /input is too long for requested model/i, // Amazon Bedrock
  /exceeds the context window/i, // OpenAI (Completions & Responses)
  /input token count.*exceeds the maximum/i, // Google Gemini
  /maximum prompt length is \d+/i, // xAI Grok
  /reduce the length of the messages/i, // Groq
  /maximum context length is \d+ tokens/i, // OpenRouter
  /exceeds the limit of \d+/i, // GitHub Copilot
  /exceeds the available context size/i, // llama.cpp
  /greater than the context length/i, // LM Studio
  /context window exceeds limit/i, // MiniMax
  /exceeded model token limit/i, // Kimi For Coding
  /context[_ ]length[_ ]exceeded/i, // generic
  /too many tokens/i, // generic
  /token limit exceeded/i, // generic
  /request_too_large/i, // Anthropic HTTP 413
];

/** Cerebras / Mistral answer an oversized request with a bodiless 400 or 413. */
const BODILESS_400_413 = /^4(00|13)\s*(status code)?\s*\(no body\)/i;

type OverflowCandidate = Pick<AssistantMessage, "stopReason" | "errorMessage"> & { usage?: Partial<AssistantMessage["usage"]> };

/** True when an error message text reports a context overflow. */
export function isOverflowErrorMessage(errorMessage: string): boolean {
  return BODILESS_400_413.test(errorMessage) || OVERFLOW_PATTERNS.some((p) => p.test(errorMessage));
}

/**
 * An assistant message that failed because the context was too large, or (silent overflow) a
 * successful reply whose usage shows input + cacheRead above the window.
 */
export function isContextOverflow(message: OverflowCandidate, contextWindow?: number): boolean {
  if (message.stopReason === "error" && message.errorMessage && isOverflowErrorMessage(message.errorMessage)) return true;
  if (contextWindow && message.stopReason === "stop" && message.usage) {
    const input = Number(message.usage.input ?? 0) + Number(message.usage.cacheRead ?? 0);
    if (input > contextWindow) return true;
  }
  return false;
}

const RETRYABLE =
  /overloaded|rate.?limit|usage.?limit|too many requests|429|500|502|503|504|service.?unavailable|server error|internal error|connection.?error|fetch failed|retry delay/i;

/** Transient provider errors worth retrying (rate limits, overload, 5xx, network). */
export function isRetryable(errorMessage: string): boolean {
  return RETRYABLE.test(errorMessage);
}

/**
 * Whether the generic retry of a failed assistant turn applies: an error that is not an overflow
 * (overflow goes to compaction) and whose message is retryable.
 */
export function isRetryableAssistantError(message: OverflowCandidate, contextWindow?: number): boolean {
  if (isContextOverflow(message, contextWindow)) return false;
  return message.stopReason === "error" && !!message.errorMessage && isRetryable(message.errorMessage);
}

/**
 * The delay (ms, >= 0) an error message asks for: retry-after-ms, retry-after (seconds or an HTTP
 * date), x-ratelimit-reset-ms (ms or epoch ms), x-ratelimit-reset (seconds or epoch seconds).
 * The first rule that matches wins; undefined when none does. `now` is the current time in ms.
 */
export function parseRetryAfter(errorMessage: string, now: number): number | undefined {
  const clamp = (ms: number): number => Math.max(0, ms);

  const ms = /retry-after-ms\s*[:=]\s*(\d+)/i.exec(errorMessage);
  if (ms) return clamp(Number(ms[1]));

  const after = /retry-after\s*[:=]\s*([^\s,;]+)/i.exec(errorMessage);
  if (after) {
    const value = after[1] as string;
    const seconds = Number(value);
    if (Number.isFinite(seconds)) return clamp(seconds * 1000);
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return clamp(date - now);
  }

  const resetMs = /x-ratelimit-reset-ms\s*[:=]\s*(\d+)/i.exec(errorMessage);
  if (resetMs) {
    const value = Number(resetMs[1]);
    return clamp(value > 1e12 ? value - now : value);
  }

  const reset = /x-ratelimit-reset\s*[:=]\s*(\d+)/i.exec(errorMessage);
  if (reset) {
    const value = Number(reset[1]);
    return clamp(value > 1e9 ? value * 1000 - now : value * 1000);
  }
  return undefined;
}
