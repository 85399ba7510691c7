/**
 * The store worker gets ready before the first job: prepare() starts it and has it open its store
 * (a real worker thread, real SQLite files), so a store it cannot open is reported by prepare itself.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, storeWorkerUrl, WorkerStoreJobs } from "@bonsai/store";

const workerUrl = new URL("../../engine/src/worker/compaction-worker.ts", import.meta.url);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-store-prepare-"));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("store jobs: prepare", () => {
  it("opens the worker's store ahead of the first job, and says so when it cannot", async () => {
    const dbPath = path.join(dir, "bonsai.db");
    openStore({ path: dbPath }).close();
    const jobs = new WorkerStoreJobs({ url: storeWorkerUrl(workerUrl), dbPath, writeThrough: false, relay: () => undefined });
    try {
      await expect(jobs.prepare()).resolves.toBeUndefined();
    } finally {
      await jobs.close();
    }
    const notADatabase = path.join(dir, "notes.db");
    fs.writeFileSync(notADatabase, "these are notes, not a database\n".repeat(200));
    const nowhere = new WorkerStoreJobs({ url: storeWorkerUrl(workerUrl), dbPath: notADatabase, writeThrough: false, relay: () => undefined });
    try {
      await expect(nowhere.prepare()).rejects.toThrow(/not a database/);
    } finally {
      await nowhere.close();
    }
  });
});
