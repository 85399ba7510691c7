/**
 * The team archive's worker entry (bundled as amnesia-worker.mjs beside the CLI): exposes the
 * scoring of one archived session for the amnesia report over many sessions (core
 * amnesiaRowOfLines) through the one worker RPC, started by `team serve` (WorkerAmnesiaScorer).
 */
import { exposeOnWorker } from "@bonsai/store/worker-rpc";
import { amnesiaScoring } from "../amnesia-scoring";

exposeOnWorker(() => ({ module: amnesiaScoring }));
