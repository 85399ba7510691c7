/**
 * getPackedSkeleton: the skeleton read straight into its wire form gives, once unpacked, exactly
 * what packing the node skeleton gives (previews of the heads only), on generated sessions, odd
 * files (duplicate ids, parents later in the file or missing, cycles, odd timestamps, every sparse
 * field), after appends, labels and pruning, and on the real recorded sessions.
 */
import * as fs from "node:fs";
import path from "node:path";
import { packSkeleton, unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { describe, expect, it } from "vitest";
import { InlineStoreJobs } from "../src/jobs/client";
import type { SqliteSessionStore } from "../src/sqlite-session-store";
import { HEADER, line, newStore, REAL_PI_FILES, SKIP_REAL, tempDir, toolResultEntry, userEntry } from "./support";

/** the packed read and the packed node skeleton, both unpacked, and where their previews are */
function expectSamePacking(store: SqliteSessionStore, sessionId: string): PackedSkeleton {
  const fast = store.getPackedSkeleton(sessionId);
  const reference = packSkeleton(store.getSkeleton(sessionId), { previews: "heads" });
  expect(fast.previewAt).toEqual(reference.previewAt);
  expect(fast.times).toEqual(reference.times);
  expect(unpackSkeleton(JSON.parse(JSON.stringify(fast)) as PackedSkeleton)).toStrictEqual(unpackSkeleton(reference));
  return fast;
}

describe("the packed skeleton read", () => {
  it("equals the packed node skeleton on a generated session with branches, compactions and labels", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    await writeSessionJsonl(file, generateSession({ entries: 3000, seed: 21, branchProbability: 0.1, compactionInterval: 400 }));
    const store = newStore(dir);
    const { sessionId } = await store.importFile(file);
    const packed = expectSamePacking(store, sessionId!);
    expect(packed.ids).toHaveLength(3000);
    expect(packed.previewAt!.length).toBeLessThan(3000);
    expect(Object.keys(packed.sparse)).toEqual(expect.arrayContaining(["toolName", "firstKeptEntryId", "tokensBefore"]));
  });

  it("equals it on an odd file: duplicate ids, late, missing and self parents, a cycle, odd timestamps, every sparse field", async () => {
    const dir = tempDir();
    const file = path.join(dir, "odd.jsonl");
    const at = (t: string) => ({ timestamp: t });
    const entries = [
      userEntry("a", null, "first", 0),
      // a parent that comes later in the file, and one that names no entry
      { ...userEntry("b", "late", "before its parent", 1) },
      { ...userEntry("c", "nowhere", "a lost parent", 2) },
      { ...userEntry("late", "a", "written after its child", 3) },
      // a duplicate id (both kept), and an entry that is its own parent
      { ...userEntry("a", "late", "the same id again", 4) },
      { ...userEntry("self", "self", "its own parent", 5) },
      // a cycle: x -> y -> x
      { ...userEntry("x", "y", "cycle one", 6) },
      { ...userEntry("y", "x", "cycle two", 7) },
      // timestamps of one day in Date's form and not: hours and seconds out of range, no ms, an offset, text
      { ...userEntry("t1", "late", "t1"), ...at("2025-03-04T10:00:00.000Z") },
      { ...userEntry("t2", "t1", "t2"), ...at("2025-03-04T24:00:00.000Z") },
      { ...userEntry("t3", "t2", "t3"), ...at("2025-03-04T10:60:00.000Z") },
      { ...userEntry("t4", "t3", "t4"), ...at("2025-03-04T10:00:60.000Z") },
      { ...userEntry("t5", "t4", "t5"), ...at("2025-03-04T1a:00:00.000Z") },
      { ...userEntry("t6", "t5", "t6"), ...at("2025-03-04T10:00:00Z") },
      { ...userEntry("t7", "t6", "t7"), ...at("2025-03-04T10:00:00.000+02:00") },
      { ...userEntry("t8", "t7", "t8"), ...at("") },
      { ...userEntry("t9", "t8", "t9"), ...at("2025-03-04T23:59:59.999Z") },
      { ...userEntry("t10", "t9", "t10"), ...at("2025-03-05T00:00:00.000Z") },
      { ...userEntry("t11", "t10", "t11"), ...at("2025-03-04T12:00:00.000Z") },
      {
        type: "message",
        id: "as",
        parentId: "t11",
        timestamp: "2025-03-05T00:00:01.000Z",
        message: {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "let me look" },
            { type: "toolCall", id: "call-1", name: "bash", arguments: { command: "ls" } },
          ],
          stopReason: "error",
          errorMessage: "boom",
          timestamp: 1,
        },
      },
      { ...toolResultEntry("tr", "as", "bash", "out", 9), message: { role: "toolResult", toolCallId: "call-1", toolName: "bash", content: [{ type: "text", text: "" }], isError: false, timestamp: 9, prunedAt: 10 } },
      { type: "compaction", id: "cmp", parentId: "tr", timestamp: "2025-03-05T00:00:02.000Z", summary: "so far", firstKeptEntryId: "as", tokensBefore: 1234, fromHook: true },
      { type: "branch_summary", id: "bs", parentId: "t1", timestamp: "2025-03-05T00:00:03.000Z", summary: "elsewhere", fromId: "t5" },
      { type: "custom_message", id: "cm", parentId: "bs", timestamp: "2025-03-05T00:00:04.000Z", customType: "note", content: "hello", display: true },
      // labels: on an entry whose id is written twice, and one cleared again
      { type: "label", id: "l1", parentId: "cm", timestamp: "2025-03-05T00:00:05.000Z", targetId: "a", label: "twice" },
      { type: "label", id: "l2", parentId: "l1", timestamp: "2025-03-05T00:00:06.000Z", targetId: "t3", label: "gone" },
      { type: "label", id: "l3", parentId: "l2", timestamp: "2025-03-05T00:00:07.000Z", targetId: "t3" },
    ];
    fs.writeFileSync(file, line(HEADER) + entries.map(line).join(""));
    const store = newStore(dir);
    const sessionId = (await store.importFile(file)).sessionId!;
    const packed = expectSamePacking(store, sessionId);
    const nodes = unpackSkeleton(packed).nodes;
    expect(nodes.filter((n) => n.id === "a").map((n) => n.label)).toEqual(["twice", "twice"]);
    expect(nodes.find((n) => n.id === "tr")?.pruned).toBe(true);
    expect(nodes.find((n) => n.id === "as")).toMatchObject({ thinking: true, stopReason: "error", toolName: "bash" });
    expect(nodes.find((n) => n.id === "cmp")).toMatchObject({ firstKeptEntryId: "as", tokensBefore: 1234, fromExtension: true });
    expect(nodes.find((n) => n.id === "bs")?.fromId).toBe("t5");
    expect(nodes.find((n) => n.id === "t2")?.timestamp).toBe("2025-03-04T24:00:00.000Z");
    expect(packed.times.filter((t) => typeof t === "string")).toEqual([
      "2025-03-04T24:00:00.000Z",
      "2025-03-04T10:60:00.000Z",
      "2025-03-04T10:00:60.000Z",
      "2025-03-04T1a:00:00.000Z",
      "2025-03-04T10:00:00Z",
      "2025-03-04T10:00:00.000+02:00",
      "",
    ]);
  });

  it("stays equal after appends, a label and a pruned tool result", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    await writeSessionJsonl(file, generateSession({ entries: 400, seed: 4 }));
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId!;
    expectSamePacking(store, id);
    const a = store.appendEntry(id, { type: "message", message: { role: "user", content: "one more", timestamp: 1 } });
    store.appendLabel(id, a.id, "here");
    const before = expectSamePacking(store, id);
    const toolResult = unpackSkeleton(before).nodes.find((n) => n.role === "toolResult" && !n.pruned)!;
    store.applyPruning(id, [{ entryId: toolResult.id, message: { role: "toolResult", toolCallId: "x", toolName: "bash", content: [{ type: "text", text: "" }], isError: false, timestamp: 1, prunedAt: 2 } }]);
    const after = expectSamePacking(store, id);
    expect(unpackSkeleton(after).nodes.find((n) => n.id === toolResult.id)?.pruned).toBe(true);
    expect(unpackSkeleton(after).nodes.find((n) => n.id === a.id)?.label).toBe("here");
  });

  it("gives an empty skeleton for a session without entries, and refuses an unknown one", () => {
    const store = newStore();
    const s = store.createSession({ cwd: "/p", title: "t" });
    const packed = expectSamePacking(store, s.id);
    expect(packed.ids).toEqual([]);
    expect(() => store.getPackedSkeleton("nope")).toThrow(/nope/);
  });

  it.skipIf(SKIP_REAL !== "")("equals it on the real recorded sessions", async () => {
    const store = newStore();
    for (const file of REAL_PI_FILES) {
      const { sessionId } = await store.importFile(file);
      if (sessionId) expectSamePacking(store, sessionId);
    }
  });
});

