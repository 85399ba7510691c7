/**
 * Kept packed skeletons (reads/skeleton-cache.ts): a kept one is given only while the session is in
 * the state it was read in, and is always what a read gives now. Real SQLite files, real changes
 * through the store (appends, labels, prunes, restores, leaf moves, a rewritten file, removal).
 */
import * as fs from "node:fs";
import path from "node:path";
import { unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { InlineStoreJobs } from "../src/jobs/client";
import { Statements } from "../src/reads/path";
import { packedSkeletonJson, SKELETON_CACHE_MIN_ENTRIES } from "../src/reads/skeleton-cache";
import type { SqliteSessionStore } from "../src/sqlite-session-store";
import { newStore, tempDir } from "./support";

/** the kept-or-read JSON (kept from one entry on), how many reads it took, and what a read gives now */
function cached(store: SqliteSessionStore, sessionId: string): { packed: PackedSkeleton; reads: number; now: PackedSkeleton } {
  let reads = 0;
  const { json, keep } = packedSkeletonJson(new Statements(store.db), sessionId, () => {
    reads++;
    return store.getPackedSkeleton(sessionId);
  }, 1);
  expect(keep === null).toBe(reads === 0);
  keep?.();
  return { packed: JSON.parse(json) as PackedSkeleton, reads, now: store.getPackedSkeleton(sessionId) };
}

const keptRows = (store: SqliteSessionStore): number => store.db.prepare("SELECT count(*) FROM skeleton_cache").pluck().get() as number;

async function imported(entries = 300): Promise<{ store: SqliteSessionStore; id: string; file: string }> {
  const dir = tempDir();
  const file = path.join(dir, "s.jsonl");
  await writeSessionJsonl(file, generateSession({ entries, seed: 8 }));
  const store = newStore(dir);
  const id = (await store.importFile(file)).sessionId as string;
  return { store, id, file };
}

describe("kept packed skeletons", () => {
  it("are given again while nothing changed, and read again after every change a skeleton shows", async () => {
    const { store, id, file } = await imported();
    const expectRead = (reads: number): PackedSkeleton => {
      const r = cached(store, id);
      expect(r.reads).toBe(reads);
      expect(r.packed).toEqual(r.now);
      return r.packed;
    };
    expectRead(1);
    expectRead(0);
    // rows added (by Bonsai, and by the agent in the file)
    const added = store.appendEntry(id, { type: "message", message: { role: "user", content: "one more", timestamp: 1 } });
    expectRead(1);
    fs.appendFileSync(file, `${JSON.stringify({ type: "message", id: "agent1", parentId: added.id, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: "from the agent", timestamp: 2 } })}\n`);
    expect((await store.importFile(file)).status).toBe("appended");
    expectRead(1);
    store.appendLabel(id, added.id, "here");
    expect(unpackSkeleton(expectRead(1)).nodes.find((n) => n.id === added.id)?.label).toBe("here");
    expectRead(0);
    // rows changed in place: a prune and a restore (the trigger), not the search index's flag
    const toolResult = unpackSkeleton(store.getPackedSkeleton(id)).nodes.find((n) => n.role === "toolResult" && !n.pruned)!;
    store.applyPruning(id, [{ entryId: toolResult.id, message: { role: "toolResult", toolCallId: "x", toolName: "bash", content: [{ type: "text", text: "" }], isError: false, timestamp: 1, prunedAt: 2 } }]);
    expect(unpackSkeleton(expectRead(1)).nodes.find((n) => n.id === toolResult.id)?.pruned).toBe(true);
    store.restorePruned(id, [toolResult.id]);
    expect(unpackSkeleton(expectRead(1)).nodes.find((n) => n.id === toolResult.id)?.pruned).toBeUndefined();
    store.db.prepare("UPDATE entries SET indexed = 1 WHERE session_id = ?").run(id);
    expectRead(0);
    // the leaf moved (which previews travel follows the active path)
    store.setLeaf(id, toolResult.id);
    expect(expectRead(1).leafId).toBe(toolResult.id);
    expectRead(0);
    // the file rewritten (a new generation)
    await writeSessionJsonl(file, generateSession({ entries: 200, seed: 9 }));
    expect((await store.importFile(file)).status).toBe("reimported");
    expect(expectRead(1).ids).toHaveLength(200);
    expectRead(0);
    // removed with its session
    expect(keptRows(store)).toBe(1);
    store.deleteSession(id);
    expect(keptRows(store)).toBe(0);
  });

  it(`are kept for sessions of ${SKELETON_CACHE_MIN_ENTRIES.toLocaleString("en")} entries or more only, through the store's own call`, async () => {
    const small = await imported(300);
    const read = small.store.getPackedSkeletonJson(small.id);
    expect(read.json).toBe(JSON.stringify(small.store.getPackedSkeleton(small.id)));
    expect(read.keep).toBeNull();
    const big = await imported(SKELETON_CACHE_MIN_ENTRIES);
    const first = big.store.getPackedSkeletonJson(big.id);
    expect(JSON.parse(first.json)).toEqual(big.store.getPackedSkeleton(big.id));
    expect(keptRows(big.store)).toBe(0); // kept once the caller runs keep (after its answer)
    first.keep?.();
    expect(keptRows(big.store)).toBe(1);
    const again = big.store.getPackedSkeletonJson(big.id);
    expect(again.json).toBe(first.json);
    expect(again.keep).toBeNull();
    // a store job (on a store that holds nothing yet: the next start's) answers first and keeps the skeleton a turn later
    big.store.db.prepare("DELETE FROM skeleton_cache").run();
    const next = newStore(path.dirname(big.file));
    const answer = await new InlineStoreJobs(next).call("packedSkeleton", big.id);
    expect(answer.json).toBe(first.json);
    expect(keptRows(next)).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(keptRows(next)).toBe(1);
  });

  it("are not kept while another connection writes (the answer does not wait), and read again later", async () => {
    const { store, id } = await imported();
    const other = new Database(store.db.name);
    other.exec("BEGIN IMMEDIATE");
    try {
      const r = cached(store, id);
      expect(r.reads).toBe(1);
      expect(r.packed).toEqual(r.now);
      expect(keptRows(store)).toBe(0);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(cached(store, id).reads).toBe(1);
    expect(cached(store, id).reads).toBe(0);
  });
});
