/**
 * The caller's side of the one worker RPC: `WorkerRpc<M>` calls the functions of a module a worker
 * exposes (expose.ts), typed by the module's type: `rpc.call("plan", request)`, or through
 * `rpc.proxy()`, an `Async<M>`. Workers start with the first call (up to `size`, one call at a time
 * each, the rest waiting in order), do not keep the process alive while idle, and a worker that
 * fails refuses the calls it held and is replaced by the next call. Errors arrive as their
 * registered class with their kind (core's fromWireError); an options argument's `signal` and
 * `onProgress` work across the thread boundary.
 */
import type { Worker } from "node:worker_threads";
import { BonsaiError, fromWireError } from "@bonsai/core";
import type { Async } from "../async";
import type { CallControl, RpcArgs, RpcName, RpcReply, RpcRequest, RpcResult } from "./messages";
import { spawnModuleWorker } from "./spawn";

export interface WorkerRpcOptions<M extends object = object> {
  /** the worker entry: a module that calls exposeOnWorker (bundled .mjs/.js, or .ts through tsx) */
  url: URL;
  /** given to the exposed module's loader (ExposeContext.workerData) */
  workerData?: unknown;
  /** worker threads at most (default 1) */
  size?: number;
  /** events the exposed module emits */
  onEvent?: (name: string, payload: unknown) => void;
  /** what the worker is, in the error a failed worker gives ("the store worker") */
  label?: string;
  execArgv?: string[];
  /**
   * per function of the module, what rebuilds its answer on this side: a structured clone keeps an
   * object's fields, not its class (an IdList arrives without its methods)
   */
  revive?: { readonly [K in RpcName<M>]?: (value: RpcResult<M, K>) => RpcResult<M, K> };
}

interface Call {
  request: Extract<RpcRequest, { rpc: "call" }>;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: unknown) => void;
}

interface Slot {
  worker: Worker;
  running: Call | undefined;
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

export class WorkerRpc<M extends object> {
  readonly #slots: Slot[] = [];
  readonly #queue: Call[] = [];
  #nextId = 1;
  #closed = false;
  /** set once close() has let the calls made before it finish: nothing more is posted */
  #closing = false;
  /** close() waiting for the calls made before it */
  #idle: (() => void) | undefined;
  readonly #label: string;

  constructor(private readonly options: WorkerRpcOptions<M>) {
    this.#label = options.label ?? "the worker";
  }

  /** Calls the exposed module's function `name` on a worker thread. */
  call<K extends RpcName<M>>(name: K, ...callArgs: RpcArgs<M, K>): Promise<RpcResult<M, K>> {
    if (this.#closed) return Promise.reject(new BonsaiError("unavailable", `${this.#label} is closed`));
    const { args, index, control } = detachControl(callArgs);
    const cancel = new SharedArrayBuffer(4);
    const abort = (): void => void Atomics.store(new Int32Array(cancel), 0, 1);
    if (control.signal?.aborted) abort();
    control.signal?.addEventListener("abort", abort, { once: true });
    return new Promise<RpcResult<M, K>>((resolve, reject) => {
      const request: Call["request"] = { rpc: "call", id: this.#nextId++, name, args, cancel };
      if (index !== undefined) request.control = index;
      const revive = this.options.revive?.[name] as ((value: unknown) => unknown) | undefined;
      const settle = revive ? (value: unknown) => resolve(revive(value) as RpcResult<M, K>) : (resolve as (v: unknown) => void);
      this.#queue.push({ request, resolve: settle, reject, onProgress: control.onProgress as ((p: unknown) => void) | undefined });
      this.#drain();
    }).finally(() => control.signal?.removeEventListener("abort", abort));
  }

  /** The module as an object of asynchronous functions (each a `call`). */
  proxy(): Async<M> {
    return new Proxy({} as Async<M>, {
      get: (_target, name) => (typeof name === "string" ? (...args: unknown[]) => (this.call as (n: string, ...a: unknown[]) => Promise<unknown>)(name, ...args) : undefined),
    });
  }

  #spawn(): Slot {
    const worker = spawnModuleWorker(this.options.url, this.options.execArgv, this.options.workerData);
    const slot: Slot = { worker, running: undefined };
    worker.unref();
    worker.on("message", (reply: RpcReply) => this.#receive(slot, reply));
    const fail = (error: Error): void => {
      const i = this.#slots.indexOf(slot);
      if (i >= 0) this.#slots.splice(i, 1);
      const held = slot.running;
      slot.running = undefined;
      held?.reject(new BonsaiError("unavailable", `${this.#label} stopped: ${error.message}`));
      this.#drain();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!this.#closed) fail(new Error(`exited with code ${code}`));
    });
    this.#slots.push(slot);
    return slot;
  }

  #receive(slot: Slot, reply: RpcReply): void {
    if (reply.rpc === "event") return this.options.onEvent?.(reply.name, reply.payload);
    const call = slot.running;
    if (reply.rpc === "progress") {
      if (call?.request.id === reply.id) call.onProgress?.(reply.progress);
      return;
    }
    if (reply.rpc !== "result" || call?.request.id !== reply.id) return;
    slot.running = undefined;
    if (reply.ok) call.resolve(reply.value);
    else call.reject(fromWireError(reply.error));
    this.#drain();
  }

  #drain(): void {
    while (this.#queue.length > 0 && !this.#closing) {
      let slot = this.#slots.find((s) => !s.running);
      if (!slot && this.#slots.length < (this.options.size ?? 1)) slot = this.#spawn();
      if (!slot) break;
      const call = this.#queue.shift() as Call;
      slot.running = call;
      slot.worker.ref();
      slot.worker.postMessage(call.request);
    }
    for (const s of this.#slots) if (!s.running) s.worker.unref();
    if (this.#idle && this.#queue.length === 0 && this.#slots.every((s) => !s.running)) this.#idle();
  }

  /**
   * Lets the calls already made finish (up to 5 s), then has each worker dispose of its module and
   * stops it; calls made after close are refused.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const limit = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
    await Promise.race([new Promise<void>((resolve) => ((this.#idle = resolve), this.#drain())), limit(5000)]);
    this.#closing = true;
    for (const call of this.#queue.splice(0)) call.reject(new BonsaiError("unavailable", `${this.#label} is closed`));
    await Promise.all(
      this.#slots.splice(0).map(async (slot) => {
        const closed = new Promise<void>((resolve) => {
          slot.worker.on("message", (reply: RpcReply) => reply.rpc === "closed" && resolve());
          slot.worker.on("exit", () => resolve());
        });
        slot.worker.ref();
        slot.worker.postMessage({ rpc: "close" } satisfies RpcRequest);
        await Promise.race([closed, limit(5000)]);
        slot.running?.reject(new BonsaiError("unavailable", `${this.#label} is closed`));
        await slot.worker.terminate();
      }),
    );
  }
}
