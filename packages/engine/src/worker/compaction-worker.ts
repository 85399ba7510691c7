/**
 * The host's worker thread (the bundled compaction-worker.mjs / out/main/compaction-worker.js).
 * Compaction planning: loads a branch through its own read-only SQLite connection (WAL lets it read
 * while the main side writes), plans the compaction and serializes the conversation texts, so the
 * host's main thread only receives the result; likewise a session's amnesia report. Connections are
 * cached per database file.
 * Store jobs (imports, followed files, exports, pruning rewrites; @bonsai/store jobs/) run in a
 * worker of their own started from this same file: its messages go to handleStoreMessage. A team
 * archive's amnesia rows (`{t: "amnesia-row"}`: a session's entries as JSON lines, core
 * amnesiaRowOfLines) are scored in one more worker of this file, started by `team serve`.
 */
import { parentPort } from "node:worker_threads";
import { amnesiaRowOfLines, toWireError, type AmnesiaSessionInfo } from "@bonsai/core";
import { handleStoreMessage, openDatabase, SessionLookupError, SqliteSessionStore } from "@bonsai/store";
import type * as Planner from "../planner";
import type { WorkerJob, WorkerReply } from "../planner";

/**
 * The planner (engine code and what it bundles with it) loads with the first planning job: a store
 * worker never needs it, and its start (which runs beside the backend's first answers) stays short
 */
let planner: Promise<typeof Planner> | undefined;

const readers = new Map<string, SqliteSessionStore>();

function reader(dbPath: string, nativeBinding?: string): SqliteSessionStore {
  let store = readers.get(dbPath);
  if (!store) {
    store = new SqliteSessionStore(openDatabase({ path: dbPath, nativeBinding, readonly: true }));
    readers.set(dbPath, store);
  }
  return store;
}

async function plan(job: WorkerJob): Promise<WorkerReply> {
  try {
    const { runTask } = await (planner ??= import("../planner"));
    const store = reader(job.dbPath, job.nativeBinding);
    if (!store.getSession(job.task.request.sessionId)) throw new SessionLookupError(`Session ${job.task.request.sessionId} not found`);
    return { id: job.id, ok: true, result: runTask(store, job.task) };
  } catch (error) {
    return { id: job.id, ok: false, error: toWireError(error) };
  }
}

interface AmnesiaRowJob {
  t: "amnesia-row";
  id: number;
  info: AmnesiaSessionInfo;
  lines: string[];
}

function isAmnesiaRowJob(message: unknown): message is AmnesiaRowJob {
  return (message as { t?: unknown } | null)?.t === "amnesia-row";
}

parentPort?.on("message", (job: WorkerJob | AmnesiaRowJob) => {
  if (isAmnesiaRowJob(job)) {
    try {
      parentPort?.postMessage({ t: "amnesia-row", id: job.id, ok: true, row: amnesiaRowOfLines(job.info, job.lines) });
    } catch (error) {
      parentPort?.postMessage({ t: "amnesia-row", id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  if (handleStoreMessage(job, (m) => parentPort?.postMessage(m))) return;
  void plan(job).then((reply) => parentPort?.postMessage(reply));
});
