/**
 * A second, real SQLite connection on a running backend's database (Node's own node:sqlite, not
 * Bonsai's code): `holdWriteLock` takes the database's write lock (BEGIN IMMEDIATE) and keeps it
 * until `release()`, so every write of the backend, an import's transaction included, waits for it
 * (the store's busy timeout, BUSY_TIMEOUT_MS, is how long it waits before it gives up). Specs use
 * it to hold an operation provably unfinished while they act on it (Cancel), whatever the
 * machine's speed. `storedCounts` reads what the database holds.
 */
import { DatabaseSync } from "node:sqlite";

export interface HeldWriteLock {
  /** ends the empty transaction: the waiting writes go on */
  release(): void;
}

export function holdWriteLock(dbFile: string): HeldWriteLock {
  const db = new DatabaseSync(dbFile);
  try {
    db.exec("PRAGMA busy_timeout = 10000; BEGIN IMMEDIATE");
  } catch (err) {
    db.close();
    throw err;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        db.exec("ROLLBACK");
      } finally {
        db.close();
      }
    },
  };
}

/** how many sessions and entries the database holds (read on a connection of its own) */
export function storedCounts(dbFile: string): { sessions: number; entries: number } {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const count = (table: string) => Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number | bigint }).n);
    return { sessions: count("sessions"), entries: count("entries") };
  } finally {
    db.close();
  }
}
