/** Conformance: search (words, prefixes, phrases, a CJK word inside a sentence), events, live follow. */
import fs from "node:fs";
import { describe, expect, it, vi } from "vitest";
import type { StoreEvents } from "../session-store";
import { copyInto, jsonLines, withStore, writePiSession, type ConformanceStore, type RealFixtures, type StoreFactory } from "./harness";

const TEXTS = [
  "please refactor the tokenizer before lunch",
  "我们今天需要把数据库迁移到新的服务器上",
  "the weather report mentions the tokenizers twice",
];

export function describeSearch(factory: StoreFactory): void {
  describe("search", () => {
    it("finds words, prefixes, phrases and a Chinese word inside a sentence, with the match marked", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        // entry ids are made from the file's session id; the store may name the session otherwise (an archive: project/person/id)
        const id = await load(writePiSession(dir, "conf-search", TEXTS));
        await load(writePiSession(dir, "conf-search-other", ["nothing about that here"]));
        const [e, o] = ["conf-search", "conf-search-other"];
        const ids = async (query: string, sessionId?: string) => (await store.search(query, { sessionId })).map((h) => h.entryId).sort();
        expect(await ids("tokenizer")).toEqual([`${e}-e0`]);
        expect(await ids("tokeni*")).toEqual([`${e}-e0`, `${e}-e2`]);
        expect(await ids('"refactor the tokenizer"')).toEqual([`${e}-e0`]);
        expect(await ids('"the tokenizer refactor"')).toEqual([]);
        expect(await ids("数据库")).toEqual([`${e}-e1`]);
        expect(await ids("weather tokenizers")).toEqual([`${e}-e2`]);
        expect(await ids("weather lunch")).toEqual([]);
        expect(await ids("nothing")).toEqual([`${o}-e0`]);
        expect(await ids("nothing", id)).toEqual([]);
        const [hit] = await store.search("数据库");
        expect(hit).toMatchObject({ sessionId: id, type: "message", role: "user" });
        expect(hit!.snippet).toContain("[数据库]");
        for (const q of ["AND OR", '"unbalanced', "(paren", "   "]) await expect(Promise.resolve().then(() => store.search(q))).resolves.toEqual(expect.any(Array));
      });
    });
  });
}

interface Heard {
  "entries-added"?: StoreEvents["entries-added"][];
  "session-updated"?: StoreEvents["session-updated"][];
}

/** Records what the store announces; `stop` unsubscribes. */
function listen(store: ConformanceStore): { heard: Heard; stop: () => void } {
  const heard: Heard = {};
  const offs = [
    store.on("entries-added", (payload) => (heard["entries-added"] ??= []).push(payload)),
    store.on("session-updated", (payload) => (heard["session-updated"] ??= []).push(payload)),
  ];
  return { heard, stop: () => offs.forEach((off) => off()) };
}

export function describeEvents(factory: StoreFactory, fx: RealFixtures, skip: string, can: { import: boolean; write: boolean }): void {
  describe.skipIf(skip !== "")("events", () => {
    it.skipIf(!can.import)("announces a first import as a session, the lines a file grew by as entries in file order, and stops after unsubscribing", async () => {
      await withStore(factory, async ({ dir, store }) => {
        const file = copyInto(dir, fx.piTiny);
        const { heard, stop } = listen(store);
        const id = (await store.importFile(file)).sessionId!;
        expect(heard["session-updated"]).toContainEqual({ sessionId: id, reason: "imported" });
        const last = jsonLines(file).at(-1)!;
        const grown = [1, 2].map((n) => ({ type: "message", id: `conf0e0${n}`, parentId: n === 1 ? last.id : "conf0e01", timestamp: "2026-12-01T00:00:00.000Z", message: { role: "user", content: `grown ${n}`, timestamp: n } }));
        fs.appendFileSync(file, grown.map((e) => `${JSON.stringify(e)}\n`).join(""));
        expect((await store.importFile(file)).status).toBe("appended");
        const added = heard["entries-added"] ?? [];
        expect(added.every((e) => e.sessionId === id && e.source === "import")).toBe(true);
        expect(added.flatMap((e) => e.entries)).toEqual(grown);
        stop();
        await store.importFile(writePiSession(dir, "conf-events-after", ["unheard"]));
        expect(heard["entries-added"]).toHaveLength(added.length);
        expect(heard["session-updated"]!.some((e) => e.sessionId !== id)).toBe(false);
      });
    });

    it.skipIf(!can.write)("announces an append and a leaf move", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const { heard } = listen(store);
        const entry = await store.appendEntry(id, { type: "message", message: { role: "user", content: "heard", timestamp: 1 } });
        expect(heard["entries-added"]).toEqual([{ sessionId: id, entries: [entry], source: "append" }]);
        await store.setLeaf(id, entry.parentId);
        expect(heard["session-updated"]).toContainEqual({ sessionId: id, reason: "leaf" });
      });
    });
  });
}

export function describeFollow(factory: StoreFactory, fx: RealFixtures, skip: string): void {
  describe.skipIf(skip !== "")("follow", () => {
    it("reads in what an agent appends to a followed file", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const file = copyInto(dir, fx.piTiny);
        const id = await load(file);
        const { heard } = listen(store);
        const follower = await store.follow!({ sessionIds: [id], pollIntervalMs: 50 });
        try {
          const last = jsonLines(file).at(-1)!;
          const line = { type: "message", id: "conf0f01", parentId: last.id, timestamp: "2026-12-01T00:00:00.000Z", message: { role: "user", content: "from the agent", timestamp: 1 } };
          fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
          await vi.waitFor(async () => expect(await store.hasEntry(id, "conf0f01")).toBe(true), { timeout: 10_000, interval: 50 });
          expect(heard["entries-added"]).toContainEqual({ sessionId: id, entries: [line], source: "follow" });
        } finally {
          follower.close();
        }
      });
    });
  });
}
