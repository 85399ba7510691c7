/**
 * Turning transport failures into the one-line messages the engine reasons about: the retry policy
 * reads status codes and retry hints from them (core's isRetryable / parseRetryAfter) and overflow
 * detection matches provider wording (core's isContextOverflow). So the message keeps the HTTP status
 * first and the provider's own text verbatim, and appends retry headers as `name: value`.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { ResponseLimitError } from "./bounded-fetch";

const RETRY_HEADERS = ["retry-after-ms", "retry-after", "x-ratelimit-reset-ms", "x-ratelimit-reset"] as const;

export function isAbortError(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  if (error instanceof APIUserAbortError) return true;
  return error instanceof Error && error.name === "AbortError";
}

/** A message for a failed model call, e.g. `429 Rate limit reached, retry-after: 2`. */
export function describeModelError(error: unknown): string {
  if (error instanceof ResponseLimitError) return error.message;
  if (error instanceof Error && error.cause instanceof ResponseLimitError) return error.cause.message;
  if (error instanceof APIConnectionTimeoutError) return "Connection error: request timed out";
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error && error.cause.message ? ` (${error.cause.message})` : "";
    return `Connection error: ${error.message}${cause}`;
  }
  if (error instanceof APIError) {
    const hints: string[] = [];
    const headers = error.headers;
    if (headers) {
      for (const name of RETRY_HEADERS) {
        const value = headers.get(name);
        if (value) hints.push(`${name}: ${value}`);
      }
    }
    return hints.length > 0 ? `${error.message}, ${hints.join(", ")}` : error.message;
  }
  if (error instanceof SyntaxError) return `Malformed response: ${error.message}`;
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
