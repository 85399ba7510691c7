/**
 * The archived sessions a page opened, materialised into this process's own SQLite store (a
 * private temporary folder, cache-folders.ts), so that every read feature of the app (tree,
 * inspector, what the model sees, transcript, what-if, amnesia, export) runs unchanged on them.
 * Nothing in it matters: a copy is keyed by the archive's own identity of the session (its row,
 * never its bare id: two sessions of one id, in two projects or from two people, are two copies
 * that never touch), checked against the row's entry count, filled again when a push added
 * entries, and thrown away with the process. Each copy lives in a folder of its own, so the
 * store gives each its own store id (the header's id, or that id with a suffix of its file's path
 * when another copy holds it); that store id is the cache's business, and the answers name the
 * session by its key again (page-keys.ts). Every read of PostgreSQL goes through ArchiveStore, so
 * the copies are made from exactly what the conformance suite tests.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { SessionStore } from "@bonsai/store";
import type { ArchivedSessionRow, ArchiveStore } from "../archive-store";

/** A session of the archive with its copy in this process's store: `storeId` names the copy there. */
export type HeldSession = ArchivedSessionRow & { storeId: string };

/** a session id as a file name (the export's name comes from it) */
function fileNameOf(sessionId: string): string {
  return `${sessionId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120) || "session"}.jsonl`;
}

/** how many opened sessions a server process keeps copies of (a copy takes about twice its JSONL on disk) */
export const DEFAULT_CACHED_SESSIONS = 100;

export class ArchiveSessionCache {
  /** the archive's row -> the copy the store holds of it */
  private readonly held = new Map<string, { storeId: string; entryCount: number }>();
  /** one materialisation or read at a time per archive row */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: Pick<SessionStore, "getSession">,
    /** where the downloaded JSONL files live (the store's sessions' source files) */
    private readonly dir: string,
    /** reads a downloaded file into the store (the app's import: on its store worker when it has one) */
    private readonly importFile: (file: string) => Promise<{ sessionId: string | null; error: string | null }>,
    /** removes a session from the store (the app's own removal) */
    private readonly remove: (storeId: string) => Promise<unknown>,
    /** the most sessions held at once; the one used longest ago goes first */
    private readonly limit = DEFAULT_CACHED_SESSIONS,
    /** one line per copy made: its size and where its time went (never the content) */
    private readonly log: (line: string) => void = () => undefined,
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Runs `read` once the store holds the archive's current copy of the session `name` names (ArchiveStore's resolver, with the caller's rights). */
  async withSession<T>(archive: ArchiveStore, name: string, read: (held: HeldSession) => Promise<T> | T): Promise<T> {
    const wanted = await archive.session(name);
    return this.locked(wanted.pk, async () => read(await this.materialise(archive, wanted)));
  }

  /** As withSession for several sessions at once (taken in one order, so two such reads never wait on each other). */
  async withSessions<T>(archive: ArchiveStore, names: readonly string[], read: (held: HeldSession[]) => Promise<T> | T): Promise<T> {
    const rows = await Promise.all([...new Set(names)].map((name) => archive.session(name)));
    const order = [...new Map(rows.map((r) => [r.pk, r])).values()].sort((a, b) => Number(a.pk) - Number(b.pk));
    const held = new Map<string, HeldSession>();
    const step = (i: number): Promise<T> => {
      const row = order[i];
      if (row === undefined) return Promise.resolve(read(rows.map((r) => held.get(r.pk) as HeldSession)));
      return this.withSession(archive, row.key, (copy) => {
        held.set(copy.pk, copy);
        return step(i + 1);
      });
    };
    return step(0);
  }

  /** the copy this process holds of exactly the archive's entries of `row`, if any */
  heldCopy(row: ArchivedSessionRow): HeldSession | undefined {
    const held = this.held.get(row.pk);
    return held !== undefined && held.entryCount === row.entryCount && this.store.getSession(held.storeId) !== undefined ? { ...row, storeId: held.storeId } : undefined;
  }

  /**
   * Makes the copy of `row`'s session behind the caller's back (its reads wait for it, in turn);
   * then runs `then` on it, under the row's lock. A failure is logged: the next read tries again.
   */
  prepare(archive: ArchiveStore, row: ArchivedSessionRow, then: (held: HeldSession) => Promise<unknown> | unknown = () => undefined): void {
    void this.locked(row.pk, async () => then(await this.materialise(archive, row))).catch((error: unknown) =>
      this.log(`${new Date().toISOString()} CACHE session row ${row.pk} was not copied: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`),
    );
  }

