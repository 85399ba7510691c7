/**
 * A search never holds the backend for the search index: sessions `bonsai import` stored (the CLI's
 * stores do not index for search: a year of sessions can be hundreds of thousands of entries) are
 * indexed SEARCH_INDEX_BUDGET entries at a time by a search, the rest in the background — on the
 * store worker's thread when there is one, from the backend's start — and each answer says how many
 * entries are still to come, until a search finds everything. Real SQLite files, a real worker.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { contract } from "@bonsai/ipc";
import { createBackend, type Backend } from "../src/index";
import { SEARCH_INDEX_BUDGET } from "../src/session-handlers";

const workerUrl = new URL("../../engine/src/worker/compaction-worker.ts", import.meta.url);
/** a word only the session's last entry has */
const LAST_WORD = "zanzibarquokka";
const ENTRIES = 6000;

const dirs: string[] = [];
const backends: Backend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A data folder whose database holds one session of ENTRIES entries stored and never indexed, as `bonsai import` leaves it. */
async function importedNotIndexed(): Promise<{ dataDir: string; dbPath: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-search-indexing-"));
  dirs.push(dataDir);
  const session = generateSession({ entries: ENTRIES, seed: 11 });
  const last = session.entries[session.entries.length - 1] as { id: string };
  const lines = `${sessionToJsonl(session)}${JSON.stringify({ type: "message", id: "lastword", parentId: last.id, timestamp: "2025-06-02T00:00:00.000Z", message: { role: "user", content: `find ${LAST_WORD} here`, timestamp: 1 } })}\n`;
  const file = path.join(dataDir, "s.jsonl");
  fs.writeFileSync(file, lines);
  const dbPath = path.join(dataDir, "bonsai.db");
  const store = openStore({ path: dbPath, backgroundIndexing: false }); // as the CLI opens it
  await store.importFile(file);
  store.close();
  return { dataDir, dbPath };
}

/** what another connection to the database sees */
function readIn<T>(dbPath: string, read: (store: ReturnType<typeof openStore>) => T): T {
  const store = openStore({ path: dbPath });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

const unindexedIn = (dbPath: string): number => readIn(dbPath, (s) => s.unindexedCount());
const indexRowsIn = (dbPath: string): number => readIn(dbPath, (s) => s.db.prepare("SELECT count(*) FROM entries_fts").pluck().get() as number);

async function search(backend: Backend, query: string) {
  const r = await backend.dispatch("searchSessions", { query });
  if (!r.ok) throw new Error(r.error.message);
  return contract.searchSessions.output.parse(r.value);
}

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe("search with entries not yet indexed", () => {
  it("indexes at most SEARCH_INDEX_BUDGET entries per search, says how many are left, and finds the rest once indexed", async () => {
    const { dataDir, dbPath } = await importedNotIndexed();
    const before = unindexedIn(dbPath);
    expect(before).toBe(ENTRIES + 1);
    // no worker: background indexing runs on the backend's own thread, a batch per turn
    const backend = createBackend({ dataDir, env: { BONSAI_SESSIONS_DIRS: dataDir } });
    backends.push(backend);

    const first = await search(backend, LAST_WORD);
    expect(first.unindexed).toBe(before - SEARCH_INDEX_BUDGET);
    expect(first.hits).toEqual([]); // the last entry is among the ones still to come

    let last = first;
    await until("a complete answer", async () => {
      last = await search(backend, LAST_WORD);
      return last.unindexed === 0;
    });
    expect(last.hits.map((h) => h.entryId)).toEqual(["lastword"]);
    expect(unindexedIn(dbPath)).toBe(0);
  });

  it("with a store worker: indexes in the worker from the start, while the backend answers, each entry once", async () => {
    const { dataDir, dbPath } = await importedNotIndexed();
    const backend = createBackend({ dataDir, env: { BONSAI_SESSIONS_DIRS: dataDir }, worker: { url: workerUrl } });
    backends.push(backend);
    // searches on this thread (their budget) race the worker's background indexing of the same rows
    let searches = 0;
    await until("the worker to index everything", async () => {
      const r = await search(backend, "session");
      searches++;
      return r.unindexed === 0 && unindexedIn(dbPath) === 0;
    });
    expect(searches).toBeGreaterThan(0);
    const found = await search(backend, LAST_WORD);
    expect(found).toEqual({ unindexed: 0, hits: [expect.objectContaining({ entryId: "lastword" })] });
    // one index row per entry with text: the same count as a database indexed by one connection alone
    const reference = await importedNotIndexed();
    readIn(reference.dbPath, (s) => s.indexSearch());
    expect(indexRowsIn(dbPath)).toBe(indexRowsIn(reference.dbPath));
  });
});
