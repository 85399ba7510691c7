/**
 * The automatic-compaction retry policy (triggers-and-hooks.md §2.2): candidates are tried in order;
 * each is retried on transient failures (status 408/409/429/5xx, a lost connection, or a retry header)
 * with exponential backoff `baseDelayMs × 2^attempt`, raised to the server's retry hint; a wait longer
 * than 30 s moves on to the next candidate unless this is the last one; a hint longer than
 * MAX_RETRY_AFTER_MS is never waited for (the candidate fails with a sentence that says so).
 * Context-overflow errors are never retried. Each decision reads the error's typed failure
 * (errors.ts), never its message; an error without one is not retried. Abort stops everything
 * immediately, including a pending wait.
 */
import { modelFailureIn } from "./errors";

export interface RetryPolicy {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
}

export interface Candidate<T> {
  label: string;
  /** false when the candidate has no API key: skipped without an attempt */
  available: boolean;
  run(signal: AbortSignal | undefined): Promise<T>;
}

export interface RetryNotice {
  candidate: string;
  /** 1-based number of the retry about to happen */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  errorMessage: string;
}

export const MAX_RETRY_WAIT_BEFORE_NEXT_CANDIDATE_MS = 30_000;
/** the longest server retry hint (Retry-After) Bonsai waits for: a longer one ends the candidate's retries */
export const MAX_RETRY_AFTER_MS = 60_000;

export class AbortedError extends Error {
  constructor(message = "Aborted") {
    super(message);
    this.name = "AbortError";
  }
}

/** Waits `ms`, rejecting with an AbortError as soon as the signal fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function runWithCandidates<T>(
  candidates: readonly Candidate<T>[],
  policy: RetryPolicy,
  signal?: AbortSignal,
  onRetry?: (notice: RetryNotice) => void,
): Promise<T> {
  let lastError: unknown;
  for (let index = 0; index < candidates.length; index++) {
    const candidate = candidates[index] as Candidate<T>;
    if (!candidate.available) continue;
    const isLast = index === candidates.length - 1;
    for (let attempt = 0; ; ) {
      if (signal?.aborted) throw new AbortedError();
      try {
        return await candidate.run(signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        const message = messageOf(error);
        const failure = modelFailureIn(error);
        const retryAfterMs = failure?.retryAfterMs;
        const shouldRetry = policy.enabled && attempt < policy.maxRetries && failure !== undefined && failure.transient && !failure.contextOverflow;
        if (!shouldRetry) {
          lastError = error;
          break;
        }
        if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
          lastError = new Error(`${message} (the server asks to wait ${Math.ceil(retryAfterMs / 1000)} s before a retry; Bonsai waits at most ${MAX_RETRY_AFTER_MS / 1000} s)`);
          break;
        }
        let delay = policy.baseDelayMs * 2 ** attempt;
        if (retryAfterMs !== undefined) delay = Math.max(delay, retryAfterMs);
        if (delay > MAX_RETRY_WAIT_BEFORE_NEXT_CANDIDATE_MS && !isLast) {
          lastError = error;
          break;
        }
        attempt++;
        onRetry?.({ candidate: candidate.label, attempt, maxAttempts: policy.maxRetries, delayMs: delay, errorMessage: message });
        await abortableSleep(delay, signal);
      }
    }
  }
  throw lastError ?? new Error("Compaction failed: no available model");
}
