/**
 * A failed model call as a typed Bonsai error: the openai SDK's typed errors (status, headers, the
 * error body's code/param/type) and the remote endpoint's answers become a ModelFailure that retry
 * (retry.ts) and overflow recovery (engine's turns and triggers) decide from, whatever the
 * provider's message says. The message (`describeModelError`: the status first, the provider's text
 * verbatim, retry headers as `name: value`) is what a user reads and what a session keeps.
 */
import { BonsaiError } from "@bonsai/core";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { ResponseLimitError } from "./bounded-fetch";

/** What retry and overflow recovery need to know about a failed model call. */
export interface ModelFailure {
  /** the HTTP status the model's server answered with (none: no answer, or an error inside a stream) */
  status?: number;
  /** how long the server asks to wait before another attempt, from its headers (ms, >= 0) */
  retryAfterMs?: number;
  /** the request was larger than the model's context window: compaction, not a retry, helps */
  contextOverflow: boolean;
  /** worth another attempt: a rate limit, an overloaded or failing server, a lost connection, or a wait asked for */
  transient: boolean;
}

/** A failed model call (a BonsaiError of kind `model`): its one-line message and its typed facts. */
export class ModelCallError extends BonsaiError {
  constructor(
    message: string,
    readonly failure: ModelFailure,
    options?: { cause?: unknown },
  ) {
    super("model", message, options);
    this.name = "ModelCallError";
  }
}

/** The typed failure an error carries, itself or along its causes (a ModelError wrapping a ModelCallError). */
export function modelFailureIn(error: unknown): ModelFailure | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof ModelCallError) return e.failure;
  }
  return undefined;
}

const RETRY_HEADERS = ["retry-after-ms", "retry-after", "x-ratelimit-reset-ms", "x-ratelimit-reset"] as const;

/**
 * Error codes and types by which OpenAI-compatible servers mark a prompt over the context window,
 * in the error body's `code` or `type`: OpenAI, Azure and Groq (`context_length_exceeded`),
 * Anthropic (`request_too_large`), llama.cpp (`exceed_context_size_error`).
 */
const OVERFLOW_CODES = new Set(["context_length_exceeded", "request_too_large", "exceed_context_size_error"]);

/**
 * Codes and types of an error sent inside a stream (no HTTP status then) that a later attempt may
 * get past: an overloaded or failing server, a rate limit (OpenAI, Anthropic).
 */
const TRANSIENT_STREAM_CODES = new Set(["server_error", "overloaded_error", "api_error", "rate_limit_exceeded", "rate_limit_error"]);

/** statuses a later attempt may get past: timeout, conflict, rate limit, and every server error */
function transientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait (ms) the first retry header present asks for, as the openai SDK reads them. */
export function retryAfterMsOf(headers: Pick<Headers, "get"> | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const clamp = (ms: number) => Math.max(0, ms);
  const number = (name: (typeof RETRY_HEADERS)[number]) => {
    const value = headers.get(name)?.trim();
    return value !== undefined && value !== "" && Number.isFinite(Number(value)) ? Number(value) : undefined;
  };
  const ms = number("retry-after-ms");
  if (ms !== undefined) return clamp(ms);
  const after = headers.get("retry-after")?.trim();
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return clamp(seconds * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return clamp(date - now);
  }
  const resetMs = number("x-ratelimit-reset-ms");
  if (resetMs !== undefined) return clamp(resetMs > 1e12 ? resetMs - now : resetMs);
  const reset = number("x-ratelimit-reset");
  if (reset !== undefined) return clamp(reset > 1e9 ? reset * 1000 - now : reset * 1000);
  return undefined;
}

/** A failure from an HTTP status and headers (the remote endpoint's answers; the SDK's, body aside). */
export function httpFailure(status: number, headers: Pick<Headers, "get"> | undefined, now = Date.now()): ModelFailure {
  const retryAfterMs = retryAfterMsOf(headers, now);
  const failure: ModelFailure = { status, contextOverflow: status === 413, transient: transientStatus(status) || retryAfterMs !== undefined };
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  return failure;
}

/** the connection broke or timed out before an answer: worth another attempt */
export const CONNECTION_FAILURE: ModelFailure = Object.freeze({ contextOverflow: false, transient: true });
/** an answer that cannot be used (too large, malformed): the same request would get the same */
const UNUSABLE_ANSWER: ModelFailure = Object.freeze({ contextOverflow: false, transient: false });

/** The typed failure of an error thrown by a model call through the openai SDK. */
export function modelFailure(error: unknown, now = Date.now()): ModelFailure {
  const typed = modelFailureIn(error);
  if (typed) return typed;
  if (error instanceof ResponseLimitError || (error instanceof Error && error.cause instanceof ResponseLimitError)) return UNUSABLE_ANSWER;
  if (error instanceof APIConnectionError) return CONNECTION_FAILURE;
  if (error instanceof APIError) {
    const code = typeof error.code === "string" ? error.code : undefined;
    const codes = [code, error.type].filter((c): c is string => c !== undefined);
    const overflowCode = codes.some((c) => OVERFLOW_CODES.has(c));
    if (error.status === undefined) return { contextOverflow: overflowCode, transient: !overflowCode && codes.some((c) => TRANSIENT_STREAM_CODES.has(c)) };
    const failure = httpFailure(error.status, error.headers, now);
    // Cerebras and Mistral answer an oversized prompt with a 400 or 413 and no body at all
    const bodiless = error.error === undefined && (error.status === 400 || error.status === 413);
    return { ...failure, contextOverflow: failure.contextOverflow || overflowCode || bodiless };
  }
  return UNUSABLE_ANSWER;
}

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

/** A thrown model-call error as the typed Bonsai error: its message and its failure. */
export function toModelCallError(error: unknown, now = Date.now()): ModelCallError {
  return error instanceof ModelCallError ? error : new ModelCallError(describeModelError(error), modelFailure(error, now), { cause: error });
}
