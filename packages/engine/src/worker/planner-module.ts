/**
 * What the planner's worker exposes: a compaction plan and a session's amnesia report, read through
 * the worker's own read-only connection (WAL lets it read while the host's store writes).
 */
import { openDatabase, SessionLookupError, SqliteSessionStore, type Exposed } from "@bonsai/store";
import { runTask, type PlannerModule, type PlannerWorkerData, type WorkerTask } from "../planner";
import type { AmnesiaReport } from "@bonsai/core";
import type { CompactionPlan } from "../planner";

export function openPlannerModule(data: PlannerWorkerData): Exposed<PlannerModule> {
  const store = new SqliteSessionStore(openDatabase({ path: data.dbPath, nativeBinding: data.nativeBinding, readonly: true }));
  const run = (task: WorkerTask): CompactionPlan | AmnesiaReport => {
    if (!store.getSession(task.request.sessionId)) throw new SessionLookupError(`Session ${task.request.sessionId} not found`);
    return runTask(store, task);
  };
  return {
    module: {
      plan: (request) => run({ kind: "plan", request }) as CompactionPlan,
      amnesia: (request) => run({ kind: "amnesia", request }) as AmnesiaReport,
    },
    dispose: () => store.close(),
  };
}
