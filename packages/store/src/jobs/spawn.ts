/**
 * Starts a worker thread from a module URL: the bundled JavaScript as it is, or (tests, development)
 * the TypeScript source through tsx, registered inside the worker before the module loads.
 */
import { Worker } from "node:worker_threads";

export function spawnModuleWorker(url: URL, execArgv: string[] = []): Worker {
  if (!url.pathname.endsWith(".ts")) return new Worker(url, { execArgv });
  const tsx = import.meta.resolve("tsx/esm/api");
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`, { eval: true, execArgv });
}
