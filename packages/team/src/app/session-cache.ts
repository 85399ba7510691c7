/**
 * The archived sessions a page opened, materialised into this process's own SQLite store (a
 * private temporary folder), so that every read feature of the app (tree, inspector, what the model
 * sees, transcript, what-if, amnesia, export) runs unchanged on them. Nothing in it matters: it is
 * keyed by the archive's row and entry count, filled again when a push added entries, and thrown
 * away with the process. PostgreSQL stays the one source of truth, so several `team serve`
 * processes serve one database without sharing anything.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { SessionStore } from "@bonsai/store";
import type pg from "pg";
import { ArchiveError } from "../errors";
import type { Principal } from "../people";
import { openArchivedEntriesFrom, openArchivedSession } from "../reads";
import { pageKey, splitPageKey } from "./page-keys";
import { ReadableSessionsSql } from "../readable-sql";

/** The row of a session the caller may read (the page names sessions by the keys it was given: project and id). */
export interface ReadableSession {
  pk: string;
  sessionId: string;
  entryCount: number;
  project: string;
  pushedBy: string;
  pushedAt: string;
  /** how the page names it (page-keys.ts) */
  key: string;
}

/**
 * The session the page's `name` names among the caller's projects: a key (project and id), or a bare
 * id that one session the caller may read holds. A session the caller may not read is refused
 * exactly as one that does not exist; a bare id that several of the caller's projects hold is
 * refused in one sentence naming them (a person of one of them never learns of the others).
 */
export async function readableSession(pool: pg.Pool, principal: Principal, name: string): Promise<ReadableSession> {
  const keyed = splitPageKey(name);
  const sql = new ReadableSessionsSql(principal, name, keyed?.project ?? null, keyed?.sessionId ?? null).and("(s.session_id = $2 OR (p.name = $3 AND s.session_id = $4))");
  const rows = (
    await pool.query<{ id: string; session_id: string; entry_count: number; project: string; pushed_by: string; pushed_at: Date; keyed: boolean }>(
      `SELECT s.id, s.session_id, s.entry_count, p.name AS project, u.name AS pushed_by, s.pushed_at, coalesce(p.name = $3 AND s.session_id = $4, false) AS keyed
         FROM sessions s JOIN projects p ON p.id = s.project_id JOIN people u ON u.id = s.pushed_by
        WHERE ${sql.where}
        ORDER BY keyed DESC, p.name LIMIT 6`,
      sql.params,
    )
  ).rows;
  const chosen = rows[0]?.keyed ? [rows[0]] : rows.filter((r) => r.session_id === name);
  const row = chosen[0];
  if (!row) throw new ArchiveError("not-found", `no session ${JSON.stringify(name)} that you may read in the archive`);
  if (chosen.length > 1) {
    throw new ArchiveError("bad-request", `${JSON.stringify(name)} names sessions of several of your projects (${chosen.map((r) => pageKey(r.project, r.session_id)).join(", ")}); open it from the list, which names its project`);
  }
  return { pk: row.id, sessionId: row.session_id, entryCount: Number(row.entry_count), project: row.project, pushedBy: row.pushed_by, pushedAt: row.pushed_at.toISOString(), key: pageKey(row.project, row.session_id) };
}

/** a session id as a file name (the export's name comes from it) */
function fileNameOf(sessionId: string): string {
  return `${sessionId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120) || "session"}.jsonl`;
}

/** how many opened sessions a server process keeps copies of (a copy takes about twice its JSONL on disk) */
export const DEFAULT_CACHED_SESSIONS = 100;

export class ArchiveSessionCache {
  /** session id -> what the store holds for it */
  private readonly held = new Map<string, { pk: string; entryCount: number }>();
  /** one materialisation or read at a time per session id */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: Pick<SessionStore, "getSession">,
    /** where the downloaded JSONL files live (the store's sessions' source files) */
    private readonly dir: string,
    /** reads a downloaded file into the store (the app's import: on its store worker when it has one) */
    private readonly importFile: (file: string) => Promise<{ sessionId: string | null; error: string | null }>,
    /** removes a session from the store (the app's own removal) */
    private readonly remove: (sessionId: string) => Promise<unknown>,
    /** the most sessions held at once; the one used longest ago goes first */
    private readonly limit = DEFAULT_CACHED_SESSIONS,
    /** one line per copy made: its size and where its time went (never the content) */
    private readonly log: (line: string) => void = () => undefined,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /**
   * Runs `read` once the store holds the archive's current copy of the session, with no other
   * materialisation of that id in between (a person of another project opening another session
   * with the same id waits its turn).
   */
  async withSession<T>(principal: Principal, name: string, read: (row: ReadableSession) => Promise<T> | T): Promise<T> {
    const wanted = await readableSession(this.pool, principal, name);
    return this.locked(wanted.sessionId, async () => {
      await this.materialise(principal, wanted);
      return read(wanted);
    });
  }

  /** As withSession for several sessions at once (taken in one order, so two such reads never wait on each other). */
  async withSessions<T>(principal: Principal, names: readonly string[], read: (rows: ReadableSession[]) => Promise<T> | T): Promise<T> {
    const rows = await Promise.all([...new Set(names)].map((name) => readableSession(this.pool, principal, name)));
    rows.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
    // the copies live in one store under their ids: two sessions of one id cannot be read together
    const twin = rows.find((r, i) => i > 0 && rows[i - 1]?.sessionId === r.sessionId);
    if (twin) throw new ArchiveError("bad-request", `two of these sessions have the same id (${twin.sessionId}, in two projects): compare them one at a time`);
    const step = (i: number): Promise<T> => (i === rows.length ? Promise.resolve(read(rows)) : this.withSession(principal, (rows[i] as ReadableSession).key, () => step(i + 1)));
    return step(0);
  }

