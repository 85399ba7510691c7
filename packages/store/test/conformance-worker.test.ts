/**
 * The store API's conformance suite (src/conformance/) run against the store's worker proxy
 * (WorkerStoreJobs' `api`: every call through the worker RPC to a worker thread's own store), with
 * the worker store's events relayed to the caller. A worker does not follow files (its host's store
 * does, and hands it each changed file), so the proxy has no follow().
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { storeWorkerUrl, WorkerStoreJobs, type StoreEventName, type StoreListener } from "../src/index";
import { describeSessionStoreConformance, type ConformanceStore, type StoreFactory } from "../src/conformance/index";
import { FIXTURES } from "./support";

const fixturesDir = path.join(FIXTURES, "real");

function workerStore(writeThrough: boolean): StoreFactory {
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-conformance-worker-"));
    const listeners = new Map<StoreEventName, Set<(payload: unknown) => void>>();
    const jobs = new WorkerStoreJobs({
      url: storeWorkerUrl(),
      dbPath: path.join(dir, "bonsai.db"),
      writeThrough,
      relay: (event, payload) => listeners.get(event)?.forEach((listener) => listener(payload)),
    });
    const on = <K extends StoreEventName>(event: K, listener: StoreListener<K>): (() => void) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    };
    const { api } = jobs;
    const store: ConformanceStore = {
      on,
      importFile: api.importFile,
      importPaths: api.importPaths,
      listSessions: api.listSessions,
      getSession: api.getSession,
      resolveSessionId: api.resolveSessionId,
      getHeader: api.getHeader,
      getLeaf: api.getLeaf,
      setLeaf: api.setLeaf,
      loadEntries: api.loadEntries,
      getEntry: api.getEntry,
      getEntryInfo: api.getEntryInfo,
      getEntries: api.getEntries,
      hasEntry: api.hasEntry,
      getPreviews: api.getPreviews,
      getLabel: api.getLabel,
      lastEntryId: api.lastEntryId,
      getSkeleton: api.getSkeleton,
      getPackedSkeleton: api.getPackedSkeleton,
      getSkeletonTail: api.getSkeletonTail,
      countSessionShape: api.countSessionShape,
      getPath: api.getPath,
      getPathNodes: api.getPathNodes,
      isOnPath: api.isOnPath,
      areOnPath: api.areOnPath,
      getContextEntries: api.getContextEntries,
      getContextSummary: api.getContextSummary,
      appendEntry: api.appendEntry,
      appendLabel: api.appendLabel,
      applyPruning: api.applyPruning,
      restorePruned: api.restorePruned,
      listPruned: api.listPruned,
      renderJsonl: api.renderJsonl,
      exportJsonl: api.exportJsonl,
      search: api.search,
      getToolResultsOnPath: api.getToolResultsOnPath,
      getPrunePlan: api.getPrunePlan,
      getPruneSummary: api.getPruneSummary,
      getBranchPlan: api.getBranchPlan,
      getCompactionWindow: api.getCompactionWindow,
      getContextTokens: api.getContextTokens,
      getSizeSeries: api.getSizeSeries,
      getContextMessages: api.getContextMessages,
      readSession: api.readSession,
    };
    return {
      store,
      dir,
      cleanup: async () => {
        await jobs.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

describeSessionStoreConformance("the store worker's proxy", workerStore(true), { fixturesDir, capabilities: { follow: false } });
