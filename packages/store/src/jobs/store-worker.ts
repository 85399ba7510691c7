/**
 * The store's worker entry (bundled as store-worker.mjs / out/main/store-worker.js): exposes the
 * store's operations (jobs/operations.ts) through the one worker RPC, over the worker's own
 * read-write connection to the database (WAL: the host's connection keeps reading meanwhile), with
 * the file-side rules of src/source/ as on any store. The store's events go back to the host, which
 * announces them on its own store.
 */
import { exposeOnWorker } from "../worker-rpc/expose";
import { openStoreOperations, type StoreWorkerData } from "./store-module";

exposeOnWorker(({ workerData, emit }) => openStoreOperations(workerData as StoreWorkerData, emit));
