/**
 * The store as the engine sees it in the backend: its reads and small writes on the host's store,
 * its pruning rewrite (the session's rows and its file) through the store's calls, on the store
 * worker when the host has one, so that the rewrite never runs on the main thread.
 */
import type { EngineStore } from "@bonsai/engine";
import type { SqliteSessionStore, StoreJobs } from "@bonsai/store";

/** every method of EngineStore but the rewrite: TypeScript holds this list to the interface */
const ON_HOST: Record<Exclude<keyof EngineStore, "applyPruning">, true> = {
  loadEntries: true,
  getEntry: true,
  getEntries: true,
  getPath: true,
  getContextEntries: true,
  getContextSummary: true,
  getCompactionWindow: true,
  getToolResultsOnPath: true,
  isOnPath: true,
  getLeaf: true,
  setLeaf: true,
  getSession: true,
  appendEntry: true,
  getSettingsJson: true,
  saveSettingsJson: true,
};

export function engineStore(store: SqliteSessionStore, jobs: StoreJobs): EngineStore {
  const onHost = Object.fromEntries(Object.keys(ON_HOST).map((name) => [name, (store[name as keyof typeof ON_HOST] as (...a: unknown[]) => unknown).bind(store)]));
  return { ...(onHost as Omit<EngineStore, "applyPruning">), applyPruning: (sessionId, results, options) => jobs.call("applyPruning", sessionId, results, options) };
}
