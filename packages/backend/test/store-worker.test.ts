/**
 * A backend with a worker (as the app and `bonsai serve` run it) never blocks on bulk work: imports
 * run on the store worker with their own connection, so another session's calls keep answering
 * while a large session is imported; an import can be cancelled (nothing of it stored); exports,
 * pruning rewrites, deletions and the lines appended to a followed file go through the worker too,
 * and their events reach the backend's listeners. Real SQLite files, a real worker thread.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { createBackend, type Backend } from "../src/index";
import { ok } from "./support";

const workerUrl = new URL("../../engine/src/worker/compaction-worker.ts", import.meta.url);
/** big enough that importing it on the main thread would block it for seconds */
const BIG = 40_000;
/**
 * a call that takes longer than this means the event loop was blocked (the import of BIG entries on
 * this thread takes seconds); generous because the machine is shared: the calls' own work competes
 * with the worker and other processes for the CPUs (typically max 70-100 ms; the figures are logged)
 */
const BLOCKED_MS = 500;

let dir: string;
let backend: Backend;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-store-worker-"));
  fs.mkdirSync(path.join(dir, "agent-sessions"));
  // the folder the window may import paths from
  backend = createBackend({ dataDir: dir, env: { BONSAI_SESSIONS_DIRS: path.join(dir, "agent-sessions") }, worker: { url: workerUrl } });
});
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call<T>(method: string, params: unknown): Promise<T> {
  return ok<T>(await backend.dispatch(method, params));
}

function writeSession(name: string, entries: number, seed: number): string {
  const file = path.join(dir, "agent-sessions", name);
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries, seed })));
  return file;
}

interface ImportAnswer {
  results: { ok: boolean; sessionId: string | null; error: string | null }[];
}

async function importPath(file: string, requestId?: string): Promise<ImportAnswer> {
  return call<ImportAnswer>("importSessions", { paths: [file], ...(requestId ? { requestId } : {}) });
}

describe("the store worker", () => {
  it("keeps other sessions answering while a large session is imported", async () => {
    const small = (await importPath(writeSession("small.jsonl", 600, 1))).results[0]!.sessionId!;
    const big = writeSession("big.jsonl", BIG, 2);
    await call("openSession", { sessionId: small });

    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let done = false;
    const importing = importPath(big).finally(() => (done = true));
    const latencies: number[] = [];
    while (!done) {
      for (const [method, params] of [
        ["getContextPreview", { sessionId: small }],
        ["listSessions", {}],
        ["getSkeleton", { sessionId: small }],
        ["planPrune", { sessionId: small }],
      ] as const) {
        const t0 = performance.now();
        await call(method, params);
        latencies.push(performance.now() - t0);
      }
      await sleep(20);
    }
    delay.disable();
    const imported = await importing;
    expect(imported.results[0]).toMatchObject({ ok: true });
    const sessions = (await call<{ sessions: { id: string; entryCount: number }[] }>("listSessions", {})).sessions;
    expect(sessions.find((s) => s.id === imported.results[0]!.sessionId)?.entryCount).toBe(BIG);
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(`[store-worker] ${latencies.length} calls while importing ${BIG} entries: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms; event loop delay max ${(delay.max / 1e6).toFixed(1)} ms`);
    // the import took long enough to measure something, and nothing waited for it
    expect(latencies.length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...latencies)).toBeLessThan(BLOCKED_MS);
    expect(delay.max / 1e6).toBeLessThan(BLOCKED_MS);
  });

  it("reports progress inside a large file, and cancels an import with nothing of it stored", async () => {
    const big = writeSession("big.jsonl", BIG, 3);
    const progress: number[] = [];
    let cancelled: Promise<{ cancelled: boolean }> | undefined;
    backend.onEvent((event, payload) => {
      const p = payload as { requestId: string | null; done: number; finished: boolean };
      if (event !== "importProgress" || p.requestId !== "imp-1" || p.finished) return;
      progress.push(p.done);
      // as soon as bytes are being read: cancel
      if (p.done > 0 && !cancelled) cancelled = call<{ cancelled: boolean }>("cancelImport", { requestId: "imp-1" });
    });
    const answer = await importPath(big, "imp-1");
    expect(await cancelled).toEqual({ cancelled: true });
    expect(progress.some((done) => done > 0)).toBe(true);
    expect(answer.results[0]).toMatchObject({ ok: false, sessionId: null, error: expect.stringMatching(/cancelled/) });
    expect((await call<{ sessions: unknown[] }>("listSessions", {})).sessions).toEqual([]);
    expect(await call("cancelImport", { requestId: "imp-1" })).toEqual({ cancelled: false });
    // the same file imports whole afterwards
    expect((await importPath(big)).results[0]).toMatchObject({ ok: true });
  });

  it("exports, prunes and restores through the worker; a followed file's new lines arrive as events", async () => {
    const file = writeSession("s.jsonl", 1500, 4);
    const sessionId = (await importPath(file)).results[0]!.sessionId!;
    const exported = await call<{ url: string }>("exportSession", { sessionId, format: "jsonl" });
    const download = backend.takeDownload(exported.url.slice("/download/".length))!;
    expect(fs.readFileSync(download.file, "utf8")).toBe(fs.readFileSync(file, "utf8"));
    download.done();
    for (const format of ["markdown", "html", "pi"] as const) {
      const other = await call<{ url: string }>("exportSession", { sessionId, format });
      const written = backend.takeDownload(other.url.slice("/download/".length))!;
      expect(fs.statSync(written.file).size, format).toBeGreaterThan(1000);
      written.done();
    }

    const plan = await call<{ items: { entryId: string }[] }>("planPrune", { sessionId });
    expect(plan.items.length).toBeGreaterThan(0);
    const pruned = await call<{ prunedEntryIds: string[] }>("applyPrune", { sessionId });
    expect(pruned.prunedEntryIds).toEqual(plan.items.map((i) => i.entryId));
    expect(fs.readFileSync(file, "utf8")).toContain("[Output truncated");
    const first = pruned.prunedEntryIds[0]!;
    expect(await call("restorePruned", { sessionId, entryIds: [first] })).toEqual({ restoredEntryIds: [first] });

    const updates: { sessionId: string; reason: string; entryIds: string[] }[] = [];
    backend.onEvent((event, payload) => {
      if (event === "sessionUpdated") updates.push(payload as (typeof updates)[number]);
    });
    // the skeleton of a session not held is read on the worker: the same nodes as the store's
    const opened = await call<{ session: { leafId: string }; skeleton: PackedSkeleton }>("openSession", { sessionId });
    expect(unpackSkeleton(opened.skeleton).nodes.map((n) => n.id)).toEqual(unpackSkeleton(await call<PackedSkeleton>("getSkeleton", { sessionId })).nodes.map((n) => n.id));
    expect(unpackSkeleton(opened.skeleton).nodes).toHaveLength(1500);
    const line = { type: "message", id: "appended-1", parentId: opened.session.leafId, timestamp: "2026-02-01T00:00:00.000Z", message: { role: "user", content: "one more", timestamp: 1 } };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    for (let i = 0; i < 100 && !updates.some((u) => u.entryIds.includes("appended-1")); i++) await sleep(50);
    expect(updates.find((u) => u.entryIds.includes("appended-1"))).toMatchObject({ sessionId, reason: "entries-added" });

    // deleting the session's rows is a job too; the file stays
    expect(await call("deleteSession", { sessionId })).toEqual({ deleted: true });
    expect((await call<{ sessions: unknown[] }>("listSessions", {})).sessions).toEqual([]);
    expect(fs.existsSync(file)).toBe(true);
  });
});
