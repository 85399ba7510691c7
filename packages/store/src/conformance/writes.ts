/** Conformance: append, label and leaf moves; what reaches the source file; pruning and its restore. */
import fs from "node:fs";
import path from "node:path";
import { applyPruning, planPruning } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { StaleCommitError } from "../session-store";
import { copyInto, jsonLines, withStore, type RealFixtures, type StoreFactory } from "./harness";

export function describeWrites(factory: StoreFactory, fx: RealFixtures, skip: string): void {
  describe.skipIf(skip !== "")("append, label, leaf", () => {
    it("appends at the leaf, then moves the leaf to the new entry", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const before = await store.getLeaf(id);
        const entry = await store.appendEntry(id, { type: "message", message: { role: "user", content: "conformance append", timestamp: 1 } });
        expect(entry.parentId).toBe(before);
        expect(entry.id).toEqual(expect.any(String));
        expect(await store.getLeaf(id)).toBe(entry.id);
        expect((await store.loadEntries(id)).at(-1)).toEqual(entry);
        expect(await store.getEntry(id, entry.id)).toEqual(entry);
        expect((await store.getSession(id))!.entryCount).toBe(jsonLines(fx.piTiny).length); // the file's entries (its lines less the header) and the new one
      });
    });

    it("appends under a given parent, and refuses a change planned from a leaf that moved (nothing written)", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const first = (await store.loadEntries(id))[0]!;
        const leaf = await store.getLeaf(id);
        const side = await store.appendEntry(id, { type: "message", message: { role: "user", content: "side branch", timestamp: 1 } }, { parentId: first.id });
        expect(side.parentId).toBe(first.id);
        const count = (await store.loadEntries(id)).length;
        const stale = async () => store.appendEntry(id, { type: "message", message: { role: "user", content: "stale", timestamp: 2 } }, { expect: { leafId: leaf } });
        await expect(stale).rejects.toThrow(StaleCommitError);
        expect(await store.loadEntries(id)).toHaveLength(count);
      });
    });

    it("labels an entry (the skeleton shows it) and clears the label", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const target = (await store.loadEntries(id))[1]!.id;
        const label = await store.appendLabel(id, target, "conformance-label");
        expect(label.type).toBe("label");
        expect((await store.getSkeleton(id)).nodes.find((n) => n.id === target)!.label).toBe("conformance-label");
        expect(await store.getLabel(id, target)).toBe("conformance-label");
        expect(await store.lastEntryId(id)).toBe(label.id);
        await store.appendLabel(id, target, undefined);
        expect((await store.getSkeleton(id)).nodes.find((n) => n.id === target)!.label).toBeUndefined();
        expect(await store.getLabel(id, target)).toBeUndefined();
      });
    });

    it("moves the leaf without adding an entry", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const entries = await store.loadEntries(id);
        const target = entries[2]!.id;
        await store.setLeaf(id, target);
        expect(await store.getLeaf(id)).toBe(target);
        expect((await store.getPath(id)).at(-1)!.id).toBe(target);
        expect(await store.loadEntries(id)).toEqual(entries);
      });
    });
  });
}

export function describeWriteThrough(factory: StoreFactory, fx: RealFixtures, skip: string): void {
  describe.skipIf(skip !== "")("write-through", () => {
    it("writes an appended entry to the end of the source file as one line; the export equals the file", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const file = copyInto(dir, fx.piTiny);
        const original = fs.readFileSync(file, "utf8");
        const id = await load(file);
        const entry = await store.appendEntry(id, { type: "message", message: { role: "user", content: "through to the file", timestamp: 1 } });
        const now = fs.readFileSync(file, "utf8");
        expect(now.startsWith(original)).toBe(true);
        expect(JSON.parse(now.slice(original.length))).toEqual(entry);
        expect(await store.renderJsonl(id)).toBe(now);
        const exported = path.join(dir, "export.jsonl");
        await store.exportJsonl(id, exported);
        expect(fs.readFileSync(exported, "utf8")).toBe(now);
      });
    });

    it("does not write a leaf move to the file (as pi does not)", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const file = copyInto(dir, fx.piTiny);
        const original = fs.readFileSync(file, "utf8");
        const id = await load(file);
        await store.setLeaf(id, (await store.loadEntries(id))[1]!.id);
        expect(fs.readFileSync(file, "utf8")).toBe(original);
      });
    });
  });
}

export function describePrune(factory: StoreFactory, fx: RealFixtures, skip: string): void {
  describe.skipIf(skip !== "")("prune and restore", () => {
    it("prunes tool outputs keeping the originals, and restores the file byte for byte", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const file = copyInto(dir, fx.piTools);
        const original = fs.readFileSync(file);
        const id = await load(file);
        const pathEntries = await store.getPath(id);
        const plan = planPruning(pathEntries, { protectTokens: 0, minimumSavings: 0, protectedTools: [] });
        expect(plan.prunedCount).toBeGreaterThan(0);
        const results = applyPruning(pathEntries, plan, 1_800_000_000_000);
        expect(await store.applyPruning(id, results)).toBe(results.length);
        const prunedIds = results.map((r) => r.entryId).sort();
        expect((await store.listPruned(id)).map((p) => p.entryId).sort()).toEqual(prunedIds);
        for (const kept of await store.listPruned(id)) expect(kept.original).toEqual(pathEntries.find((e) => e.id === kept.entryId));
        for (const r of results) expect(await store.getEntry(id, r.entryId)).toMatchObject({ message: r.message });
        expect((await store.getSession(id))!.prunedCount).toBe(results.length);
        expect(await store.restorePruned(id)).toBe(results.length);
        expect(await store.listPruned(id)).toEqual([]);
        expect(await store.getPath(id)).toEqual(pathEntries);
        expect(fs.readFileSync(file).equals(original)).toBe(true);
      });
    });
  });
}
