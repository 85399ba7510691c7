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
        const before = store.getLeaf(id);
        const entry = store.appendEntry(id, { type: "message", message: { role: "user", content: "conformance append", timestamp: 1 } });
        expect(entry.parentId).toBe(before);
        expect(entry.id).toEqual(expect.any(String));
        expect(store.getLeaf(id)).toBe(entry.id);
        expect(store.loadEntries(id).at(-1)).toEqual(entry);
        expect(store.getEntry(id, entry.id)).toEqual(entry);
        expect(store.getSession(id)!.entryCount).toBe(jsonLines(fx.piTiny).length); // the file's entries (its lines less the header) and the new one
      });
    });

    it("appends under a given parent, and refuses a change planned from a leaf that moved (nothing written)", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const first = store.loadEntries(id)[0]!;
        const leaf = store.getLeaf(id);
        const side = store.appendEntry(id, { type: "message", message: { role: "user", content: "side branch", timestamp: 1 } }, { parentId: first.id });
        expect(side.parentId).toBe(first.id);
        const count = store.loadEntries(id).length;
        const stale = () => store.appendEntry(id, { type: "message", message: { role: "user", content: "stale", timestamp: 2 } }, { expect: { leafId: leaf } });
        expect(stale).toThrow(StaleCommitError);
        expect(store.loadEntries(id)).toHaveLength(count);
      });
    });

    it("labels an entry (the skeleton shows it) and clears the label", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const target = store.loadEntries(id)[1]!.id;
        const label = store.appendLabel(id, target, "conformance-label");
        expect(label.type).toBe("label");
        expect(store.getSkeleton(id).nodes.find((n) => n.id === target)!.label).toBe("conformance-label");
        expect(store.getLabel(id, target)).toBe("conformance-label");
        expect(store.lastEntryId(id)).toBe(label.id);
        store.appendLabel(id, target, undefined);
        expect(store.getSkeleton(id).nodes.find((n) => n.id === target)!.label).toBeUndefined();
        expect(store.getLabel(id, target)).toBeUndefined();
      });
    });

    it("moves the leaf without adding an entry", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const entries = store.loadEntries(id);
        const target = entries[2]!.id;
        store.setLeaf(id, target);
        expect(store.getLeaf(id)).toBe(target);
        expect(store.getPath(id).at(-1)!.id).toBe(target);
        expect(store.loadEntries(id)).toEqual(entries);
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
        const entry = store.appendEntry(id, { type: "message", message: { role: "user", content: "through to the file", timestamp: 1 } });
        const now = fs.readFileSync(file, "utf8");
        expect(now.startsWith(original)).toBe(true);
        expect(JSON.parse(now.slice(original.length))).toEqual(entry);
        expect(store.renderJsonl(id)).toBe(now);
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
        store.setLeaf(id, store.loadEntries(id)[1]!.id);
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
        const pathEntries = store.getPath(id);
        const plan = planPruning(pathEntries, { protectTokens: 0, minimumSavings: 0, protectedTools: [] });
        expect(plan.prunedCount).toBeGreaterThan(0);
        const results = applyPruning(pathEntries, plan, 1_800_000_000_000);
        expect(store.applyPruning(id, results)).toBe(results.length);
        const prunedIds = results.map((r) => r.entryId).sort();
        expect(store.listPruned(id).map((p) => p.entryId).sort()).toEqual(prunedIds);
        for (const kept of store.listPruned(id)) expect(kept.original).toEqual(pathEntries.find((e) => e.id === kept.entryId));
        for (const r of results) expect(store.getEntry(id, r.entryId)).toMatchObject({ message: r.message });
        expect(store.getSession(id)!.prunedCount).toBe(results.length);
        expect(store.restorePruned(id)).toBe(results.length);
        expect(store.listPruned(id)).toEqual([]);
        expect(store.getPath(id)).toEqual(pathEntries);
        expect(fs.readFileSync(file).equals(original)).toBe(true);
      });
    });
  });
}
