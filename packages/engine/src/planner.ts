/**
 * The CPU part of a compaction: load the branch, plan it (core prepareCompaction) and serialize the
 * conversation texts. `InlinePlanner` does it on the calling thread (CLI, tests); `WorkerPlanner`
 * hands it to a pool of worker threads that open their own read-only connection to the SQLite file
 * (WAL), so the host's main thread never blocks on a large session. The store on the main side stays
 * the single writer. The same pool computes a session's amnesia report (core amnesiaReport over all
 * its entries), the other read of a whole session that should not hold the host's thread.
 */
import type { Worker } from "node:worker_threads";
import { spawnModuleWorker } from "@bonsai/store";
import { amnesiaReport, fromWireError, prepareCompaction, type AmnesiaReport, type WireError, type CompactionPreparation, type CompactionSettings, type SessionEntry } from "@bonsai/core";
import { serializePreparation, type SerializedPreparation } from "./compact";

export interface PlanRequest {
  sessionId: string;
  /** the leaf to plan from (the session's current leaf) */
  leafId: string | null;
  settings: CompactionSettings;
  /** also return the branch entries (for session_before_compact handlers) */
  withBranchEntries: boolean;
  /**
   * keep the preparation's message arrays (hooks read them); default true. A worker leaves them
   * out when false: the serialized texts and counts are all the summarization needs.
   */
  withMessages?: boolean;
}

export interface CompactionPlan {
  leafId: string | null;
  /** the last path entry is a compaction ("Already compacted") */
  lastEntryIsCompaction: boolean;
  pathLength: number;
  preparation?: CompactionPreparation;
  serialized?: SerializedPreparation;
  branchEntries?: SessionEntry[];
}

/** Plans a compaction of a loaded branch (root -> leaf). */
export function planFromPath(path: SessionEntry[], request: PlanRequest): CompactionPlan {
  const last = path[path.length - 1];
  const plan: CompactionPlan = { leafId: request.leafId, lastEntryIsCompaction: last?.type === "compaction", pathLength: path.length };
  const preparation = prepareCompaction(path, request.settings);
  if (preparation) {
    plan.serialized = serializePreparation(preparation);
    plan.preparation =
      request.withMessages === false ? { ...preparation, messagesToSummarize: [], turnPrefixMessages: [], recentMessages: [] } : preparation;
  }
  if (request.withBranchEntries) plan.branchEntries = path;
  return plan;
}

export interface AmnesiaRequest {
  sessionId: string;
  /** the leaf whose path prunings are read on (the session's current leaf) */
  leafId: string | null;
}

export interface CompactionPlanner {
  plan(request: PlanRequest): Promise<CompactionPlan>;
  /** the amnesia report of a whole session */
  amnesia(request: AmnesiaRequest): Promise<AmnesiaReport>;
  close(): Promise<void>;
}

export interface PathSource {
  getPath(sessionId: string, leafId?: string | null): SessionEntry[];
  getCompactionWindow(sessionId: string, leafId?: string | null): SessionEntry[];
  loadEntries(sessionId: string): SessionEntry[];
}

/**
 * The entries a plan reads: the compaction window (the path from its latest compaction; the same
 * plan as the whole path), or the whole path when hooks are given the branch entries.
 */
export function planEntries(source: PathSource, request: PlanRequest): SessionEntry[] {
  return request.withBranchEntries ? source.getPath(request.sessionId, request.leafId) : source.getCompactionWindow(request.sessionId, request.leafId);
}

/** What a worker (or the inline planner) computes for a job. */
export type WorkerTask = { kind: "plan"; request: PlanRequest } | { kind: "amnesia"; request: AmnesiaRequest };

export function runTask(source: PathSource, task: WorkerTask): CompactionPlan | AmnesiaReport {
  if (task.kind === "plan") return planFromPath(planEntries(source, task.request), task.request);
  return amnesiaReport(source.loadEntries(task.request.sessionId), task.request.leafId);
}

export class InlinePlanner implements CompactionPlanner {
  constructor(private readonly source: PathSource) {}

