/**
 * What runs on each session: prompts, their model turns, compactions and branch summaries, each with
 * the controller that aborts it. Every operation registers here before its first await, so that an
 * abort sent from then on reaches it.
 */

export interface TurnState {
  controller: AbortController;
  /** aborted by a manual compaction: the partial reply is not persisted */
  discard: boolean;
}

export interface CompactionState {
  controller: AbortController;
  kind: "manual" | "auto";
  done: Promise<unknown>;
}

export class SessionActivity {
  readonly turns = new Map<string, TurnState>();
  /** prompts from their call to their end (registered before the first await, so no abort is lost) */
  readonly prompts = new Map<string, AbortController>();
  readonly compactions = new Map<string, CompactionState>();
  readonly branchSummaries = new Map<string, AbortController>();

  /** a prompt (or its turn) is running on the session */
  isTurnRunning(sessionId: string): boolean {
    return this.turns.has(sessionId) || this.prompts.has(sessionId);
  }

  /** Registers a compaction of the session; `finish` settles its `done` (call it once it is over). */
  startCompaction(sessionId: string, kind: CompactionState["kind"]): { state: CompactionState; finish: () => void } {
    let finish: () => void = () => undefined;
    const state: CompactionState = { controller: new AbortController(), kind, done: new Promise<void>((r) => (finish = r)) };
    this.compactions.set(sessionId, state);
    return { state, finish };
  }

  /** Aborts the running turn of a session for a compaction: its partial reply is not persisted. Resolves once the turn is over. */
  abortTurnForCompaction(sessionId: string): Promise<void> {
    const turn = this.turns.get(sessionId);
    if (!turn) return Promise.resolve();
    turn.discard = true;
    turn.controller.abort();
    return new Promise((resolve) => {
      const check = () => (this.turns.get(sessionId) === turn ? setTimeout(check, 5) : resolve());
      check();
    });
  }

  abortCompactions(sessionId?: string): void {
    for (const [id, state] of this.compactions) if (sessionId === undefined || id === sessionId) state.controller.abort();
  }

  abortBranchSummaries(sessionId?: string): void {
    for (const [id, c] of this.branchSummaries) if (sessionId === undefined || id === sessionId) c.abort();
  }

  /** Aborts the running prompt and turn of a session (the partial reply is kept, stopReason "aborted"). */
  abortTurn(sessionId: string): void {
    this.prompts.get(sessionId)?.abort();
    this.turns.get(sessionId)?.controller.abort();
  }

  abortAll(): void {
    this.abortCompactions();
    this.abortBranchSummaries();
    for (const c of this.prompts.values()) c.abort();
    for (const t of this.turns.values()) t.controller.abort();
  }
}

/** Aborts `controller` when `signal` aborts (at once if it already has); returns the unlink. */
export function follow(signal: AbortSignal, controller: AbortController): () => void {
  if (signal.aborted) {
    controller.abort();
    return () => undefined;
  }
  const abort = () => controller.abort();
  signal.addEventListener("abort", abort, { once: true });
  return () => signal.removeEventListener("abort", abort);
}
