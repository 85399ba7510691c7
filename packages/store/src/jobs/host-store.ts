/**
 * The one store object a host's callers hold (the backend's handlers, the engine in the backend):
 * its reads and small writes answered at once by the host's own store, and the bulk work (imports,
 * exports, deletes, pruning rewrites, the packed skeleton, background indexing) as asynchronous
 * methods of the same name that run as store jobs (on the store's worker when the host has one).
 */
import type { Async } from "../async";
import type { SessionStore } from "../session-store";
import type { StoreJobs } from "./client";
import type { Operation, StoreOperations } from "./operations";

/** What a host's store runs as store jobs. */
export const JOB_METHODS = [
  "importFile",
  "importPaths",
  "exportJsonl",
  "exportMarkdown",
  "continueInPi",
  "deleteSession",
  "applyPruning",
  "restorePruned",
  "quiet",
  "index",
  "exportHtml",
  "exportPi",
  "packedSkeleton",
] as const satisfies readonly Operation[];

export type JobMethod = (typeof JOB_METHODS)[number];

export type HostStore = Omit<SessionStore, JobMethod> &
  Async<Pick<StoreOperations, JobMethod>> &
  Pick<StoreJobs, "sync" | "prepare">;

/** The host's store with its jobs as one object. */
export function hostStore(store: SessionStore, jobs: StoreJobs): HostStore {
  const viaJobs = new Set<string | symbol>(JOB_METHODS);
  const extra: Pick<StoreJobs, "sync" | "prepare"> = { sync: (target) => jobs.sync(target), prepare: () => jobs.prepare() };
  return new Proxy(store, {
    get(target, name) {
      if (viaJobs.has(name)) return (...args: unknown[]) => (jobs.call as (method: string, ...a: unknown[]) => Promise<unknown>)(name as string, ...args);
      if (name === "sync" || name === "prepare") return extra[name];
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as unknown as HostStore;
}
