/**
 * The counts the session list shows (compactions, branch tips, what the model sees from the leaf),
 * kept per session until it changes. Counting reads entries, so sessions not counted yet are
 * counted a few at a time after the list is answered, and a `sessionsChanged` event brings the
 * figures to the list.
 */
import type { SessionStore, SessionSummary } from "@bonsai/store";
import { contextFigureAt } from "./context-preview";

export interface SessionCounts {
  compactions: number;
  branches: number;
  /** what the model saw from the current leaf (core contextFigureOf: the context preview's figure) */
  contextTokens: number;
  /** the estimate of the leaf's messages in the file, shown beside it */
  estimatedTokens: number;
}

/** time spent counting while a list waits for its answer; the rest is counted after it */
const INLINE_BUDGET_MS = 40;
const BACKGROUND_SLICE_MS = 50;

export class SessionStats {
  readonly #cache = new Map<string, { key: string; counts: SessionCounts }>();
  #pending = new Map<string, SessionSummary>();
  #scheduled = false;

  constructor(
    private readonly store: SessionStore,
    private readonly changed: () => void,
  ) {}

  /** The counts of every listed session that is counted already; the others are counted soon. */
  forList(sessions: readonly SessionSummary[]): Map<string, SessionCounts> {
    const out = new Map<string, SessionCounts>();
    const started = performance.now();
    for (const s of sessions) {
      const hit = this.#cache.get(s.id);
      if (hit && hit.key === keyOf(s)) out.set(s.id, hit.counts);
      else if (performance.now() - started < INLINE_BUDGET_MS) {
        const counts = this.#count(s);
        if (counts) out.set(s.id, counts);
      } else this.#pending.set(s.id, s);
    }
    if (this.#pending.size > 0) this.#schedule();
    return out;
  }

  /** one session's counts, counted now if need be (null when it is gone) */
  of(summary: SessionSummary): SessionCounts | null {
    const hit = this.#cache.get(summary.id);
    return hit && hit.key === keyOf(summary) ? hit.counts : this.#count(summary);
  }

  forget(sessionId: string): void {
    this.#cache.delete(sessionId);
    this.#pending.delete(sessionId);
  }

  #count(s: SessionSummary): SessionCounts | null {
    try {
      const shape = this.store.countSessionShape(s.id);
      const figure = s.leafId === null ? null : contextFigureAt(this.store, s.id, s.leafId);
      const counts = { ...shape, contextTokens: figure?.contextTokens ?? 0, estimatedTokens: figure?.estimatedTokens ?? 0 };
      this.#cache.set(s.id, { key: keyOf(s), counts });
      return counts;
    } catch {
      return null; // removed meanwhile
    }
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    const slice = () => {
      const started = performance.now();
      for (const [id, s] of this.#pending) {
        this.#pending.delete(id);
        this.#count(s);
        if (performance.now() - started > BACKGROUND_SLICE_MS) break;
      }
      if (this.#pending.size > 0) setImmediate(slice);
      else {
        this.#scheduled = false;
        this.changed();
      }
    };
    setImmediate(slice);
  }
}

/** what the counts depend on */
function keyOf(s: SessionSummary): string {
  return `${s.generation}:${s.entryCount}:${s.leafId ?? ""}:${s.prunedCount}:${s.updatedAt}`;
}