  async plan(request: PlanRequest): Promise<CompactionPlan> {
    return runTask(this.source, { kind: "plan", request }) as CompactionPlan;
  }

  async amnesia(request: AmnesiaRequest): Promise<AmnesiaReport> {
    return runTask(this.source, { kind: "amnesia", request }) as AmnesiaReport;
  }

  async close(): Promise<void> {}
}

/** Messages between the pool and a worker. */
export interface WorkerJob {
  id: number;
  dbPath: string;
  nativeBinding?: string;
  task: WorkerTask;
}
export type WorkerReply = { id: number; ok: true; result: CompactionPlan | AmnesiaReport } | { id: number; ok: false; error: WireError };

export interface WorkerPlannerOptions {
  /** compaction-worker.mjs (bundled), or compaction-worker.ts (tests, dev: loaded through tsx) */
  workerUrl: URL;
  dbPath: string;
  nativeBinding?: string;
  /** number of worker threads (default 2) */
  size?: number;
  execArgv?: string[];
}

interface Slot {
  worker: Worker;
  busy: boolean;
}

interface Pending {
  job: WorkerJob;
  resolve: (result: CompactionPlan | AmnesiaReport) => void;
  reject: (error: Error) => void;
}

export class WorkerPlanner implements CompactionPlanner {
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  readonly #running = new Map<number, { slot: Slot; pending: Pending }>();
  #nextId = 1;
  #closed = false;

  constructor(private readonly options: WorkerPlannerOptions) {}

  #spawn(): Slot {
    const worker = spawnModuleWorker(this.options.workerUrl, this.options.execArgv);
    const slot: Slot = { worker, busy: false };
    worker.unref();
    worker.on("message", (reply: WorkerReply) => {
      const running = this.#running.get(reply.id);
      if (!running) return;
      this.#running.delete(reply.id);
      slot.busy = false;
      if (reply.ok) running.pending.resolve(reply.result);
      else running.pending.reject(fromWireError(reply.error));
      this.#drain();
    });
    const fail = (error: Error) => {
      const i = this.#slots.indexOf(slot);
      if (i >= 0) this.#slots.splice(i, 1);
      for (const [id, running] of this.#running) {
        if (running.slot !== slot) continue;
        this.#running.delete(id);
        running.pending.reject(new Error(`compaction worker failed: ${error.message}`));
      }
      this.#drain();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!this.#closed) fail(new Error(`exited with code ${code}`));
    });
    this.#slots.push(slot);
    return slot;
  }

  #drain(): void {
    while (this.#queue.length > 0 && !this.#closed) {
      let slot = this.#slots.find((s) => !s.busy);
      if (!slot && this.#slots.length < (this.options.size ?? 2)) slot = this.#spawn();
      if (!slot) return;
      const pending = this.#queue.shift() as Pending;
      slot.busy = true;
      this.#running.set(pending.job.id, { slot, pending });
      slot.worker.ref();
      slot.worker.postMessage(pending.job);
    }
    for (const s of this.#slots) if (!s.busy) s.worker.unref();
  }

  #run(task: WorkerTask): Promise<CompactionPlan | AmnesiaReport> {
    if (this.#closed) return Promise.reject(new Error("the compaction worker pool is closed"));
    return new Promise((resolve, reject) => {
      const job: WorkerJob = { id: this.#nextId++, dbPath: this.options.dbPath, task };
      if (this.options.nativeBinding) job.nativeBinding = this.options.nativeBinding;
      this.#queue.push({ job, resolve, reject });
      this.#drain();
    });
  }

  async plan(request: PlanRequest): Promise<CompactionPlan> {
    return (await this.#run({ kind: "plan", request })) as CompactionPlan;
  }

  async amnesia(request: AmnesiaRequest): Promise<AmnesiaReport> {
    return (await this.#run({ kind: "amnesia", request })) as AmnesiaReport;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const p of this.#queue.splice(0)) p.reject(new Error("the compaction worker pool is closed"));
    await Promise.all(this.#slots.splice(0).map((s) => s.worker.terminate()));
  }
}
