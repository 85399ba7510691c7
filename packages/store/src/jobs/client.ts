/**
 * The host side of store calls: `call(method, ...args)` for one of the store's operations
 * (jobs/operations.ts), typed by that object. `WorkerStoreJobs` posts each call as `{method, args}`
 * to one worker thread (jobs/worker.ts, loaded by the module at `url`) and resolves with its answer:
 * the host's thread only posts messages and relays the worker store's events to its own store
 * (`relay`), so that SQLite, file reads and file rewrites never run on it. `InlineStoreJobs` calls
 * the same operations on the host's store (the CLI, tests, a host without a worker).
 */
import type { Worker } from "node:worker_threads";
import { BonsaiError, fromWireError } from "@bonsai/core";
import { BackupRefusal, SessionLockedError, SessionLookupError, SourceBusyError, StaleCommitError, StoreError, type StoreEventName, type StoreEvents } from "../session-store";
import type { SqliteSessionStore } from "../sqlite-session-store";
import { callOperation, storeOperations, type Operation, type OperationArgs, type OperationResult, type StoreOperations } from "./operations";
import type { CallControl, FromWorker, SentError, ToWorker } from "./protocol";
import { WriteFailedError } from "../source/write-failure";
import { spawnModuleWorker } from "./spawn";

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

/** The error a job failed with, as the class the host's callers know. */
function rebuilt(e: SentError): Error {
  switch (e.name) {
    case "StaleCommitError":
      return new StaleCommitError(e.message);
    case "SourceBusyError":
      return new SourceBusyError(e.file ?? "", e.detail ?? e.message);
    case "BackupRefusal":
      return new BackupRefusal(e.message);
    case "SessionLockedError":
      return new SessionLockedError(e.sessionId ?? "");
    case "SessionLookupError":
      return new SessionLookupError(e.message);
    case "StoreError":
      return new StoreError(e.message, e.kind);
    case "WriteFailedError":
      return new WriteFailedError(e.message, e.code ?? "");
    default: {
      // any other Bonsai error keeps its kind (a busy session, a read-only one …), so hosts map it alike
      const err = fromWireError(e);
      if (e.code !== undefined && !(err instanceof BonsaiError)) (err as NodeJS.ErrnoException).code = e.code;
      return err;
    }
  }
}

export interface WorkerStoreJobsOptions {
  /** the module the worker runs: one that passes its messages to handleStoreMessage */
  url: URL;
  dbPath: string;
  nativeBinding?: string;
  writeThrough: boolean;
  /** announces the worker store's events on the host's store */
  relay: <K extends StoreEventName>(event: K, payload: StoreEvents[K]) => void;
  execArgv?: string[];
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: CallControl["onProgress"];
}

/** The caller's signal and progress callback taken out of the arguments (they cannot be posted), and where they were. */
function detachControl(args: readonly unknown[]): { args: unknown[]; index?: number; control: CallControl } {
  const index = args.findIndex((a) => typeof a === "object" && a !== null && ("signal" in a || "onProgress" in a));
  if (index < 0) return { args: [...args], control: {} };
  const { signal, onProgress, ...rest } = args[index] as CallControl & Record<string, unknown>;
  const out = [...args];
  out[index] = rest;
  return { args: out, index, control: { signal, onProgress } };
}

export class WorkerStoreJobs implements StoreJobs {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  /** files with a sync waiting or running, and those changed again since it started */
  readonly #syncing = new Set<string>();
  readonly #again = new Set<string>();

  constructor(private readonly options: WorkerStoreJobsOptions) {}

  #spawn(): Worker {
    const worker = spawnModuleWorker(this.options.url, this.options.execArgv);
    worker.on("message", (m: FromWorker) => this.#receive(m));
    const fail = (error: Error): void => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const [id, p] of this.#pending) {
        this.#pending.delete(id);
        p.reject(new StoreError(`the store worker stopped: ${error.message}`));
      }
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!this.#closed) fail(new Error(`exited with code ${code}`));
    });
    worker.unref();
    return worker;
  }

  #receive(m: FromWorker): void {
    if (m.kind === "store-event") {
      this.options.relay(m.name, m.payload);
      return;
    }
    if (m.kind === "store-progress") {
      this.#pending.get(m.id)?.onProgress?.(m.progress);
      return;
    }
    if (m.kind !== "store-result") return;
    const p = this.#pending.get(m.id);
    if (!p) return;
    this.#pending.delete(m.id);
    if (this.#pending.size === 0) this.#worker?.unref();
    if (m.ok) p.resolve(m.value);
    else p.reject(rebuilt(m.error));
  }

  call<M extends Operation>(method: M, ...callArgs: OperationArgs<M>): Promise<OperationResult<M>> {
    if (this.#closed) return Promise.reject(new StoreError("the store worker is closed"));
    const { args, index, control: options } = detachControl(callArgs);
    const cancel = new SharedArrayBuffer(4);
    const flag = new Int32Array(cancel);
    const abort = (): void => void Atomics.store(flag, 0, 1);
    if (options.signal?.aborted) abort();
    options.signal?.addEventListener("abort", abort, { once: true });
    const worker = (this.#worker ??= this.#spawn());
    const id = this.#nextId++;
    return new Promise<OperationResult<M>>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress: options.onProgress });
      const message: ToWorker = { kind: "store-call", id, dbPath: this.options.dbPath, writeThrough: this.options.writeThrough, method, args, cancel };
      if (index !== undefined) message.control = index;
      if (this.options.nativeBinding) message.nativeBinding = this.options.nativeBinding;
      worker.ref();
      worker.postMessage(message);
    }).finally(() => options.signal?.removeEventListener("abort", abort));
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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    const closed = new Promise<void>((resolve) => {
      worker.on("message", (m: FromWorker) => {
        if (m.kind === "store-closed") resolve();
      });
      worker.on("exit", () => resolve());
    });
    worker.ref();
    worker.postMessage({ kind: "store-close" } satisfies ToWorker);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id);
      p.reject(new StoreError("the store worker is closed"));
    }
    await worker.terminate();
  }
}
