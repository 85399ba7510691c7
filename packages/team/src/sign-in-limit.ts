/**
 * Failed sign-ins counted per client address: past `maxFailures` within `windowMs`, the address is
 * refused (HTTP 429) until its oldest failure in the window ages out, before any token is checked.
 * This bounds token guessing and the CPU a stranger can make the server spend on scrypt. The count
 * lives in the process: behind a load balancer each server process counts on its own, and the
 * address is the socket's (a reverse proxy's own address unless the proxy limits too).
 */
export interface SignInLimitOptions {
  /** failures allowed per address within the window (default 20) */
  maxFailures?: number;
  /** default 60 s */
  windowMs?: number;
  now?: () => number;
}

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: SignInLimitOptions = {}) {
    this.max = options.maxFailures ?? 20;
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  private recent(address: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.failures.get(address) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.failures.delete(address);
    else this.failures.set(address, kept);
    return kept;
  }

  /** Seconds until the address may try again, or 0 when it may now. */
  retryAfter(address: string): number {
    const recent = this.recent(address);
    if (recent.length < this.max) return 0;
    return Math.max(1, Math.ceil(((recent[0] as number) + this.windowMs - this.now()) / 1000));
  }

  failed(address: string): void {
    const recent = this.recent(address);
    recent.push(this.now());
    this.failures.set(address, recent);
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
  }
}
