/**
 * The store's worker (jobs/store-worker.ts) through WorkerStoreJobs, on a real database: a call runs
 * only the store's exposed operations, an options argument's progress reaches the caller, the
 * store's refusals arrive as their own classes and kinds, and the worker store's events reach the
 * host.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BonsaiError } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { openStore, ReadOnlySessionError, SessionLookupError, StaleCommitError, storeWorkerUrl, WorkerStoreJobs, type StoreEventName } from "../src/index";
import { FIXTURES } from "./support";

const dirs: string[] = [];
const jobs: WorkerStoreJobs[] = [];
afterEach(async () => {
  await Promise.all(jobs.splice(0).map((j) => j.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-worker-store-"));
  dirs.push(dir);
  return dir;
}

function workerJobs(dbPath: string, relayed: [StoreEventName, unknown][] = []): WorkerStoreJobs {
  const j = new WorkerStoreJobs({ url: storeWorkerUrl(), dbPath, writeThrough: true, relay: (event, payload) => relayed.push([event, payload]) });
  jobs.push(j);
  return j;
}

describe("the store's worker", () => {
  it("refuses a name that is not one of the store's operations, with a clear sentence", async () => {
    const j = workerJobs(path.join(tmp(), "bonsai.db"));
    for (const name of ["close", "follow", "relay", "constructor", "__proto__", "toString"]) {
      const err = await (j.call as (n: string) => Promise<unknown>)(name).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: "invalid", message: `the worker has no function ${JSON.stringify(name)}` });
    }
  });

  it("imports a file with progress sent back, stores it in the database, and relays the worker store's events", async () => {
    const dir = tmp();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 200, seed: 3 })));
    const dbPath = path.join(dir, "bonsai.db");
    const relayed: [StoreEventName, unknown][] = [];
    const j = workerJobs(dbPath, relayed);
    let progressed = 0;
    const report = await j.call("importFile", file, { onProgress: () => progressed++ });
    expect(report).toMatchObject({ status: "imported", entriesAdded: 200 });
    expect(progressed).toBeGreaterThan(0);
    expect(relayed.map(([name]) => name)).toContain("session-updated");
    const store = openStore({ path: dbPath });
    try {
      expect(store.listSessions().map((s) => s.id)).toEqual([report.sessionId]);
      expect(store.loadEntries(report.sessionId!)).toHaveLength(200);
      // the same reads through the worker's API
      expect(await j.api.loadEntries(report.sessionId!)).toEqual(store.loadEntries(report.sessionId!));
    } finally {
      store.close();
    }
  });

  it("sends the store's refusals back as their own classes, kinds and fields", async () => {
    const dir = tmp();
    const j = workerJobs(path.join(dir, "bonsai.db"));
    const lookup = await j.api.resolveSessionId("no-such-session").catch((e: unknown) => e);
    expect(lookup).toBeInstanceOf(SessionLookupError);
    expect(lookup).toMatchObject({ kind: "not_found" });

    const file = path.join(dir, "p.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 20, seed: 5 })));
    const { sessionId } = await j.api.importFile(file);
    const stale = await j.api.appendEntry(sessionId!, { type: "message", message: { role: "user", content: "x", timestamp: 1 } }, { expect: { leafId: "not-the-leaf" } }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(StaleCommitError);
    expect(stale).toMatchObject({ kind: "stale" });
    expect(await j.api.loadEntries(sessionId!)).toHaveLength(20);

    const claude = path.join(FIXTURES, "real", "claude-code", "entireio__cli__ca_fca7ea73ac_0_full.jsonl");
    const copy = path.join(dir, path.basename(claude));
    fs.copyFileSync(claude, copy);
    const foreign = await j.api.importFile(copy);
    const target = await j.api.lastEntryId(foreign.sessionId!);
    const readOnly = await j.api.appendLabel(foreign.sessionId!, target!, "refused").catch((e: unknown) => e);
    expect(readOnly).toBeInstanceOf(ReadOnlySessionError);
    expect(readOnly).toBeInstanceOf(BonsaiError);
    expect(readOnly).toMatchObject({ kind: "read_only", sessionId: foreign.sessionId, format: "claude-code" });
  });
});
