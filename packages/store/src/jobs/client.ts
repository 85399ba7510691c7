/**
 * The host side of store jobs: `call(method, ...args)` (or `api.method(...args)`) for one of the
 * store's operations (jobs/operations.ts), typed by that object. `WorkerStoreJobs` runs them on one
 * worker thread (the store's worker entry, jobs/store-worker.ts) through the one worker RPC
 * (worker-rpc/): the host's thread only posts messages and relays the worker store's events to its
 * own store (`relay`), so that SQLite, file reads and file rewrites never run on it.
 * `InlineStoreJobs` calls the same operations on the host's store (the CLI, tests, a host without a
 * worker).
 */
import { IdList } from "@bonsai/core";
import type { Async } from "../async";
import type { StoreEventName, StoreEvents } from "../session-store";
import type { SqliteSessionStore } from "../sqlite-session-store";
import { WorkerRpc } from "../worker-rpc/client";
import { workerEntryUrl } from "../worker-rpc/spawn";
import { callOperation, storeOperations, type Operation, type OperationArgs, type OperationResult, type StoreOperations } from "./operations";
import type { StoreWorkerData } from "./store-module";

export interface StoreJobs {
  /**
   * Calls one of the store's operations with its own arguments; an options argument's `signal` and
   * `onProgress` (ImportOptions) work across the thread boundary too.
   */
  call<M extends Operation>(method: M, ...args: OperationArgs<M>): Promise<OperationResult<M>>;
  /**
   * Reads what changed in a followed file. Repeated changes while one read is waiting or running
   * cost one more read after it, not one each.
   */
  sync(target: { sessionId: string; file: string }): void;
  /**
   * Gets ready for the first job now (a worker is started and opens its store: loading its code and
   * the database is then not part of the first open a user waits for). Resolves once ready, rejects
   * when the store cannot be opened (the first job says so again); callers may leave it running.
   */
  prepare(): Promise<void>;
  close(): Promise<void>;
}

/** Calls on the host's own store. */
export class InlineStoreJobs implements StoreJobs {
  readonly #operations: StoreOperations;

  constructor(private readonly store: SqliteSessionStore) {
    this.#operations = storeOperations(store);
  }

  call<M extends Operation>(method: M, ...args: OperationArgs<M>): Promise<OperationResult<M>> {
    return callOperation(this.#operations, method, args);
  }

  sync(target: { sessionId: string; file: string }): void {
    this.store.followFile(target);
  }

  async prepare(): Promise<void> {}

  async close(): Promise<void> {}
}

/** The store's worker entry beside another worker entry (a bundle's), or its source (tests, development). */
export function storeWorkerUrl(beside?: URL): URL {
  // a name, not a literal in new URL(): bundlers would otherwise copy the source file as an asset
  const source = "./store-worker.ts";
  return workerEntryUrl("store-worker", new URL(source, import.meta.url), beside);
}

export interface WorkerStoreJobsOptions extends StoreWorkerData {
  /** the store's worker entry (storeWorkerUrl) */
  url: URL;
  /** announces the worker store's events on the host's store */
  relay: <K extends StoreEventName>(event: K, payload: StoreEvents[K]) => void;
  execArgv?: string[];
}

export class WorkerStoreJobs implements StoreJobs {
  readonly #rpc: WorkerRpc<StoreOperations>;
  /** the store's operations on the worker, each answering through a promise */
  readonly api: Async<StoreOperations>;
  /** files with a sync waiting or running, and those changed again since it started */
  readonly #syncing = new Set<string>();
  readonly #again = new Set<string>();

  constructor(private readonly options: WorkerStoreJobsOptions) {
    const workerData: StoreWorkerData = { dbPath: options.dbPath, writeThrough: options.writeThrough };
    if (options.nativeBinding) workerData.nativeBinding = options.nativeBinding;
    this.#rpc = new WorkerRpc<StoreOperations>({
      url: options.url,
      workerData,
      label: "the store worker",
      onEvent: (name, payload) => options.relay(name as StoreEventName, payload as StoreEvents[StoreEventName]),
      ...(options.execArgv ? { execArgv: options.execArgv } : {}),
      // the id lists of plans, rebuilt as IdLists (a read's JSON text, or an array, as the worker held them)
      revive: {
        getPruneSummary: (summary) => ({ ...summary, entryIds: IdList.fromClone(summary.entryIds) }),
        getBranchPlan: (plan) => ({ ...plan, entryIds: IdList.fromClone(plan.entryIds) }),
      },
    });
    this.api = this.#rpc.proxy();
  }

  call<M extends Operation>(method: M, ...args: OperationArgs<M>): Promise<OperationResult<M>> {
    return this.#rpc.call(method, ...(args as never)) as Promise<OperationResult<M>>;
  }

  sync(target: { sessionId: string; file: string }): void {
    if (this.#syncing.has(target.file)) {
      this.#again.add(target.file);
      return;
    }
    this.#syncing.add(target.file);
    this.call("followFile", { sessionId: target.sessionId, file: target.file })
      .catch((err: unknown) => this.options.relay("follow-error", { sessionId: target.sessionId, message: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        this.#syncing.delete(target.file);
        if (this.#again.delete(target.file)) this.sync(target);
      });
  }

  prepare(): Promise<void> {
    return this.call("open");
  }

  close(): Promise<void> {
    return this.#rpc.close();
  }
}
