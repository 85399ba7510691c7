/**
 * Compaction worker thread: loads a branch through its own read-only SQLite connection (WAL lets it
 * read while the main side writes), plans the compaction and serializes the conversation texts, so
 * the host's main thread only receives the result. Connections are cached per database file.
 */
import { parentPort } from "node:worker_threads";
import { openDatabase, SqliteSessionStore } from "@bonsai/store";
import { planFromPath, type WorkerJob, type WorkerReply } from "../planner";

const readers = new Map<string, SqliteSessionStore>();

function reader(dbPath: string, nativeBinding?: string): SqliteSessionStore {
  let store = readers.get(dbPath);
  if (!store) {
    store = new SqliteSessionStore(openDatabase({ path: dbPath, nativeBinding, readonly: true }));
    readers.set(dbPath, store);
  }
  return store;
}

parentPort?.on("message", (job: WorkerJob) => {
  let reply: WorkerReply;
  try {
    const store = reader(job.dbPath, job.nativeBinding);
    if (!store.getSession(job.request.sessionId)) throw new Error(`Session ${job.request.sessionId} not found`);
    const path = store.getPath(job.request.sessionId, job.request.leafId);
    reply = { id: job.id, ok: true, plan: planFromPath(path, job.request) };
  } catch (error) {
    reply = { id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
