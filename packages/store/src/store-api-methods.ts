/**
 * The method names of the store API's interfaces (session-store.ts), as values: what a worker
 * exposes of a store (jobs/operations.ts). The compiler checks each list names every method of its
 * interface and nothing else.
 */
import type { StoreExports, StoreImports, StoreReads, StoreWrites } from "./session-store";

export const IMPORT_METHODS = ["importFile", "importPaths", "getImportReports"] as const satisfies readonly (keyof StoreImports)[];

export const READ_METHODS = [
  "listSessions", "getSession", "resolveSessionId", "getHeader", "getSessionTitles", "countSessionShape", "loadEntries", "getEntry",
  "getEntryInfo", "getPreviews", "getLabel", "lastEntryId", "getSkeleton", "getPackedSkeleton", "getSkeletonTail", "getPath",
  "getContextEntries", "getContextSummary", "getContextMessages", "getContextTokens", "getCompactionWindow", "getToolResultsOnPath",
  "getPrunePlan", "getPruneSummary", "getBranchPlan", "getPathNodes", "getSizeSeries", "hasEntry", "getEntries", "isOnPath", "areOnPath",
  "getLeaf", "listPruned", "renderJsonl", "readSession", "search", "unindexedCount", "getSettingsJson",
] as const satisfies readonly (keyof StoreReads)[];

export const WRITE_METHODS = [
  "createSession", "deleteSession", "setSessionTitle", "setLeaf", "appendEntry", "appendLabel", "applyPruning", "restorePruned", "saveSettingsJson",
] as const satisfies readonly (keyof StoreWrites)[];

export const EXPORT_METHODS = ["exportJsonl", "continueInPi", "exportMarkdown"] as const satisfies readonly (keyof StoreExports)[];

/** `true` only when the list names every method of the interface. */
type Complete<I, L extends readonly (keyof I)[]> = Exclude<keyof I, L[number]> extends never ? true : false;
const complete: [
  Complete<StoreImports, typeof IMPORT_METHODS>,
  Complete<StoreReads, typeof READ_METHODS>,
  Complete<StoreWrites, typeof WRITE_METHODS>,
  Complete<StoreExports, typeof EXPORT_METHODS>,
] = [true, true, true, true];
void complete;
