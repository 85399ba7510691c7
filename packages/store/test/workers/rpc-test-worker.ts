/** A worker entry for the worker RPC's tests: functions that answer, throw typed errors, report progress, emit events, or kill the worker. */
import { threadId } from "node:worker_threads";
import { StaleCommitError, SourceBusyError } from "../../src/store-errors";
import { exposeOnWorker } from "../../src/worker-rpc/expose";
import type { CallControl } from "../../src/worker-rpc/messages";

let loads = 0;

export const rpcTestModule = {
  add(a: number, b: number): number {
    return a + b;
  },
  async later(value: string): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return value;
  },
  stale(message: string): never {
    throw new StaleCommitError(message);
  },
  busy(file: string, detail: string): never {
    throw new SourceBusyError(file, detail);
  },
  plain(): never {
    throw Object.assign(new Error("the disk said no"), { code: "EIO" });
  },
  /** counts to `n`, reporting each step; stops early when the caller aborts */
  count(n: number, options: CallControl<number> = {}): number {
    let i = 0;
    for (; i < n && !options.signal?.aborted; i++) {
      options.onProgress?.(i);
      if (i === 2) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
    return i;
  },
  /** the worker's thread id, after `ms` of blocking it */
  hold(ms: number): number {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    return threadId;
  },
  loads(): number {
    return loads;
  },
  die(): never {
    process.exit(3);
  },
};

export type RpcTestModule = typeof rpcTestModule;

exposeOnWorker(({ workerData, emit }) => {
  loads++;
  emit("loaded", workerData);
  return { module: rpcTestModule };
});
