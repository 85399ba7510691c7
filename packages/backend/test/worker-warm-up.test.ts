/**
 * The backend answers first and warms its store worker after: the worker (its code loaded, its own
 * connection to the database opened) starts WORKER_WARM_UP_MS after the backend, so the first
 * answers do not share the CPU with its start; a job that needs it sooner starts it at once. Seen
 * from outside: the database files this process holds open (Linux /proc/self/fd), a real worker
 * thread, real SQLite files.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { createBackend, WORKER_WARM_UP_MS, type Backend } from "../src/index";
import { countSkeletonReads, ok } from "./support";

const workerUrl = new URL("../../engine/src/worker/compaction-worker.ts", import.meta.url);
const procFds = "/proc/self/fd";

let dir: string;
let dbPath: string;
let sessionId: string;
let backend: Backend | undefined;

/** connections to the database held by this process (each holds the main file open once; the worker opens its own) */
function connections(): number {
  let n = 0;
  for (const fd of fs.readdirSync(procFds)) {
    try {
      if (fs.readlinkSync(path.join(procFds, fd)) === dbPath) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 30_000) throw new Error(`still waiting for ${what}`);
    await sleep(50);
  }
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-warm-up-"));
  dbPath = path.join(dir, "bonsai.db");
  const file = path.join(dir, "s.jsonl");
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 300, seed: 7 })));
  const store = openStore({ path: dbPath });
  sessionId = (await store.importFile(file)).sessionId as string;
  store.close();
});
afterEach(async () => {
  await backend?.close();
  backend = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!fs.existsSync(procFds))("backend: the store worker's warm-up", () => {
  it("answers the first context before the worker starts, then starts it on its own", async () => {
    // the warm-up's timer runs when the test says (the rest of the world keeps real time)
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      backend = createBackend({ dataDir: dir, dbPath, env: { BONSAI_SESSIONS_DIRS: dir }, worker: { url: workerUrl } });
      expect(connections()).toBe(1);
      const preview = ok<{ messages: unknown[] }>(await backend.dispatch("getContextPreview", { sessionId }));
      expect(preview.messages.length).toBeGreaterThan(0);
      // answered on the main thread's connection; a second later (real time) the worker still has
      // not opened its own: it was not started with the backend
      await sleep(1000);
      expect(connections()).toBe(1);
      // then it warms up without being asked
      vi.advanceTimersByTime(WORKER_WARM_UP_MS);
      await until(() => connections() > 1, "the worker's connection");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a job before the warm-up starts the worker at once", async () => {
    backend = createBackend({ dataDir: dir, dbPath, env: { BONSAI_SESSIONS_DIRS: dir }, worker: { url: workerUrl } });
    // the skeleton of a session not held is read by a store job
    const opened = ok<{ skeleton?: unknown }>(await backend.dispatch("openSession", { sessionId }));
    expect(opened).toBeTruthy();
    expect(connections()).toBeGreaterThan(1);
  });
});

describe("backend: the skeleton of the session opened last is read ahead once the sessions are listed", () => {
  /** a backend whose store counts the packed skeletons asked of it, and those it read from its rows */
  function countingBackend(): { backend: Backend; reads: string[]; fromRows: string[] } {
    const b = createBackend({ dataDir: dir, dbPath, env: { BONSAI_SESSIONS_DIRS: dir } });
    const { asked, fromRows } = countSkeletonReads(b);
    return { backend: b, reads: asked, fromRows };
  }
  const lastOpenedFile = () => path.join(dir, "last-opened.json");
  const list = async (b: Backend) => expect(ok<{ sessions: unknown[] }>(await b.dispatch("listSessions", {})).sessions.length).toBe(1);

  it("after a restart, the session opened last is ready before it is asked for", async () => {
    // a first start reads nothing ahead: no session was opened yet
    let started = countingBackend();
    backend = started.backend;
    await list(backend);
    await sleep(300);
    expect(started.reads).toEqual([]);
    ok(await backend.dispatch("openSession", { sessionId }));
    expect(started.reads).toEqual([sessionId]);
    await until(() => fs.existsSync(lastOpenedFile()), "the note of the open");
    await backend.close();

    // the next start reads nothing while nobody looks (past the worker's warm-up: no CPU spent)...
    started = countingBackend();
    backend = started.backend;
    ok(await backend.dispatch("getContextPreview", { sessionId }));
    await sleep(WORKER_WARM_UP_MS + 300);
    expect(started.reads).toEqual([]);
    // ...reads it once a window lists the sessions, and the open finds it held
    await list(backend);
    await until(() => started.reads.length > 0, "the read-ahead");
    await list(backend);
    expect(started.reads).toEqual([sessionId]);
    expect(started.fromRows).toEqual([sessionId]);
    // the store holds it: the open's answer reads no row of it
    const opened = ok<{ skeleton: { ids: string[] } }>(await backend.dispatch("openSession", { sessionId }));
    expect(opened.skeleton.ids.length).toBe(300);
    expect(started.reads).toEqual([sessionId]);
    expect(started.fromRows).toEqual([sessionId]);
  });

  it("a session removed since, or a note that cannot be read, is skipped", async () => {
    for (const note of ['{"sessionId":"removed-since"}\n', "{not json", ""]) {
      fs.writeFileSync(lastOpenedFile(), note);
      const started = countingBackend();
      backend = started.backend;
      // the backend answers as usual (no open here: its note would race the next one written)
      await list(backend);
      await sleep(300);
      expect(started.reads).toEqual([]);
      await backend.close();
      backend = undefined;
    }
  });
});
