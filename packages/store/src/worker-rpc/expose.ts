/**
 * The worker side of the one worker RPC: a worker entry calls `exposeOnWorker(load)` once, and every
 * call a WorkerRpc client posts runs the named function of the module `load` gives (loaded with
 * the first call, from the worker's `workerData`). Calls run one after the other; an options
 * argument gets a signal read from the caller's shared cancel flag and an `onProgress` that posts.
 * Errors go back as WireErrors (their registered class and kind rebuilt on the caller's side).
 */
import { parentPort, workerData } from "node:worker_threads";
import { BonsaiError, toWireError } from "@bonsai/core";
import type { CallControl, RpcReply, RpcRequest } from "./messages";

export interface ExposeContext {
  /** what the caller gave the worker when it started it (WorkerRpcOptions.workerData) */
  workerData: unknown;
  /** posts an event to the caller (WorkerRpcOptions.onEvent) */
  emit(name: string, payload: unknown): void;
}

export interface Exposed<M> {
  module: M;
  /** runs when the caller closes the worker, before it is terminated */
  dispose?: () => void;
}

/** The function `name` of the module, or a refusal. */
function functionOf(module: object, name: string): (...args: unknown[]) => unknown {
  const fn = Object.hasOwn(module, name) ? (module as Record<string, unknown>)[name] : undefined;
  if (typeof fn !== "function") throw new BonsaiError("invalid", `the worker has no function ${JSON.stringify(name)}`);
  return fn as (...args: unknown[]) => unknown;
}

/** A signal read from a shared flag while the call runs synchronously (no event loop turn needed). */
function sharedSignal(cancel: SharedArrayBuffer): AbortSignal {
  const flag = new Int32Array(cancel);
  return {
    get aborted(): boolean {
      return Atomics.load(flag, 0) !== 0;
    },
  } as AbortSignal;
}

/** Exposes a module's functions to the thread that started this worker. */
export function exposeOnWorker<M extends object>(load: (context: ExposeContext) => Exposed<M> | Promise<Exposed<M>>): void {
  const port = parentPort;
  if (!port) throw new Error("exposeOnWorker runs only on a worker thread");
  const post = (reply: RpcReply): void => port.postMessage(reply);
  const context: ExposeContext = { workerData, emit: (name, payload) => post({ rpc: "event", name, payload }) };
  let loaded: Promise<Exposed<M>> | undefined;
  let queue: Promise<void> = Promise.resolve();

  port.on("message", (request: RpcRequest) => {
    if (request.rpc === "close") {
      queue = queue.then(async () => {
        if (loaded) (await loaded.catch(() => undefined))?.dispose?.();
        post({ rpc: "closed" });
      });
      return;
    }
    if (request.rpc !== "call") return;
    queue = queue.then(async () => {
      try {
        const attempt = (loaded ??= Promise.resolve().then(() => load(context)));
        // a module that failed to load is loaded again by the next call (the database may open then)
        attempt.catch(() => {
          if (loaded === attempt) loaded = undefined;
        });
        const { module } = await attempt;
        const args = [...request.args];
        if (request.control !== undefined) {
          const control: CallControl = { signal: sharedSignal(request.cancel), onProgress: (progress) => post({ rpc: "progress", id: request.id, progress }) };
          args[request.control] = { ...(args[request.control] as object), ...control };
        }
        const value = await functionOf(module, request.name)(...args);
        post({ rpc: "result", id: request.id, ok: true, value });
      } catch (error) {
        post({ rpc: "result", id: request.id, ok: false, error: toWireError(error) });
      }
    });
  });
}
