/**
 * The worker side of store jobs: a host's worker thread passes every message it gets to
 * `handleStoreMessage`. Jobs run one after the other on the worker's own connection to the database
 * (WAL: the host's connection keeps reading meanwhile), with the file-side rules of src/source/ as on
 * any store. The store's events go back to the host (which announces them on its own store), and so
 * does progress; a job is cancelled through a shared flag the job's checks read between blocks.
 */
import { toWireError } from "@bonsai/core";
import { openDatabase } from "../database";
import { SqliteSessionStore } from "../sqlite-session-store";
import type { StoreEventName } from "../session-store";
import type { FromWorker, SentError, ToWorker } from "./protocol";
import { runStoreJob } from "./run";

const EVENTS: StoreEventName[] = ["entries-added", "session-updated", "follow-error"];

interface Open {
  store: SqliteSessionStore;
  key: string;
}

let open: Open | undefined;
let queue: Promise<void> = Promise.resolve();

function storeFor(message: Extract<ToWorker, { kind: "store-job" }>, post: (m: FromWorker) => void): SqliteSessionStore {
  const key = `${message.dbPath}\n${message.nativeBinding ?? ""}\n${message.writeThrough}`;
  if (open?.key === key) return open.store;
  open?.store.close();
  const store = new SqliteSessionStore(openDatabase({ path: message.dbPath, nativeBinding: message.nativeBinding }), undefined, { writeThrough: message.writeThrough });
  for (const name of EVENTS) store.on(name, (payload) => post({ kind: "store-event", name, payload }));
  open = { store, key };
  return store;
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
  if (m?.kind !== "store-job") return false;
  const flag = new Int32Array(m.cancel);
  // read by the store's checks while the job runs synchronously (no event loop turn needed)
  const signal = {
    get aborted(): boolean {
      return Atomics.load(flag, 0) !== 0;
    },
  } as AbortSignal;
  queue = queue.then(async () => {
    try {
      const store = storeFor(m, post);
      const value = await runStoreJob(store, m.job, { signal, onProgress: (progress) => post({ kind: "store-progress", id: m.id, progress }) });
      post({ kind: "store-result", id: m.id, ok: true, value });
    } catch (err) {
      post({ kind: "store-result", id: m.id, ok: false, error: sent(err) });
    }
  });
  return true;
}
