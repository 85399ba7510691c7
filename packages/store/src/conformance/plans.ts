/**
 * Conformance: the reads that plan a change or preview a session (prune and branch plans, the
 * compaction window, the size series, the context's token sum and preview rows, the session as the
 * formats layer reads it), each checked against core's pure function on the entries the store
 * gives, so an implementation that derives them from columns and one that derives them from the
 * entries must agree.
 */
import { buildIndex, computeFileLists, contextStepOfNode, contextTokensAlongPath, IdList, planBranch, planPruningOf, prepareCompaction, summarizePrunePlan, thinPositions, toolResultsOf } from "@bonsai/core";
import type { CompactionPlanSettings, CompactionPreparation, SessionEntry } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { withStore, type RealFixtures, type StoreFactory } from "./harness";

const PRUNE = { protectTokens: 200, minimumSavings: 100, protectedTools: ["skill"] };

/** what a compaction plan decides and sends, without its positions (which count from the start of the entries it was given) */
function decisionsOf(p: CompactionPreparation<CompactionPlanSettings>) {
  return {
    firstKeptEntryId: p.firstKeptEntryId,
    isSplitTurn: p.isSplitTurn,
    summarizeEntryIds: p.summarizeEntryIds,
    turnPrefixEntryIds: p.turnPrefixEntryIds,
    keptEntryIds: p.keptEntryIds,
    tokensBefore: p.tokensBefore,
    previousSummary: p.previousSummary,
    files: computeFileLists(p.fileOps),
    messages: [p.messagesToSummarize, p.turnPrefixMessages, p.recentMessages],
  };
}

/**
 * An id list as read (an IdList of one JSON text, or an array) has the ids core's list has, and an
 * IdList answers as one wherever it was read (through a store worker too: rebuilt on this side) —
 * its ids, and the JSON a report prints of them.
 */
function expectSameIds(got: IdList | readonly string[], want: IdList | readonly string[]): void {
  expect(got instanceof IdList || Array.isArray(got)).toBe(true);
  expect(got.length).toBe(want.length);
  expect(IdList.array(got)).toEqual(IdList.array(want));
  if (got instanceof IdList) expect(got.prettyJson("  ")).toBe(JSON.stringify(IdList.array(want), null, 2).replaceAll("\n", "\n  "));
}

export function describePlans(factory: StoreFactory, fx: RealFixtures, skip: string): void {
  describe.skipIf(skip !== "")("plans and previews", () => {
    it("plans pruning of the path's tool results as core plans it, and sums the plan up as core does", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.piTools);
        const leaf = await store.getLeaf(id);
        const results = toolResultsOf(await store.getPath(id, leaf));
        expect(results.length).toBeGreaterThan(10);
        expect(await store.getToolResultsOnPath(id, leaf)).toEqual(results);
        const plan = await store.getPrunePlan(id, leaf, PRUNE);
        expect(plan).toEqual(planPruningOf(results, PRUNE));
        expect(plan.prunedCount).toBeGreaterThan(0);
        // the ids may be held as read (an IdList of one JSON text) or as an array: compared as ids
        const { entryIds, ...summary } = await store.getPruneSummary(id, leaf, PRUNE);
        const { entryIds: wantIds, ...want } = summarizePrunePlan(plan);
        expect(summary).toEqual(want);
        expectSameIds(entryIds, wantIds);
      });
    });

    it("plans a branch summary of the abandoned branch as core plans it on the session's entries", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.piBranched);
        const entries: SessionEntry[] = await store.loadEntries(id);
        const leaf = await store.getLeaf(id);
        const onPath = await store.areOnPath(id, entries.map((e) => e.id));
        const abandonedTip = entries.filter((_, i) => !onPath[i]).at(-1)!.id;
        for (const budget of [100_000, 500]) {
          const { entryIds, ...plan } = await store.getBranchPlan(id, leaf, abandonedTip, budget);
          const { entryIds: wantIds, ...want } = planBranch(buildIndex(entries), leaf, abandonedTip, budget);
          expect(plan).toEqual(want);
          expectSameIds(entryIds, wantIds);
          if (budget === 100_000) expect(plan.includedEntryIds.length).toBeGreaterThan(0);
        }
      });
    });

    it("gives a compaction window that plans a compaction exactly as the whole path does", async () => {
      await withStore(factory, async ({ load, store }) => {
        for (const file of [fx.claudeCode, fx.piBranched]) {
          const id = await load(file);
          const leaf = await store.getLeaf(id);
          const path = await store.getPath(id, leaf);
          const window = await store.getCompactionWindow(id, leaf);
          expect(window.at(-1)?.id).toBe(leaf);
          if (path.some((e) => e.type === "compaction")) expect(window.length).toBeLessThan(path.length);
          for (const keepRecentTokens of [20_000, 2_000]) {
            const settings = { enabled: true, reserveTokens: 16_384, keepRecentTokens };
            const want = prepareCompaction(path, settings);
            const got = prepareCompaction(window, settings);
            expect(got === undefined).toBe(want === undefined);
            if (got && want) expect(decisionsOf(got)).toEqual(decisionsOf(want));
          }
        }
      });
    });

    it("sums the context's token estimates, sizes it along the path, and lists its messages as the summary does", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.claudeCode);
        const leaf = await store.getLeaf(id);
        const summary = await store.getContextSummary(id, leaf);
        expect(await store.getContextTokens(id, leaf)).toBe(summary.tokens.reduce((a, b) => a + b, 0));
        const series = await store.getSizeSeries(id, leaf, 8);
        // core's figures along the path's nodes, at core's thinned positions (the compactions always among them)
        const nodes = await store.getPathNodes(id, leaf);
        const compactions = nodes.flatMap((n, pos) => (n.type === "compaction" ? [pos] : []));
        const along = contextTokensAlongPath(nodes.map(contextStepOfNode));
        expect(compactions.length).toBeGreaterThan(0);
        expect(series).toEqual({
          pathLength: nodes.length,
          points: thinPositions(nodes.length, compactions, 8).map((pos) => ({ pos, entryId: nodes[pos]!.id, tokens: along[pos], compaction: compactions.includes(pos) })),
        });
        // null tells the caller to build the preview from getContextEntries; rows must agree with the summary
        const rows = await store.getContextMessages(id, leaf);
        if (rows !== null) expect(rows.summary).toEqual(summary);
      });
    });

    it("reads a pi session as the formats layer does: its header, every entry, the leaf asked", async () => {
      await withStore(factory, async ({ load, store }) => {
        const id = await load(fx.piBranched);
        const entries = await store.loadEntries(id);
        const read = await store.readSession(id);
        expect(read.format).toBe("pi");
        expect(read.header).toEqual(await store.getHeader(id));
        expect(read.entries).toEqual(entries);
        expect(read.leafId).toBe(await store.getLeaf(id));
        expect((await store.readSession(id, entries[3]!.id)).leafId).toBe(entries[3]!.id);
        await expect(async () => store.readSession("zz-unknown")).rejects.toThrow();
      });
    });
  });
}