describe("background indexing while a tree is drawn", () => {
  const unindexed = (store: SqliteSessionStore) => store.db.prepare("SELECT count(*) FROM entries WHERE indexed = 0").pluck().get() as number;
  /** lets the event loop turn (each turn of background indexing takes one batch) */
  const turns = async (k: number) => {
    for (let i = 0; i < k; i++) await new Promise((r) => setImmediate(r));
  };

  /** a store with a session just imported through its jobs (background indexing scheduled) */
  const imported = async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    await writeSessionJsonl(file, generateSession({ entries: 2000, seed: 3 }));
    const store = newStore(dir);
    const jobs = new InlineStoreJobs(store);
    const sessionId = (await jobs.run({ kind: "importFile", file })).sessionId!;
    return { store, jobs, sessionId };
  };

  it("goes on by itself after an import, one batch a turn", async () => {
    const { store } = await imported();
    expect(unindexed(store)).toBeGreaterThan(0);
    await turns(10);
    expect(unindexed(store)).toBe(0);
  });

  it("waits after a skeleton read, while a search still finds what it asks for", async () => {
    const { store, jobs, sessionId } = await imported();
    await jobs.run({ kind: "packedSkeleton", sessionId });
    const pending = unindexed(store);
    expect(pending).toBeGreaterThan(0);
    await turns(10);
    expect(unindexed(store)).toBe(pending);
    expect(store.search("session").length).toBeGreaterThan(0);
    expect(unindexed(store)).toBe(0);
  });

  it("waits after a quiet job (a tree drawn from a skeleton the host holds)", async () => {
    const { store, jobs } = await imported();
    await jobs.run({ kind: "quiet" });
    const pending = unindexed(store);
    await turns(10);
    expect(unindexed(store)).toBe(pending);
  });
});
