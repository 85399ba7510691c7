/**
 * The worker side of store calls: a host's worker thread passes every message it gets to
 * `handleStoreMessage`, which calls the named operation (jobs/operations.ts) with its arguments.
 * Calls run one after the other on the worker's own connection to the database
 * (WAL: the host's connection keeps reading meanwhile), with the file-side rules of src/source/ as on
 * any store. The store's events go back to the host (which announces them on its own store), and so
 * does progress; a call is cancelled through a shared flag the store's checks read between blocks.
 */
import { toWireError } from "@bonsai/core";
import { openDatabase } from "../database";
import { SqliteSessionStore } from "../sqlite-session-store";
import { StoreError, type StoreEventName } from "../session-store";
import { callOperation, isOperation, storeOperations, type StoreOperations } from "./operations";
import type { CallControl, FromWorker, SentError, ToWorker } from "./protocol";

const EVENTS: StoreEventName[] = ["entries-added", "session-updated", "follow-error"];

interface Open {
  store: SqliteSessionStore;
  operations: StoreOperations;
  key: string;
}

let open: Open | undefined;
let queue: Promise<void> = Promise.resolve();

type Call = Extract<ToWorker, { kind: "store-call" }>;

function operationsFor(message: Call, post: (m: FromWorker) => void): StoreOperations {
  const key = `${message.dbPath}\n${message.nativeBinding ?? ""}\n${message.writeThrough}`;
  if (open?.key === key) return open.operations;
  open?.store.close();
  const store = new SqliteSessionStore(openDatabase({ path: message.dbPath, nativeBinding: message.nativeBinding }), undefined, { writeThrough: message.writeThrough });
  for (const name of EVENTS) store.on(name, (payload) => post({ kind: "store-event", name, payload }));
  open = { store, operations: storeOperations(store), key };
  return open.operations;
}

function sent(err: unknown): SentError {
  const out: SentError = toWireError(err);
  const { file, detail, code, sessionId } = (err ?? {}) as { file?: unknown; detail?: unknown; code?: unknown; sessionId?: unknown };
  if (typeof file === "string") out.file = file;
  if (typeof code === "string") out.code = code;
  if (typeof detail === "string") out.detail = detail;
  if (typeof sessionId === "string") out.sessionId = sessionId;
  return out;
}

/** Handles a store message (true) or leaves it to the worker's other duties (false). */
export function handleStoreMessage(message: unknown, post: (m: FromWorker) => void): boolean {
  const m = message as ToWorker;
  if (m?.kind === "store-close") {
    queue = queue.then(() => {
      open?.store.close();
      open = undefined;
      post({ kind: "store-closed" });
    });
    return true;
  }
  if (m?.kind !== "store-call") return false;
  const flag = new Int32Array(m.cancel);
  // read by the store's checks while the job runs synchronously (no event loop turn needed)
  const signal = {
    get aborted(): boolean {
      return Atomics.load(flag, 0) !== 0;
    },
  } as AbortSignal;
  queue = queue.then(async () => {
    try {
      const operations = operationsFor(m, post);
      if (!isOperation(operations, m.method)) throw new StoreError(`the store has no operation ${JSON.stringify(m.method)}`);
      const control: CallControl = { signal, onProgress: (progress) => post({ kind: "store-progress", id: m.id, progress }) };
      const args = [...m.args];
      if (m.control !== undefined) args[m.control] = { ...(args[m.control] as object), ...control };
      const value = await callOperation(operations, m.method, args as never);
      post({ kind: "store-result", id: m.id, ok: true, value });
    } catch (err) {
      post({ kind: "store-result", id: m.id, ok: false, error: sent(err) });
    }
  });
  return true;
}
