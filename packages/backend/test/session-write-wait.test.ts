/**
 * A write that waits for another Bonsai process holding its session does not hold up the other
 * sessions' calls (src/session-write-wait.ts): the backend serves every session from one thread,
 * and the store's own wait is a sleep loop. A real second process holds session A's lock.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSessionText } from "@bonsai/core";
import { SessionLockedError, storeWorkerUrl, WorkerStoreJobs } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { ok, useBackend } from "./support";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../../..");
const LOCK_CHILD = path.join(ROOT, "packages/store/test/lock-child.ts");
const workerUrl = new URL("../../engine/src/worker/compaction-worker.ts", import.meta.url);
const backend = useBackend();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/** another Bonsai process holding the session's write lock until killed */
function holdLock(db: string, sessionId: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", LOCK_CHILD, "hold", db, sessionId], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      if (d.toString().includes("held")) resolve(child);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => reject(new Error(`the lock holder exited (${code}): ${err}`)));
  });
}

async function imported(dir: string, name: string, seed: number): Promise<{ id: string; file: string; last: string }> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 40, seed })));
  const report = await backend().store.importFile(file);
  return { id: report.sessionId as string, file, last: parseSessionText(fs.readFileSync(file, "utf8")).entries.at(-1)!.id };
}

describe("a write waiting for another Bonsai process", () => {
  it("does not hold up another session's calls, and goes through once the session is free", async () => {
    const dir = backend().dataDir;
    const a = await imported(dir, "a.jsonl", 1);
    const b = await imported(dir, "b.jsonl", 2);
    const holder = await holdLock(backend().dbPath, a.id);
    let aSettled = false;
    const labelA = backend()
      .dispatch("setLabel", { sessionId: a.id, entryId: a.last, label: "waited" })
      .finally(() => (aSettled = true));
    // session B is written, and answered, while A's write waits
    ok(await backend().dispatch("setLabel", { sessionId: b.id, entryId: b.last, label: "free" }));
    expect(fs.readFileSync(b.file, "utf8")).toContain('"label":"free"');
    expect(aSettled).toBe(false);
    expect(fs.readFileSync(a.file, "utf8")).not.toContain('"label":"waited"');
    holder.kill("SIGKILL");
    ok(await labelA);
    expect(fs.readFileSync(a.file, "utf8")).toContain('"label":"waited"');
  });

  it("refused on the store worker, says so as itself (the page shows the sentence, not an internal error)", async () => {
    const a = await imported(backend().dataDir, "a.jsonl", 1);
    await holdLock(backend().dbPath, a.id);
    const jobs = new WorkerStoreJobs({ url: storeWorkerUrl(workerUrl), dbPath: backend().dbPath, writeThrough: true, relay: () => undefined });
    try {
      const refused = await jobs.call("restorePruned", a.id).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(SessionLockedError);
      expect((refused as Error).message).toBe(`another Bonsai process is writing this session; try again (session ${a.id})`);
    } finally {
      await jobs.close();
    }
  }, 60_000);
});