  /** whether this process holds the archive's current copy of the session `row` names */
  holds(row: ReadableSession): boolean {
    const held = this.held.get(row.sessionId);
    return held !== undefined && held.pk === row.pk && held.entryCount === row.entryCount && this.store.getSession(row.sessionId) !== undefined;
  }

  /**
   * Makes the copy of `row`'s session behind the caller's back (its reads wait for it, in turn);
   * then runs `then` on it, under the session's lock. A failure is logged: the next read tries again.
   */
  prepare(principal: Principal, row: ReadableSession, then: (row: ReadableSession) => Promise<unknown> | unknown = () => undefined): void {
    void this.locked(row.sessionId, async () => {
      await this.materialise(principal, row);
      await then(row);
    }).catch((error: unknown) => this.log(`${new Date().toISOString()} CACHE session row ${row.pk} was not copied: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`));
  }

  private async locked<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const before = this.locks.get(sessionId) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(work);
    this.locks.set(sessionId, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(sessionId) === run) this.locks.delete(sessionId);
    }
  }

  private async materialise(principal: Principal, wanted: ReadableSession): Promise<void> {
    const held = this.held.get(wanted.sessionId);
    this.held.delete(wanted.sessionId);
    if (held && held.pk === wanted.pk && held.entryCount === wanted.entryCount && this.store.getSession(wanted.sessionId)) {
      this.held.set(wanted.sessionId, held); // the most recently used now
      return;
    }
    const folder = path.join(this.dir, wanted.pk);
    const file = path.join(folder, fileNameOf(wanted.sessionId));
    // a push appended: only the new entries are read, and the store takes in only the appended lines (when the
    // copy holds exactly the entries it is keyed by: a whole copy's snapshot may have taken in a later push too)
    const appendable = held && held.pk === wanted.pk && held.entryCount < wanted.entryCount && this.store.getSession(wanted.sessionId)?.entryCount === held.entryCount;
    if (appendable && (await this.append(principal, wanted, held.entryCount, file))) return;
    // another session under that id, or an append that did not end as the archive's entries: copied again whole
    if (held && (held.pk !== wanted.pk || appendable)) await this.forget(wanted.sessionId, held.pk);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const partial = `${file}.partial`;
    // the archive's own read (the caller's check, one snapshot), written whole, then renamed into place
    const started = performance.now();
    const { chunks } = await openArchivedSession(this.pool, principal, wanted.sessionId, wanted.project);
    await pipeline(Readable.from(chunks), fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, file);
    const copied = performance.now();
    const imported = await this.importFile(file);
    this.log(`${new Date().toISOString()} CACHE session row ${wanted.pk}, ${wanted.entryCount} entries, ${fs.statSync(file).size} bytes: copied in ${(copied - started).toFixed(0)}ms, imported in ${(performance.now() - copied).toFixed(0)}ms`);
    this.imported(wanted, imported);
  }

  /**
   * Appends the entries from position `from` to the copy's file and lets the store take in the
   * appended lines. True when the store then holds exactly the archive's entries; false (the copy
   * is then made again whole) when anything else happened.
   */
  private async append(principal: Principal, wanted: ReadableSession, from: number, file: string): Promise<boolean> {
    try {
      const started = performance.now();
      const { sessionPk, chunks } = await openArchivedEntriesFrom(this.pool, principal, wanted.sessionId, from, wanted.project);
      if (sessionPk !== wanted.pk) return false;
      await pipeline(Readable.from(chunks), fs.createWriteStream(file, { flags: "a", mode: 0o600 }));
      const copied = performance.now();
      const imported = await this.importFile(file);
      this.log(`${new Date().toISOString()} CACHE session row ${wanted.pk}, ${wanted.entryCount - from} entries appended: copied in ${(copied - started).toFixed(0)}ms, imported in ${(performance.now() - copied).toFixed(0)}ms`);
      if (imported.error !== null || imported.sessionId !== wanted.sessionId || this.store.getSession(wanted.sessionId)?.entryCount !== wanted.entryCount) return false;
      this.held.set(wanted.sessionId, { pk: wanted.pk, entryCount: wanted.entryCount });
      return true;
    } catch {
      return false;
    }
  }

  private imported(wanted: ReadableSession, imported: { sessionId: string | null; error: string | null }): void {
    if (imported.error !== null || imported.sessionId !== wanted.sessionId) {
      throw new ArchiveError("bad-request", `the archived session ${JSON.stringify(wanted.sessionId)} could not be read: ${imported.error ?? `its header names ${JSON.stringify(imported.sessionId)}`}`);
    }
    this.held.set(wanted.sessionId, { pk: wanted.pk, entryCount: wanted.entryCount });
    this.evict();
  }

  /** how many sessions the store holds copies of */
  get size(): number {
    return this.held.size;
  }

  /** Drops the copies used longest ago beyond the limit; one in use (locked) is left for later. */
  private evict(): void {
    for (const [sessionId, held] of this.held) {
      if (this.held.size <= this.limit) return;
      if (this.locks.has(sessionId)) continue;
      this.held.delete(sessionId);
      // under the session's lock, so that a read of it waits for the removal and then copies it again
      void this.locked(sessionId, () => this.forget(sessionId, held.pk)).catch(() => undefined);
    }
  }

  private async forget(sessionId: string, pk: string): Promise<void> {
    if (this.store.getSession(sessionId)) await this.remove(sessionId);
    fs.rmSync(path.join(this.dir, pk), { recursive: true, force: true });
  }
}