  /** how many sessions the store holds copies of */
  get size(): number {
    return this.held.size;
  }

  private async locked<T>(pk: string, work: () => Promise<T>): Promise<T> {
    const before = this.locks.get(pk) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(work);
    this.locks.set(pk, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(pk) === run) this.locks.delete(pk);
    }
  }

  private async materialise(archive: ArchiveStore, wanted: ArchivedSessionRow): Promise<HeldSession> {
    const current = this.heldCopy(wanted);
    const held = this.held.get(wanted.pk);
    this.held.delete(wanted.pk);
    if (current && held) {
      this.held.set(wanted.pk, held); // the most recently used now
      return current;
    }
    const folder = path.join(this.dir, wanted.pk);
    const file = path.join(folder, fileNameOf(wanted.sessionId));
    // a push appended: only the new entries are read, and the store takes in only the appended lines (when the
    // copy holds exactly the entries it is keyed by: a whole copy's snapshot may have taken in a later push too)
    const appendable = held && held.entryCount < wanted.entryCount && this.store.getSession(held.storeId)?.entryCount === held.entryCount;
    if (held && appendable) {
      const appended = await this.append(archive, wanted, held, file);
      if (appended) return appended;
    }
    // an append that did not end as the archive's entries: copied again whole
    if (held) await this.forget(wanted.pk, held.storeId);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const partial = `${file}.partial`;
    // the archive's own read (the caller's check, one snapshot), written whole, then renamed into place
    const started = performance.now();
    const { chunks } = await archive.openJsonl(wanted.key);
    await pipeline(Readable.from(chunks), fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, file);
    const copied = performance.now();
    const imported = await this.importFile(file);
    this.log(`${new Date().toISOString()} CACHE session row ${wanted.pk}, ${wanted.entryCount} entries, ${fs.statSync(file).size} bytes: copied in ${(copied - started).toFixed(0)}ms, imported in ${(performance.now() - copied).toFixed(0)}ms`);
    if (imported.error !== null || imported.sessionId === null) {
      fs.rmSync(folder, { recursive: true, force: true });
      throw new Error(`the archived session ${wanted.key} could not be read: ${imported.error ?? "nothing was imported"}`);
    }
    this.held.set(wanted.pk, { storeId: imported.sessionId, entryCount: wanted.entryCount });
    this.evict();
    return { ...wanted, storeId: imported.sessionId };
  }

  /**
   * Appends the entries from the copy's count on to its file and lets the store take in the
   * appended lines. The held copy when the store then holds exactly the archive's entries;
   * undefined (the copy is then made again whole) when anything else happened.
   */
  private async append(archive: ArchiveStore, wanted: ArchivedSessionRow, held: { storeId: string; entryCount: number }, file: string): Promise<HeldSession | undefined> {
    try {
      const started = performance.now();
      const { row, chunks } = await archive.openEntriesFrom(wanted.key, held.entryCount);
      if (row.pk !== wanted.pk) return undefined;
      await pipeline(Readable.from(chunks), fs.createWriteStream(file, { flags: "a", mode: 0o600 }));
      const copied = performance.now();
      const imported = await this.importFile(file);
      this.log(`${new Date().toISOString()} CACHE session row ${wanted.pk}, ${wanted.entryCount - held.entryCount} entries appended: copied in ${(copied - started).toFixed(0)}ms, imported in ${(performance.now() - copied).toFixed(0)}ms`);
      if (imported.error !== null || imported.sessionId !== held.storeId || this.store.getSession(held.storeId)?.entryCount !== wanted.entryCount) return undefined;
      this.held.set(wanted.pk, { storeId: held.storeId, entryCount: wanted.entryCount });
      return { ...wanted, storeId: held.storeId };
    } catch {
      return undefined;
    }
  }

  /** Drops the copies used longest ago beyond the limit; one in use (locked) is left for later. */
  private evict(): void {
    for (const [pk, held] of this.held) {
      if (this.held.size <= this.limit) return;
      if (this.locks.has(pk)) continue;
      this.held.delete(pk);
      // under the row's lock, so that a read of it waits for the removal and then copies it again
      void this.locked(pk, () => this.forget(pk, held.storeId)).catch(() => undefined);
    }
  }

  private async forget(pk: string, storeId: string): Promise<void> {
    if (this.store.getSession(storeId)) await this.remove(storeId);
    fs.rmSync(path.join(this.dir, pk), { recursive: true, force: true });
  }
}
