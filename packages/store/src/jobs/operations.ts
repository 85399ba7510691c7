/**
 * What a store worker exposes (jobs/store-worker.ts, through the one worker RPC): the store API's
 * imports, reads, writes and exports (store-api-methods.ts) called on the worker's own store, and
 * the few host tasks that are not store methods (warm-up, quiet while a tree is drawn, background
 * indexing, the formats layer's exports, the packed skeleton, a followed file's sync). The same
 * object answers in-process (InlineStoreJobs).
 */
import { randomUUID } from "node:crypto";
import * as path from "node:path";
import { toPiSession } from "@bonsai/formats";
import { renderHtml } from "@bonsai/formats/html";
import { atomicWriteFileSync } from "../atomic-write";
import type { StoreExports, StoreImports, StoreReads, StoreWrites } from "../session-store";
import type { SqliteSessionStore } from "../sqlite-session-store";
import type { PackedSkeletonRead } from "../reads/skeleton-cache";
import { EXPORT_METHODS, IMPORT_METHODS, READ_METHODS, WRITE_METHODS } from "../store-api-methods";

/** how long a page may take to draw a tree after its skeleton was read (100,000 entries on a loaded machine) */
const DRAWING_MS = 2500;

/** The store API a worker runs: every method of these interfaces. */
export type WorkerStoreApi = StoreImports & StoreReads & StoreWrites & StoreExports;

export const WORKER_STORE_METHODS = [...IMPORT_METHODS, ...READ_METHODS, ...WRITE_METHODS, ...EXPORT_METHODS] as const;

/** The host tasks beside the store's methods. */
function hostTasks(store: SqliteSessionStore) {
  return {
    /** nothing but the store being open: a host starts its worker before the first real call needs it */
    open(): void {},
    /** a followed file changed: read what was appended (or the file again) */
    followFile(target: { sessionId: string; file: string }): void {
      store.followFile(target);
    },
    /** a tree is being drawn (from a skeleton the host holds): background indexing waits meanwhile */
    quiet(): void {
      store.quietIndexing(DRAWING_MS);
    },
    /**
     * indexes for search, in the background of the store's thread, every entry not in the index yet
     * (a batch per turn of its event loop, calls running in between); answers at once with how many
     * there are
     */
    index(): number {
      const pending = store.unindexedCount();
      if (pending > 0) store.resumeIndexing();
      return pending;
    },
    /** the formats layer's HTML export of the path to `leafId` (null: no leaf), written atomically to `file` */
    exportHtml(sessionId: string, file: string, leafId: string | null): void {
      const read = store.readSession(sessionId, leafId);
      // the title rule: a title given in Bonsai first (renderHtml takes the file's name, else the first real prompt)
      const given = store.getSessionTitles().get(sessionId);
      atomicWriteFileSync(path.resolve(file), renderHtml(given === undefined ? read : { ...read, title: given }, { leafId }));
    },
    /** the path to `leafId` as a pi session file, written atomically to `file` */
    exportPi(sessionId: string, file: string, leafId: string | null): void {
      atomicWriteFileSync(path.resolve(file), piCopyText(store, sessionId, leafId));
    },
    /**
     * the session's tree skeleton in its wire form (core's packSkeleton), as JSON text: a string
     * crosses the thread boundary at once, where the structured clone of its 100,000-element arrays
     * took longer than reading them (0.4 s on the main thread, cold); with the state it was read in
     * (the host's store holds it while the session stays so: holdPackedSkeletonJson)
     */
    packedSkeleton(sessionId: string): PackedSkeletonRead {
      const { json, keep, state } = store.getPackedSkeletonJson(sessionId);
      // the tree is drawn next: background indexing (after an import) waits meanwhile
      store.quietIndexing(DRAWING_MS);
      // kept for the next start once the answer is on its way (a later turn of the event loop)
      if (keep) setImmediate(keep);
      return state ? { json, state } : { json };
    },
  };
}

export type StoreOperations = WorkerStoreApi & ReturnType<typeof hostTasks>;
export type Operation = keyof StoreOperations;
export type OperationArgs<M extends Operation> = Parameters<StoreOperations[M]>;
export type OperationResult<M extends Operation> = Awaited<ReturnType<StoreOperations[M]>>;

/** The operations over one store. */
export function storeOperations(store: SqliteSessionStore): StoreOperations {
  const methods = Object.fromEntries(WORKER_STORE_METHODS.map((name) => [name, (store[name] as (...a: unknown[]) => unknown).bind(store)])) as unknown as WorkerStoreApi;
  return { ...methods, ...hostTasks(store) };
}

/** Calls `method` by name on `operations` (in-process: InlineStoreJobs). */
export async function callOperation<M extends Operation>(operations: StoreOperations, method: M, args: OperationArgs<M>): Promise<OperationResult<M>> {
  const fn = operations[method] as (...a: unknown[]) => unknown;
  return (await fn(...args)) as OperationResult<M>;
}

/** The path to `leafId` as a new pi session (the text of its file); its parent is the source file, else the session. */
function piCopyText(store: Pick<SqliteSessionStore, "readSession" | "getSession">, sessionId: string, leafId: string | null): string {
  const summary = store.getSession(sessionId);
  const read = store.readSession(sessionId, leafId);
  return toPiSession(read, { sessionId: randomUUID(), now: new Date().toISOString(), leafId, parentSession: summary?.sourcePath ?? sessionId }).text;
}
