/**
 * The worker's side of store calls, on a real database: a `{method, args}` message calls only the
 * store's declared operations, and an options argument's progress reaches the caller.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { handleStoreMessage } from "../src/jobs/worker";
import type { FromWorker, ToWorker } from "../src/jobs/protocol";
import { openStore } from "../src/index";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-jobs-call-"));
  dirs.push(dir);
  return dir;
}

/** posts one call to the worker side and collects what it answers until its result */
function post(dbPath: string, method: string, args: unknown[], control?: number): Promise<FromWorker[]> {
  return new Promise((resolve) => {
    const got: FromWorker[] = [];
    const message = { kind: "store-call", id: 1, dbPath, writeThrough: false, method, args, control, cancel: new SharedArrayBuffer(4) } as ToWorker;
    handleStoreMessage(message, (m) => {
      got.push(m);
      if (m.kind === "store-result") resolve(got);
    });
  });
}

function close(): Promise<void> {
  return new Promise((resolve) => handleStoreMessage({ kind: "store-close" }, (m) => m.kind === "store-closed" && resolve()));
}

describe("store calls on the worker side", () => {
  it("refuse a name that is not one of the store's operations (a store method left off the list included), with a clear sentence", async () => {
    const dir = tmp();
    try {
      for (const name of ["close", "constructor", "__proto__", "toString"]) {
        const [result] = await post(path.join(dir, "bonsai.db"), name, []);
        expect(result).toMatchObject({ kind: "store-result", ok: false, error: { name: "StoreError", message: `the store has no operation ${JSON.stringify(name)}` } });
      }
    } finally {
      await close();
    }
  });

  it("call a store method by name with its arguments, and send an options argument's progress back", async () => {
    const dir = tmp();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 200, seed: 3 })));
    const dbPath = path.join(dir, "bonsai.db");
    try {
      const got = await post(dbPath, "importFile", [file, {}], 1);
      const result = got.at(-1);
      expect(result).toMatchObject({ kind: "store-result", ok: true, value: { entriesAdded: 200 } });
      expect(got.some((m) => m.kind === "store-progress")).toBe(true);
    } finally {
      await close();
    }
    const store = openStore({ path: dbPath });
    try {
      expect(store.listSessions()).toHaveLength(1);
    } finally {
      store.close();
    }
  });

});
