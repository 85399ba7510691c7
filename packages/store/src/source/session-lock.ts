/**
 * One writer per session across processes. Every write that touches a session (its file and its
 * rows) runs holding the session's row in `session_locks`, in the database every Bonsai process on
 * the machine shares (the app, the CLI, `bonsai serve`, store workers). The row is taken in a
 * `BEGIN IMMEDIATE` transaction: SQLite lets one connection at a time in there, so looking at the
 * row and taking it is one step no other process can split. A row whose process is gone (its pid is
 * dead, or now belongs to a process started at another time) is stale and taken over in that same
 * step, so a writer killed with -9 never wedges its session. A second writer waits (polling, up to
 * `waitMs`), then refuses with SessionLockedError; nothing was written.
 *
 * Re-entrant per store: a write that calls another write of the same session (a label is an
 * append, a rewrite reads the file up to date) holds the lock once.
 */
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { SessionLockedError } from "../session-store";
import { sleepSync } from "./bytes";
import { isAlive, processStartOf, SELF_START } from "./journal";

/** how long a second writer waits for the first to finish before it refuses */
export const SESSION_LOCK_WAIT_MS = 10_000;
/** how often a waiting writer looks again */
const POLL_MS = 25;

interface LockRow {
  pid: number;
  process_start: string | null;
  token: string;
}

/** whether the process that took the row is gone (a dead pid, or a pid reused by a later process) */
function isStale(row: LockRow): boolean {
  if (row.pid === process.pid) return false; // this process: another store in it (a worker thread) that is alive
  if (!isAlive(row.pid)) return true;
  const start = processStartOf(row.pid);
  return row.process_start !== null && start !== null && start !== row.process_start;
}

export class SessionLocks {
  /** this store's token: tells its rows from those of other stores in the same process */
  private readonly token = randomUUID();
  /** sessions this store holds, with how many nested writes hold each */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly db: Database.Database,
    private readonly waitMs = SESSION_LOCK_WAIT_MS,
  ) {}

  /** Runs `write` holding the session's lock; SessionLockedError when another writer keeps it past the wait. */
  run<T>(sessionId: string, write: () => T): T {
    const depth = this.held.get(sessionId) ?? 0;
    if (depth === 0) this.acquire(sessionId);
    this.held.set(sessionId, depth + 1);
    try {
      return write();
    } finally {
      if (depth === 0) {
        this.held.delete(sessionId);
        this.release(sessionId);
      } else {
        this.held.set(sessionId, depth);
      }
    }
  }

  /** whether this store holds the session's lock now */
  holds(sessionId: string): boolean {
    return this.held.has(sessionId);
  }

  private acquire(sessionId: string): void {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      if (this.tryTake(sessionId)) return;
      if (Date.now() >= deadline) throw new SessionLockedError(sessionId);
      sleepSync(POLL_MS);
    }
  }

  private tryTake(sessionId: string): boolean {
    return this.db
      .transaction(() => {
        const row = this.db.prepare("SELECT pid, process_start, token FROM session_locks WHERE session_id = ?").get(sessionId) as LockRow | undefined;
        if (row !== undefined && row.token !== this.token && !isStale(row)) return false;
        this.db
          .prepare("INSERT OR REPLACE INTO session_locks (session_id, pid, process_start, token, taken_at) VALUES (?, ?, ?, ?, ?)")
          .run(sessionId, process.pid, SELF_START, this.token, new Date().toISOString());
        return true;
      })
      .immediate();
  }

  private release(sessionId: string): void {
    if (!this.db.open) return;
    this.db.prepare("DELETE FROM session_locks WHERE session_id = ? AND token = ?").run(sessionId, this.token);
  }
}

/** Whether a live writer other than this process's main store holds the session now (a read: takes nothing). */
export function heldByAnotherWriter(db: Database.Database, sessionId: string): boolean {
  const row = db.prepare("SELECT pid, process_start, token FROM session_locks WHERE session_id = ?").get(sessionId) as LockRow | undefined;
  return row !== undefined && !isStale(row);
}

/**
 * Waits without blocking the thread (polling on timers) until no other writer holds the session,
 * then resolves; SessionLockedError after `waitMs`. A host that serves many sessions from one thread
 * (the app's backend, `bonsai serve`) calls it before a write, so that the write's own wait (a sleep
 * loop, as better-sqlite3 is synchronous) is not spent holding up the other sessions' calls.
 */
export async function waitForSessionWriter(db: Database.Database, sessionId: string, waitMs = SESSION_LOCK_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (db.open && heldByAnotherWriter(db, sessionId)) {
    if (Date.now() >= deadline) throw new SessionLockedError(sessionId);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
