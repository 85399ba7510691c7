/** The one worker RPC: a worker entry exposes a module (exposeOnWorker), a caller calls it (WorkerRpc). */
export { exposeOnWorker, type ExposeContext, type Exposed } from "./expose";
export { WorkerRpc, type WorkerRpcOptions } from "./client";
export { spawnModuleWorker, workerEntryUrl } from "./spawn";
export type { CallControl, RpcArgs, RpcName, RpcResult } from "./messages";
