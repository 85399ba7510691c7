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
import { Statements } from "../src/reads/path";
import { readRegularPackedSkeleton } from "../src/reads/packed-skeleton";
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

/**
 * Entries with every optional field of a node: an assistant message "as" (thinking, a tool call, an
 * error stop) under `parentId`, its pruned tool result "tr", a compaction "cmp" keeping from "as", a
 * branch summary "bs" under `summaryParent` from `fromId`, and a custom message "cm".
 */
function everyOptionalField(parentId: string, summaryParent: string, fromId: string): Record<string, unknown>[] {
  return [
    {
      type: "message",
      id: "as",
      parentId,
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
    { type: "branch_summary", id: "bs", parentId: summaryParent, timestamp: "2025-03-05T00:00:03.000Z", summary: "elsewhere", fromId },
    { type: "custom_message", id: "cm", parentId: "bs", timestamp: "2025-03-05T00:00:04.000Z", customType: "note", content: "hello", display: true },
  ];
}

/** a label entry `id` (the k-th, after "cm") on `targetId`; no label clears it */
function labelEntry(k: number, targetId: string, label?: string): Record<string, unknown> {
  return { type: "label", id: `l${k}`, parentId: k === 1 ? "cm" : `l${k - 1}`, timestamp: `2025-03-05T00:00:0${4 + k}.000Z`, targetId, ...(label === undefined ? {} : { label }) };
}

describe("the packed skeleton read", () => {
  it("equals the packed node skeleton on a generated session with branches, compactions and labels", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    await writeSessionJsonl(file, generateSession({ entries: 3000, seed: 21, branchProbability: 0.1, compactionInterval: 400 }));
    const store = newStore(dir);
    const { sessionId } = await store.importFile(file);
    const packed = expectSamePacking(store, sessionId!);
    expect(readRegularPackedSkeleton(new Statements(store.db), sessionId!, store.getLeaf(sessionId!)), "a generated session is regular").not.toBeNull();
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
      ...everyOptionalField("t11", "t1", "t5"),
      // labels: on an entry whose id is written twice, and one cleared again
      labelEntry(1, "a", "twice"),
      labelEntry(2, "t3", "gone"),
      labelEntry(3, "t3"),
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

  it("reads a regular session by its stored parent seqs, and any other by ids: both equal it", async () => {
    const dir = tempDir();
    const file = path.join(dir, "regular.jsonl");
    const entries = [
      userEntry("a", null, "first", 0),
      // an entry that is its own parent, one whose parent is nowhere, one whose parent comes later
      userEntry("self", "self", "its own parent", 1),
      userEntry("lost", "nowhere", "a lost parent", 2),
      userEntry("early", "p", "its parent is appended later", 3),
      ...everyOptionalField("a", "a", "tr"),
      labelEntry(1, "cmp", "kept"),
      labelEntry(2, "a", "gone"),
      labelEntry(3, "a"),
      labelEntry(4, "bs", "summary"),
    ];
    fs.writeFileSync(file, line(HEADER) + entries.map(line).join(""));
    const store = newStore(dir);
    const sessionId = (await store.importFile(file)).sessionId!;
    // the parent of "early" arrives with the next import of the grown file
    fs.appendFileSync(file, line(userEntry("p", "a", "a parent after its child", 20)));
    expect((await store.importFile(file)).status).toBe("appended");
    const sql = new Statements(store.db);
    const regular = readRegularPackedSkeleton(sql, sessionId, store.getLeaf(sessionId));
    expect(regular, "read by its stored parent seqs").not.toBeNull();
    const packed = expectSamePacking(store, sessionId);
    expect(unpackSkeleton(regular!)).toStrictEqual(unpackSkeleton(packed));
    const nodes = unpackSkeleton(regular!).nodes;
    const byId = (id: string) => nodes.find((n) => n.id === id);
    expect([byId("self")?.parentId, byId("lost")?.parentId, byId("early")?.parentId]).toEqual(["self", "nowhere", "p"]);
    expect(regular!.parents.slice(1, 4)).toEqual([1, -2, entries.length]);
    expect(byId("cmp")).toMatchObject({ label: "kept", firstKeptEntryId: "as", tokensBefore: 1234, fromExtension: true });
    expect(byId("a")?.label).toBeUndefined();
    expect(byId("bs")).toMatchObject({ label: "summary", fromId: "tr" });
    expect(byId("as")).toMatchObject({ thinking: true, toolName: "bash", stopReason: "error" });
    expect(byId("tr")?.pruned).toBe(true);
    expect(byId("cm")?.customType).toBe("note");

    // an id written twice makes the session irregular: read by ids, still equal
    fs.appendFileSync(file, line(userEntry("a", "p", "the same id again", 21)));
    expect((await store.importFile(file)).status).toBe("appended");
    expect(readRegularPackedSkeleton(sql, sessionId, store.getLeaf(sessionId))).toBeNull();
    expectSamePacking(store, sessionId);
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
    const sessionId = (await jobs.call("importFile", file)).sessionId!;
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
    await jobs.call("packedSkeleton", sessionId);
    const pending = unindexed(store);
    expect(pending).toBeGreaterThan(0);
    await turns(10);
    expect(unindexed(store)).toBe(pending);
    expect(store.search("session").length).toBeGreaterThan(0);
    expect(unindexed(store)).toBe(0);
  });

  it("waits after a quiet job (a tree drawn from a skeleton the host holds)", async () => {
    const { store, jobs } = await imported();
    await jobs.call("quiet");
    const pending = unindexed(store);
    await turns(10);
    expect(unindexed(store)).toBe(pending);
  });
});
