/**
 * Conformance: what an implementation declares it does not do (a team archive neither imports host
 * files, nor writes, prunes or follows) is refused with the read-only BonsaiError and changes
 * nothing; a capability declared false is checked, not silently skipped.
 */
import { applyPruning, BonsaiError, planPruning } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { copyInto, writePiSession, withStore, type ConformanceStore, type RealFixtures, type RefusableCapability, type StoreCapabilities, type StoreFactory } from "./harness";

const REFUSABLE: readonly RefusableCapability[] = ["import", "write", "prune", "follow"];

/** The call is refused with a BonsaiError of kind "read_only" (thrown at once or as a rejection). */
async function expectReadOnly(call: () => unknown): Promise<void> {
  let caught: unknown;
  try {
    await call();
  } catch (error) {
    caught = error;
  }
  expect(caught, "a declared-unsupported operation must refuse, not succeed").toBeInstanceOf(BonsaiError);
  expect((caught as BonsaiError).kind).toBe("read_only");
}

/** What a refused call must leave as it was. */
async function snapshot(store: ConformanceStore, id: string) {
  return { session: await store.getSession(id), entries: await store.loadEntries(id), leaf: await store.getLeaf(id), skeleton: await store.getSkeleton(id) };
}

export function describeRefusals(factory: StoreFactory, fx: RealFixtures, can: StoreCapabilities, missing: string): void {
  const refused = REFUSABLE.filter((capability) => !can[capability]);
  describe.skipIf(refused.length === 0 || !can.read || missing !== "")(`refused capabilities (${refused.join(", ") || "none"})`, () => {
    it.skipIf(can.import)("refuses to import a file or a folder, and stores nothing", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const kept = await load(writePiSession(dir, "conf-refuse-kept", ["already here"]));
        const before = await store.listSessions();
        const file = copyInto(dir, fx.piTiny);
        await expectReadOnly(() => store.importFile(file));
        await expectReadOnly(() => store.importPaths([dir]));
        expect(await store.listSessions()).toEqual(before);
        expect((await store.listSessions()).map((s) => s.id)).toEqual([kept]);
      });
    });

    it.skipIf(can.write)("refuses an append, a label and a leaf move; the session is as it was", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const before = await snapshot(store, id);
        const [first, second] = before.entries;
        await expectReadOnly(() => store.appendEntry(id, { type: "message", message: { role: "user", content: "refused", timestamp: 1 } }));
        await expectReadOnly(() => store.appendEntry(id, { type: "message", message: { role: "user", content: "refused", timestamp: 1 } }, { parentId: first!.id }));
        await expectReadOnly(() => store.appendLabel(id, second!.id, "refused-label"));
        await expectReadOnly(() => store.setLeaf(id, first!.id));
        expect(await snapshot(store, id)).toEqual(before);
        expect(await store.getLabel(id, second!.id)).toBeUndefined();
      });
    });

    it.skipIf(can.prune)("refuses to prune or restore tool outputs; the entries are as they were", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTools));
        const before = await snapshot(store, id);
        const pathEntries = await store.getPath(id);
        const plan = planPruning(pathEntries, { protectTokens: 0, minimumSavings: 0, protectedTools: [] });
        expect(plan.prunedCount).toBeGreaterThan(0);
        await expectReadOnly(() => store.applyPruning(id, applyPruning(pathEntries, plan, 1_800_000_000_000)));
        await expectReadOnly(() => store.restorePruned(id));
        expect(await snapshot(store, id)).toEqual(before);
        expect(await store.listPruned(id)).toEqual([]);
      });
    });

    it.skipIf(can.follow)("refuses to follow session files", async () => {
      await withStore(factory, async ({ dir, load, store }) => {
        const id = await load(copyInto(dir, fx.piTiny));
        const follow = store.follow;
        // an implementation without follow() cannot be asked to (the compiler sees to that)
        if (follow === undefined) return;
        await expectReadOnly(() => follow.call(store, { sessionIds: [id], pollIntervalMs: 50 }));
        await expectReadOnly(() => follow.call(store));
      });
    });
  });
}
