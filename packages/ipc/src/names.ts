/**
 * The contract's method and event names as plain arrays, without zod: the Electron preload imports
 * only this file (it stays tiny and sandbox-friendly). contract.ts checks at compile time that these
 * lists equal the contract's keys.
 */
export const METHOD_NAMES = [
  "getAppInfo",
  "listSessions",
  "findSessionFolders",
  "setSessionTitle",
  "importSessions",
  "importFromDialog",
  "beginUpload",
  "uploadChunk",
  "cancelUpload",
  "cancelImport",
  "openSession",
  "getSkeleton",
  "getSkeletonTail",
  "getPreviews",
  "getEntry",
  "getEntries",
  "exportSession",
  "saveSessionAs",
  "continueInPi",
  "searchSessions",
  "deleteSession",
  "getContextPreview",
  "getUsagePoints",
  "planCompaction",
  "compact",
  "commitCompaction",
  "abort",
  "navigate",
  "planPrune",
  "applyPrune",
  "restorePruned",
  "prompt",
  "getUndo",
  "undo",
  "setLabel",
  "whatIf",
  "getAmnesiaReport",
  "getAmnesiaScores",
  "getAmnesiaOverview",
  "getSummaryCheck",
  "getSettings",
  "setSettings",
  "pickSettingsFolder",
  "setApiKey",
  "clearApiKey",
  "testConnection",
] as const;

export const EVENT_NAMES = [
  "importProgress",
  "sessionsChanged",
  "sessionUpdated",
  "compactionStart",
  "compactionEnd",
  "branchSummaryStart",
  "branchSummaryEnd",
  "pruneDone",
  "turnDelta",
  "turnEnd",
  "notification",
  "hookError",
  "menuCommand",
] as const;

/** Electron IPC channels: one for calls, one for pushed events. */
export const INVOKE_CHANNEL = "bonsai:invoke";
export const EVENT_CHANNEL = "bonsai:event";
