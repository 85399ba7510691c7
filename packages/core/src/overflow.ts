/**
 * Context overflow of an assistant message read from a session (spec: triggers-and-hooks.md §1.4):
 * by its error text, matched against the providers' wording (a session file keeps nothing else),
 * or silently, by usage over the window. A reply just received is judged by its model call's typed
 * failure instead (@bonsai/llm errors.ts), as are retries.
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
