/**
 * Starts a worker thread from a module URL: the bundled JavaScript as it is, or (tests, development)
 * the TypeScript source through tsx, registered inside the worker before the module loads.
 */
import { Worker } from "node:worker_threads";

export function spawnModuleWorker(url: URL, execArgv: string[] = [], workerData?: unknown): Worker {
  if (!url.pathname.endsWith(".ts")) return new Worker(url, { execArgv, workerData });
  const tsx = import.meta.resolve("tsx/esm/api");
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`, { eval: true, execArgv, workerData });
}

/**
 * A package's worker entry: in a bundle, the file `name` beside another bundled worker entry (same
 * extension: dist/store-worker.mjs beside dist/compaction-worker.mjs); from the sources (tests,
 * development), the entry's TypeScript `source`.
 */
export function workerEntryUrl(name: string, source: URL, beside?: URL): URL {
  if (!beside || beside.pathname.endsWith(".ts")) return source;
  const ext = /\.[cm]?js$/.exec(beside.pathname)?.[0] ?? ".js";
  return new URL(`${name}${ext}`, beside);
}
