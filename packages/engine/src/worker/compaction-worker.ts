/**
 * The engine's worker entry (the bundled compaction-worker.mjs / out/main/compaction-worker.js):
 * exposes the planner (worker/planner-module.ts: compaction plans and a session's amnesia report
 * over the worker's own read-only SQLite connection) through the one worker RPC. The planner's code
 * loads with the first job, so that the worker's start stays short.
 */
import { exposeOnWorker } from "@bonsai/store/worker-rpc";
import type { PlannerWorkerData } from "../planner";

exposeOnWorker(async ({ workerData }) => (await import("./planner-module")).openPlannerModule(workerData as PlannerWorkerData));
