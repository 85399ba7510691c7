/**
 * Answers a server process has given, kept to be given again: the session list, a search, a short
 * session's JSONL. A team asks the same things many times (everyone opens the list; a session
 * linked in a chat is opened by many), and each asks PostgreSQL for work of milliseconds.
 *
 * An answer is kept under the text of the request and the caller's `readVersion` (the projects they
 * may read with those projects' change counters, read with their token at this request: people.ts),
 * so it is given again only to a caller who may read exactly those projects, and only while nothing
 * in them has changed. A push, a grant or a revoked token is therefore seen at the next request, as
 * without the cache. The cache holds at most `maxBytes` of answers, the least recently given dropped
 * first; 0 turns it off. It is this process's own, derived, and lost with it: nothing that matters.
 */
export interface KeptAnswer {
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** the most one answer may take of the cache (a larger one is sent, not kept) */
const MAX_SHARE = 8;

export class AnswerCache {
  private readonly answers = new Map<string, KeptAnswer>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** the largest answer kept */
  get maxAnswerBytes(): number {
    return Math.floor(this.maxBytes / MAX_SHARE);
  }

  get(key: string): KeptAnswer | undefined {
    const answer = this.answers.get(key);
    if (answer === undefined) {
      this.misses += 1;
      return undefined;
    }
    // most recently given last, so that the oldest are first to go
    this.answers.delete(key);
    this.answers.set(key, answer);
    this.hits += 1;
    return answer;
  }

  set(key: string, answer: KeptAnswer): void {
    if (!this.enabled || answer.body.length > this.maxAnswerBytes) return;
    const old = this.answers.get(key);
    if (old !== undefined) {
      this.answers.delete(key);
      this.bytes -= old.body.length;
    }
    this.answers.set(key, answer);
    this.bytes += answer.body.length;
    for (const [oldest, kept] of this.answers) {
      if (this.bytes <= this.maxBytes) break;
      this.answers.delete(oldest);
      this.bytes -= kept.body.length;
    }
  }

  get size(): number {
    return this.answers.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }
}

/** The key of a request's answer: who may read what (see above), the route, and its parameters in one order. */
export function answerKey(readVersion: string, route: string, query: URLSearchParams): string {
  const params = [...query].sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  return `${readVersion}\n${route}\n${JSON.stringify(params)}`;
}
