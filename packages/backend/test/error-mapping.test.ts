/**
 * Every refusal of the engine and the store reaches the page as its own sentence under the IPC code
 * of its kind, mapped by class (never by the message's text): through the real backend for the ones a
 * request can provoke, across the real worker threads (compaction planner, store jobs) with the kind
 * kept, and class by class for the rest.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BonsaiError, ERROR_KINDS, type SettingsError } from "@bonsai/core";
import {
  CancelledError,
  EntryNotFoundError,
  InvalidRequestError,
  ModelError,
  ModelUnavailableError,
  NothingToCompactError,
  RefusedByHookError,
  SessionBusyError,
  SettingsValidationError,
  StaleCompactionError,
  WorkerPlanner,
} from "@bonsai/engine";
import { IPC_ERROR_CODES } from "@bonsai/ipc";
import { BackupRefusal, openStore, ReadOnlySessionError, SessionLockedError, SessionLookupError, SourceBusyError, StaleCommitError, StoreError, storeWorkerUrl, WorkerStoreJobs, WriteFailedError } from "@bonsai/store";
import { IPC_CODE_OF_KIND, mapBackendError, type Backend } from "../src/index";
import { importLines, useBackend } from "./support";

const workerUrl = new URL("../../engine/src/worker/compaction-worker.ts", import.meta.url);
const CLAUDE = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real/claude-code/entireio__external-agents__01_8c2b5cd218_0_full.jsonl");

const header = { type: "session", version: 3, id: "s-errors", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/errors" };
const user = { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hello", timestamp: 1 } };
const reply = {
  type: "message",
  id: "a1",
  parentId: "u1",
  timestamp: "2026-01-01T00:00:02.000Z",
  message: { role: "assistant", content: [{ type: "text", text: "hi" }], api: "x", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: 2 },
};

describe("the kinds of error and their IPC codes", () => {
  it("every kind has an IPC code of the contract", () => {
    for (const kind of ERROR_KINDS) expect(IPC_ERROR_CODES, kind).toContain(IPC_CODE_OF_KIND[kind]);
  });

  it("each class reaches the page as its own sentence under the code of its kind", () => {
    const settingsErrors: SettingsError[] = [{ field: "compaction.reserveTokens", message: "compaction.reserveTokens must be a number" }];
    const cases: [Error, string][] = [
      [new NothingToCompactError(false), "conflict"],
      [new NothingToCompactError(true), "conflict"],
      [new SessionBusyError("A compaction is already running for this session"), "conflict"],
      [new StaleCompactionError(), "conflict"],
      [new CancelledError("Compaction cancelled"), "aborted"],
      [new RefusedByHookError("Compaction cancelled"), "aborted"],
      [new EntryNotFoundError("e-404"), "not_found"],
      [new InvalidRequestError("The prompt is empty"), "conflict"],
      [new ModelUnavailableError("No API key for gpt (set OPENAI_API_KEY)"), "unavailable"],
      [new ModelError("History summarization failed: 500 Internal Server Error"), "upstream"],
      [new SessionLookupError("no session s-1 in the store"), "not_found"],
      [new StaleCommitError("the session changed since the change was planned; nothing was written"), "conflict"],
      [new SourceBusyError("/tmp/s.jsonl", "it grew while being written"), "conflict"],
      [new SessionLockedError("s-1"), "conflict"],
      [new BackupRefusal("the backup differs from the file"), "conflict"],
      [new WriteFailedError("the disk is full; nothing was written", "ENOSPC"), "conflict"],
      [new ReadOnlySessionError("s-1", "claude-code"), "conflict"],
      [new StoreError("a session s-1 already exists"), "conflict"],
    ];
    for (const [error, code] of cases) {
      expect(mapBackendError(error)?.toData(), error.name).toEqual({ code, message: error.message });
    }
    expect(mapBackendError(new SettingsValidationError(settingsErrors))?.toData()).toEqual({
      code: "invalid_payload",
      message: "compaction.reserveTokens must be a number",
      issues: [{ path: "patch.compaction.reserveTokens", message: "compaction.reserveTokens must be a number" }],
    });
  });

  it("maps by class and kind, not by the words of the message", () => {
    // a busy refusal that mentions cancelling is still busy; an unknown error that says "not found" is internal
    expect(mapBackendError(new SessionBusyError("cancelled? no: a turn is already running"))?.code).toBe("conflict");
    expect(mapBackendError(new BonsaiError("not_found", "the session is gone"))?.code).toBe("not_found");
    expect(mapBackendError(new Error("Entry e1 not found"))).toBeUndefined();
    expect(mapBackendError(new Error("Compaction cancelled"))).toBeUndefined();
    expect(mapBackendError(Object.assign(new Error("open /x"), { code: "ENOENT" }))?.code).toBe("not_found");
  });
});

describe("through the backend", () => {
  const current = useBackend();
  let backend: Backend;
  beforeEach(() => {
    backend = current();
  });

  it("a second compaction with nothing new is refused with its sentence", async () => {
    const sessionId = await importLines(backend, [header, user, reply]);
    expect(await backend.dispatch("compact", { sessionId })).toMatchObject({ ok: true });
    expect(await backend.dispatch("compact", { sessionId })).toEqual({ ok: false, error: { code: "conflict", message: "Already compacted" } });
  });

  it("a previewed compaction committed after the leaf moved is refused as stale", async () => {
    const sessionId = await importLines(backend, [header, user, reply]);
    const result = { summary: "## Goal\nsay hello", firstKeptEntryId: "a1", tokensBefore: 10 };
    expect(await backend.dispatch("commitCompaction", { sessionId, leafId: "u1", result })).toEqual({
      ok: false,
      error: { code: "conflict", message: "The session changed since the preview: run the compaction again" },
    });
  });

  it("a prompt without a model is unavailable, with what to set", async () => {
    const sessionId = await importLines(backend, [header, user, reply]);
    const r = await backend.dispatch("prompt", { sessionId, text: "go on", requestId: "p1" });
    expect(r).toEqual({ ok: false, error: { code: "unavailable", message: "No model configured: set model.baseUrl and model.model in the settings (or --base-url and --model)" } });
  });
});

describe("across the worker threads", () => {
  let dir = "";
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-errors-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("the compaction planner's unknown session arrives as a not-found error", async () => {
    const dbPath = path.join(dir, "bonsai.db");
    openStore({ path: dbPath }).close();
    const planner = new WorkerPlanner({ workerUrl, dbPath, size: 1 });
    try {
      const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 } as never;
      const error = await planner.plan({ sessionId: "s-none", leafId: null, settings, withBranchEntries: false, withMessages: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BonsaiError);
      expect(mapBackendError(error)?.toData()).toEqual({ code: "not_found", message: "Session s-none not found" });
    } finally {
      await planner.close();
    }
    // a worker thread loads its code through tsx: slow on a busy machine
  }, 120_000);

  it.skipIf(!fs.existsSync(CLAUDE))("a store job's refusal keeps its kind: a write to a Claude Code session is refused with its sentence", async () => {
    const dbPath = path.join(dir, "bonsai.db");
    openStore({ path: dbPath }).close();
    const jobs = new WorkerStoreJobs({ url: storeWorkerUrl(workerUrl), dbPath, writeThrough: true, relay: () => undefined });
    try {
      const report = await jobs.call("importFile", CLAUDE);
      expect(report.status).not.toBe("failed");
      const error = await jobs.call("restorePruned", report.sessionId as string).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "ReadOnlySessionError", kind: "read_only" });
      const mapped = mapBackendError(error)?.toData();
      expect(mapped?.code).toBe("conflict");
      expect(mapped?.message).toMatch(/^session .+ is a Claude Code session, which Bonsai never writes/);
    } finally {
      await jobs.close();
    }
  }, 120_000);
});
