/**
 * The WebSocket frame limit fits the largest legal call: for every method, the biggest payload its
 * input schema accepts (every string at its longest, made of characters JSON escapes to 6 bytes
 * where the schema allows them) is built, checked to be legal, and its call frame measured.
 */
import { describe, expect, it } from "vitest";
import { MAX_COMMITTED_SUMMARY_CHARS, MAX_SHORT_SUMMARY_CHARS } from "@bonsai/core";
import { contract, MAX_FRAME_BYTES, METHOD_NAMES, UPLOAD_CHUNK_BYTES, utf8Length, type MethodName } from "../src/index";

/** n characters that JSON.stringify writes as 6 bytes each (a lone surrogate becomes \ud800) */
const worst = (n: number) => "\ud800".repeat(n);
const id = worst(200);
const requestId = worst(100);
const ids = (n: number) => Array.from({ length: n }, () => id);
const session = { sessionId: id };
/** a JSON value of about `bytes` bytes once serialized */
const blob = (bytes: number) => ({ text: "x".repeat(bytes - 20) });

const LARGEST: { [M in MethodName]: unknown } = {
  getAppInfo: {},
  listSessions: {},
  findSessionFolders: {},
  setSessionTitle: { ...session, title: `x${worst(198)}x` },
  importSessions: { paths: Array.from({ length: 100 }, () => worst(4096)), uploads: Array.from({ length: 1000 }, () => "A".repeat(64)), requestId },
  importFromDialog: { requestId },
  importGitRepository: { path: worst(4096), requestId },
  findGitRepositories: {},
  getSessionCommits: session,
  getCommitCounts: {},
  beginUpload: { name: worst(1000), size: 2 * 1024 ** 3 },
  uploadChunk: { uploadId: "A".repeat(64), offset: Number.MAX_SAFE_INTEGER, data: "A".repeat(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4) },
  cancelUpload: { uploadId: "A".repeat(64) },
  cancelImport: { requestId },
  openSession: session,
  getSkeleton: session,
  getSkeletonTail: { ...session, count: Number.MAX_SAFE_INTEGER, lastId: id },
  getEntry: { ...session, entryId: id },
  getEntries: { ...session, entryIds: ids(500) },
  getPreviews: { ...session, entryIds: ids(500) },
  exportSession: { ...session, format: "markdown", leafId: id },
  saveSessionAs: { ...session, format: "markdown", leafId: id },
  continueInPi: { ...session, leafId: id },
  searchSessions: { query: worst(1000), sessionId: id, limit: 500 },
  deleteSession: session,
  getContextPreview: { ...session, leafId: id },
  getUsagePoints: session,
  planCompaction: { ...session, leafId: id },
  compact: { ...session, leafId: id, instructions: worst(20_000), dryRun: true, requestId },
  commitCompaction: {
    ...session,
    leafId: id,
    result: {
      summary: worst(MAX_COMMITTED_SUMMARY_CHARS),
      shortSummary: worst(MAX_SHORT_SUMMARY_CHARS),
      firstKeptEntryId: id,
      tokensBefore: Number.MAX_VALUE,
      details: blob(512 * 1024),
      preserveData: blob(512 * 1024 - 40),
      fromExtension: true,
      offline: true,
    },
  },
  abort: { ...session, what: "branchSummary" },
  navigate: { ...session, targetId: id, summarize: true, instructions: worst(20_000), requestId },
  planPrune: { ...session, leafId: id },
  applyPrune: { ...session, leafId: id },
  restorePruned: { ...session, entryIds: ids(5_000) },
  prompt: { ...session, text: `x${worst(999_998)}x`, requestId },
  setLabel: { ...session, entryId: id, label: `x${worst(198)}x` },
  getUndo: session,
  undo: session,
  redo: session,
  whatIf: {
    sessionIds: ids(12),
    settings: {
      compactionEnabled: true,
      reserveTokens: Number.MAX_SAFE_INTEGER,
      keepRecentTokens: Number.MAX_SAFE_INTEGER,
      thresholdTokens: Number.MAX_SAFE_INTEGER,
      thresholdPercent: 100,
      pruningEnabled: true,
      protectTokens: Number.MAX_SAFE_INTEGER,
      minimumSavings: Number.MAX_SAFE_INTEGER,
      contextWindow: Number.MAX_SAFE_INTEGER,
    },
    maxPoints: 20_000,
  },
  getAmnesiaReport: session,
  getAmnesiaScores: session,
  getAmnesiaOverview: { project: `x${worst(198)}x` },
  getSummaryCheck: { ...session, leafId: id },
  getSettings: {},
  setSettings: {
    patch: {
      compaction: {
        enabled: true,
        reserveTokens: Number.MAX_SAFE_INTEGER,
        keepRecentTokens: Number.MAX_SAFE_INTEGER,
        autoContinue: true,
        remoteEndpoint: `http://${worst(2040)}`,
        thresholdTokens: Number.MAX_SAFE_INTEGER,
        thresholdPercent: 100,
      },
      pruning: { enabled: true, protectTokens: Number.MAX_SAFE_INTEGER, minimumSavings: Number.MAX_SAFE_INTEGER },
      branchSummary: { enabled: true, reserveTokens: Number.MAX_SAFE_INTEGER },
      retry: { enabled: true, maxRetries: 100, baseDelayMs: 3_600_000 },
      model: {
        baseUrl: `http://${worst(2040)}`,
        model: worst(200),
        fallbackModels: Array.from({ length: 20 }, () => worst(200)),
        contextWindow: Number.MAX_SAFE_INTEGER,
        maxOutputTokens: Number.MAX_SAFE_INTEGER,
        apiKeyEnv: "K".repeat(200),
      },
      hooksDir: worst(4096),
      sessionDirs: Array.from({ length: 100 }, () => worst(4096)),
      theme: "system",
    },
  },
  pickSettingsFolder: { field: "sessionDirs" },
  setApiKey: { key: `x${worst(9_998)}x` },
  clearApiKey: {},
  testConnection: {},
};

describe("the frame limit", () => {
  it("names a largest call for every method", () => {
    expect(Object.keys(LARGEST).sort()).toEqual([...METHOD_NAMES].sort());
  });

  for (const method of METHOD_NAMES) {
    it(`fits the largest legal ${method} call`, () => {
      const params = LARGEST[method];
      const parsed = contract[method].input.safeParse(params);
      expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues.slice(0, 3))).toBe(true);
      const frame = JSON.stringify({ t: "call", id: Number.MAX_SAFE_INTEGER, method, params });
      expect(utf8Length(frame)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    });
  }

  it("one character more than allowed is refused by the schema, not by the connection", () => {
    expect(contract.prompt.input.safeParse({ sessionId: "s", text: "x".repeat(1_000_001) }).success).toBe(false);
    expect(contract.uploadChunk.input.safeParse({ uploadId: "A".repeat(16), offset: 0, data: "A".repeat(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4 + 4) }).success).toBe(false);
    expect(contract.uploadChunk.input.safeParse({ uploadId: "A".repeat(16), offset: 0, data: "\ud800" }).success).toBe(false);
    expect(contract.restorePruned.input.safeParse({ sessionId: "s", entryIds: ids(5_001) }).success).toBe(false);
  });
});
