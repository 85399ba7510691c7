/**
 * The backend serves every session from one thread, and the store's writes are synchronous: a write
 * that finds its session held by another Bonsai process (the CLI, another window's worker) waits in
 * a sleep loop (packages/store/src/source/session-lock.ts), which would hold up every other
 * session's calls meanwhile. So the calls that write a session first wait on timers until no other
 * writer holds it (`waitForSessionWriter`), then run; the store's own wait is left for the rare
 * writer that takes the session in between.
 */
import type { Handlers } from "@bonsai/ipc";
import { waitForSessionWriter, type SqliteSessionStore } from "@bonsai/store";

/** the calls that write a session's rows or file (each names it by `sessionId`) */
export const SESSION_WRITES = ["setSessionTitle", "deleteSession", "commitCompaction", "compact", "navigate", "applyPrune", "restorePruned", "prompt", "undo", "redo", "setLabel"] as const;

/** `handlers` with each session write preceded by a wait that does not block the thread. */
export function waitingForSessionWriters(handlers: Handlers, store: SqliteSessionStore, waitMs?: number): Handlers {
  const out: Record<string, unknown> = { ...handlers };
  for (const name of SESSION_WRITES) {
    const handler = handlers[name] as ((input: { sessionId: string }) => unknown) | undefined;
    if (handler === undefined) continue;
    out[name] = async (input: { sessionId: string }) => {
      // a dry run writes nothing
      if (!(input as { dryRun?: boolean }).dryRun) await waitForSessionWriter(store.db, input.sessionId, waitMs);
      return handler(input);
    };
  }
  return out as Handlers;
}
