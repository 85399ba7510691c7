/**
 * The CPU part of a compaction: load the branch, plan it (core prepareCompaction) and serialize the
 * conversation texts. `InlinePlanner` does it on the calling thread (CLI, tests); `WorkerPlanner`
 * hands it to a pool of worker threads that open their own read-only connection to the SQLite file
 * (WAL), so the host's main thread never blocks on a large session. The store on the main side stays
 * the single writer. The same pool computes a session's amnesia report (core amnesiaReport over all
 * its entries), the other read of a whole session that should not hold the host's thread.
 */
import { WorkerRpc } from "@bonsai/store/worker-rpc";
import { amnesiaReport, prepareCompaction, type AmnesiaReport, type CompactionPreparation, type CompactionSettings, type SessionEntry } from "@bonsai/core";
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

/** What the planner's worker (worker/compaction-worker.ts) is given when it starts. */
export interface PlannerWorkerData {
  dbPath: string;
  nativeBinding?: string;
}

/** The functions the planner's worker exposes (worker/planner-module.ts), called through the one worker RPC. */
export interface PlannerModule {
  plan(request: PlanRequest): CompactionPlan;
  amnesia(request: AmnesiaRequest): AmnesiaReport;
}

export interface WorkerPlannerOptions {
  /** compaction-worker.mjs (bundled), or compaction-worker.ts (tests, dev: loaded through tsx) */
  workerUrl: URL;
  dbPath: string;
  nativeBinding?: string;
  /** number of worker threads (default 2) */
  size?: number;
  execArgv?: string[];
}

/** Plans on a pool of worker threads, each with its own read-only connection to the database. */
export class WorkerPlanner implements CompactionPlanner {
  readonly #rpc: WorkerRpc<PlannerModule>;

  constructor(options: WorkerPlannerOptions) {
    const workerData: PlannerWorkerData = { dbPath: options.dbPath };
    if (options.nativeBinding) workerData.nativeBinding = options.nativeBinding;
    this.#rpc = new WorkerRpc<PlannerModule>({
      url: options.workerUrl,
      workerData,
      size: options.size ?? 2,
      label: "the compaction worker",
      ...(options.execArgv ? { execArgv: options.execArgv } : {}),
    });
  }

  plan(request: PlanRequest): Promise<CompactionPlan> {
    return this.#rpc.call("plan", request);
  }

  amnesia(request: AmnesiaRequest): Promise<AmnesiaReport> {
    return this.#rpc.call("amnesia", request);
  }

  close(): Promise<void> {
    return this.#rpc.close();
  }
}
