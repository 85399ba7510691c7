/**
 * Failed sign-ins, counted per token id and, only when `bonsai team serve` is told which header its
 * trusted reverse proxy writes the client's address in (`--trusted-proxy-header`), per client
 * address. Past `maxFailures` within `windowMs` a key is refused (HTTP 429) until its oldest failure
 * in the window ages out. A token id's failures bound guessing that token's secret and the scrypt
 * work spent on it; they never touch another token. The socket's address is never a key: behind a
 * proxy it is the proxy's, and one client's failures would lock out the whole team. While a key is
 * refused, a secret this process already verified still signs in (it costs a hash, not a scrypt), so
 * a stranger who learns a token's id does not lock its owner out. The counts live in the process.
 */
import type { IncomingMessage } from "node:http";
import type pg from "pg";
import { ArchiveError } from "./errors";
import { authenticate, type Principal } from "./people";
import { alreadyVerified, parseToken } from "./tokens";

export interface SignInLimitOptions {
  /** failures allowed per key within the window (default 20) */
  maxFailures?: number;
  /** default 60 s */
  windowMs?: number;
  now?: () => number;
  /**
   * the header a trusted reverse proxy writes the client's address in (e.g. `x-forwarded-for`; its
   * last value is taken, the one the proxy appended); unset: failures are not counted per address
   */
  trustedProxyHeader?: string;
}

/** what one sign-in attempt is counted under, and the client it came from (for the log) */
export interface SignInAttempt {
  keys: string[];
  client: string;
}

/** how one sign-in went: signed in, refused (a failure counted), or not tried (`retryAfter` seconds to wait); `client` for the log */
export type SignInOutcome = ({ principal: Principal } | { refused: ArchiveError } | { retryAfter: number }) & { client: string };

/** the answer to a sign-in past the limits, before "; try again in N s" */
export const TOO_MANY_FAILURES = "too many failed sign-ins with this token or from this address";

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly proxyHeader: string | undefined;

  constructor(options: SignInLimitOptions = {}) {
    this.max = options.maxFailures ?? 20;
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.proxyHeader = options.trustedProxyHeader?.trim().toLowerCase() || undefined;
  }

  /** the keys a sign-in with `token` from `request` counts under: its token id, and the client's address when a trusted proxy names it */
  attempt(request: IncomingMessage, token: string): SignInAttempt {
    const keys: string[] = [];
    const id = parseToken(token)?.id;
    if (id !== undefined) keys.push(`token ${id}`);
    const forwarded = this.proxyHeader === undefined ? undefined : request.headers[this.proxyHeader];
    const named = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").at(-1)?.trim() ?? "";
    if (named !== "") keys.push(`address ${named}`);
    return { keys, client: named !== "" ? named : (request.socket.remoteAddress ?? "-") };
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  /** Seconds until the attempt may be tried, or 0 when it may now. */
  retryAfter(attempt: SignInAttempt): number {
    let wait = 0;
    for (const key of attempt.keys) {
      const recent = this.recent(key);
      if (recent.length >= this.max) wait = Math.max(wait, 1, Math.ceil(((recent[0] as number) + this.windowMs - this.now()) / 1000));
    }
    return wait;
  }

  /**
   * Signs in with `token` as `request` sent it, within the limits: every route that takes a token
   * (the HTTP API, the page's WebSocket, its downloads and its token check) signs in here. A
   * secret this process verified before passes even while its keys are refused.
   */
  async signIn(pool: pg.Pool, request: IncomingMessage, token: string): Promise<SignInOutcome> {
    const attempt = this.attempt(request, token);
    const wait = alreadyVerified(token) ? 0 : this.retryAfter(attempt);
    if (wait > 0) return { retryAfter: wait, client: attempt.client };
    try {
      return { principal: await authenticate(pool, token), client: attempt.client };
    } catch (error) {
      if (!(error instanceof ArchiveError) || error.code !== "unauthorized") throw error;
      this.failed(attempt);
      return { refused: error, client: attempt.client };
    }
  }

  failed(attempt: SignInAttempt): void {
    for (const key of attempt.keys) {
      const recent = this.recent(key);
      recent.push(this.now());
      this.failures.set(key, recent);
      if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
    }
  }
}
