/**
 * The one worker RPC (src/worker-rpc/) on real worker threads: calls typed by the exposed module,
 * errors arriving as their registered class with their kind and fields, progress and cancel across
 * the boundary, events, a pool of workers, and a worker that dies.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BonsaiError } from "@bonsai/core";
import { SourceBusyError, StaleCommitError, StoreError } from "../src/store-errors";
import { WorkerRpc } from "../src/worker-rpc/client";
import type { RpcTestModule } from "./workers/rpc-test-worker";

const url = new URL("./workers/rpc-test-worker.ts", import.meta.url);
const open: WorkerRpc<RpcTestModule>[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((rpc) => rpc.close()));
});

function rpc(options: { size?: number; onEvent?: (name: string, payload: unknown) => void; workerData?: unknown } = {}): WorkerRpc<RpcTestModule> {
  const client = new WorkerRpc<RpcTestModule>({ url, label: "the test worker", ...options });
  open.push(client);
  return client;
}

describe("the worker RPC", () => {
  it("calls a module's functions by name with their arguments, and through an Async proxy", async () => {
    const client = rpc();
    expect(await client.call("add", 2, 3)).toBe(5);
    const api = client.proxy();
    expect(await api.later("answer")).toBe("answer");
    expect(await api.add(40, 2)).toBe(42);
  });

  it("rebuilds a typed error thrown on the worker as the same class, with its kind and fields", async () => {
    const client = rpc();
    const stale = await client.call("stale", "the leaf moved").catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(StaleCommitError);
    expect(stale).toBeInstanceOf(StoreError);
    expect(stale).toMatchObject({ name: "StaleCommitError", kind: "stale", message: "the leaf moved" });
    const busy = await client.call("busy", "/tmp/s.jsonl", "locked by pi").catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(SourceBusyError);
    expect(busy).toMatchObject({ kind: "busy", file: "/tmp/s.jsonl", detail: "locked by pi" });
    const plain = await client.call("plain").catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(Error);
    expect(plain).not.toBeInstanceOf(BonsaiError);
    expect(plain).toMatchObject({ message: "the disk said no", code: "EIO" });
  });

  it("refuses a name the module does not expose, with a clear sentence", async () => {
    const client = rpc();
    for (const name of ["constructor", "__proto__", "toString", "missing"]) {
      const err = await (client.call as (n: string) => Promise<unknown>)(name).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BonsaiError);
      expect(err).toMatchObject({ kind: "invalid", message: `the worker has no function ${JSON.stringify(name)}` });
    }
  });

  it("sends progress back and reads the caller's abort while the call runs", async () => {
    const client = rpc();
    const seen: number[] = [];
    expect(await client.call("count", 5, { onProgress: (i: number) => seen.push(i) })).toBe(5);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    const abort = new AbortController();
    const counted = client.call("count", 1_000_000, {
      signal: abort.signal,
      onProgress: (i: number) => {
        if (i === 1) abort.abort();
      },
    });
    expect(await counted).toBeLessThan(1_000_000);
  });

  it("passes workerData to the module's loader once, and the module's events to onEvent", async () => {
    const events: [string, unknown][] = [];
    const client = rpc({ workerData: { db: "x.db" }, onEvent: (name, payload) => events.push([name, payload]) });
    await client.call("add", 1, 1);
    expect(await client.call("loads")).toBe(1);
    expect(events).toEqual([["loaded", { db: "x.db" }]]);
  });

  it("runs calls on up to `size` workers at once", async () => {
    const client = rpc({ size: 2 });
    const threads = await Promise.all([client.call("hold", 200), client.call("hold", 200), client.call("hold", 200)]);
    expect(new Set(threads).size).toBe(2);
  });

  it("refuses the call a dying worker held, and starts a new worker for the next call", async () => {
    const client = rpc();
    const died = await client.call("die").catch((e: unknown) => e);
    expect(died).toBeInstanceOf(BonsaiError);
    expect((died as BonsaiError).message).toMatch(/^the test worker stopped: exited with code 3/);
    expect(await client.call("add", 1, 2)).toBe(3);
  });

  it("lets calls already made finish on close, and refuses calls after it", async () => {
    const client = rpc();
    const pending = client.call("later", "finished");
    await client.close();
    expect(await pending).toBe("finished");
    await expect(client.call("add", 1, 1)).rejects.toMatchObject({ kind: "unavailable", message: "the test worker is closed" });
  });
});
