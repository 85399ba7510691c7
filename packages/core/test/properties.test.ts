/**
 * Property tests on generated session trees: cut points, the context after a compaction, and
 * pruning never touching protected tools.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantContentBlock, SessionEntry, UserContentBlock } from "../src/entries";
import { convertToLlm } from "../src/convert";
import { computeFileLists } from "../src/file-ops";
import { collectEntriesForBranchSummary, getBranchMessageFromEntry, prepareBranchEntries } from "../src/branch";
import { serializeConversation } from "../src/serialize-conversation";
import { buildIndex, getPath } from "../src/tree";
import { buildSessionContext, messageFromEntry } from "../src/context";
import { findCutPoint, findValidCutPoints } from "../src/cut-point";
import { prepareCompaction } from "../src/prepare-compaction";
import { CHECKOUT_PROTECTED_TOOLS, DEFAULT_PRUNE_CONFIG, applyPruning, planPruning } from "../src/prune";
import { sessionArb } from "./support/arbitrary-session";
import { A, AC, TR, U, call, chain, timestampOf } from "./support/notation";

const RUNS = { numRuns: 150 };

/** A session, one of its entries as the leaf, and a keep budget. */
const scenarioArb = sessionArb.chain((entries) =>
  fc.record({
    entries: fc.constant(entries),
    leaf: fc.constantFrom(...entries.map((e) => e.id)),
    keep: fc.integer({ min: 1, max: 40000 }),
  }),
);

function assertEveryToolResultHasItsCall(messages: readonly AgentMessage[]): void {
  const calls = new Set<string>();
  for (const message of messages) {
    if (message.role === "assistant") {
      for (const block of message.content) if (block.type === "toolCall") calls.add(block.id);
    } else if (message.role === "toolResult") {
      expect(calls.has(message.toolCallId), `tool result ${message.toolCallId} without its call`).toBe(true);
    }
  }
}

function isToolResultEntry(entry: SessionEntry | undefined): boolean {
  return entry?.type === "message" && entry.message.role === "toolResult";
}

describe("properties of cut points and compacted contexts", () => {
  it("no cut lands on a toolResult when the range has a valid cut point", () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(), ({ entries, leaf, keep }, startSeed) => {
        const path = getPath(buildIndex(entries), leaf);
        const start = path.length > 0 ? startSeed % path.length : 0;
        const result = findCutPoint(path, start, path.length, keep);
        if (findValidCutPoints(path, start, path.length).length > 0) {
          expect(isToolResultEntry(path[result.firstKeptEntryIndex])).toBe(false);
        }
        expect(result.firstKeptEntryIndex).toBeGreaterThanOrEqual(start);
        if (result.isSplitTurn) expect(result.turnStartIndex).toBeLessThanOrEqual(result.firstKeptEntryIndex);
      }),
      RUNS,
    );
  });

  it("after a compaction the context holds no toolResult without its call and the kept region starts at firstKeptEntryId", () => {
    fc.assert(
      fc.property(scenarioArb, ({ entries, leaf, keep }) => {
        const index = buildIndex(entries);
        const path = getPath(index, leaf);
        assertEveryToolResultHasItsCall(buildSessionContext(entries, leaf, index).messages);

        const prep = prepareCompaction(path, { keepRecentTokens: keep });
        if (!prep) return;
        expect(prep.keptEntryIds[0]).toBe(prep.firstKeptEntryId);
        expect(isToolResultEntry(path[prep.firstKeptEntryIndex])).toBe(false);

        const compaction = {
          type: "compaction",
          id: "compaction-under-test",
          parentId: leaf,
          timestamp: timestampOf(entries.length),
          summary: "s",
          firstKeptEntryId: prep.firstKeptEntryId,
          tokensBefore: prep.tokensBefore,
        } as SessionEntry;
        const compacted = [...entries, compaction];
        const context = buildSessionContext(compacted, compaction.id);
        expect(context.messages[0]?.role).toBe("compactionSummary");
        assertEveryToolResultHasItsCall(context.messages);

        const keptWithMessages = prep.keptEntryIds.filter((id) => {
          const entry = index.byId.get(id) as SessionEntry;
          return messageFromEntry(entry) !== undefined;
        });
        expect(context.entryIds.slice(1)).toEqual(keptWithMessages);
        expect(context.messages.length - 1).toBeLessThanOrEqual(prep.recentMessages.length);
      }),
      RUNS,
    );
  });
});

describe("properties of pruning", () => {
  it("pruning never touches protected tools, already pruned results or non-tool entries", () => {
    fc.assert(
      fc.property(scenarioArb, fc.boolean(), ({ entries, leaf }, checkout) => {
        const config = checkout ? { ...DEFAULT_PRUNE_CONFIG, protectedTools: CHECKOUT_PROTECTED_TOOLS } : DEFAULT_PRUNE_CONFIG;
        const path = getPath(buildIndex(entries), leaf);
        const before = JSON.stringify(path);
        const plan = planPruning(path, config);
        for (const candidate of plan.candidates) {
          const entry = path[candidate.index];
          expect(entry?.type === "message" && entry.message.role === "toolResult").toBe(true);
          expect(config.protectedTools).not.toContain(candidate.toolName);
        }
        expect(plan.prunedCount).toBe(plan.candidates.length);
        if (plan.prunedCount > 0) expect(plan.tokensSaved).toBeGreaterThanOrEqual(config.minimumSavings);
        const pruned = applyPruning(path, plan, 1);
        expect(pruned.every((p) => p.message.prunedAt === 1 && p.message.content.length === 1)).toBe(true);
        expect(JSON.stringify(path)).toBe(before);
      }),
      RUNS,
    );
  });
});

describe("malformed entries do not break planning", () => {
  it("a message entry without a message, odd content and null blocks are skipped, not fatal", () => {
    const entries = chain(
      U(400),
      { type: "message" },
      AC([{ type: "text", text: "a" }, null as unknown as AssistantContentBlock, call("edit", { path: "m.ts" })]),
      TR(undefined as unknown as UserContentBlock[]),
      U(400),
      A(400),
    );
    expect(() => findCutPoint(entries, 0, entries.length, 10)).not.toThrow();
    const prep = prepareCompaction(entries, { keepRecentTokens: 10 });
    expect(prep?.firstKeptEntryId).toBe("e5");
    expect(computeFileLists(prep!.fileOps).modifiedFiles).toEqual(["m.ts"]);
    expect(() => planPruning(entries)).not.toThrow();
    expect(prepareBranchEntries(entries).messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(serializeConversation(convertToLlm(prep!.messagesToSummarize))).toContain("[Assistant tool calls]: edit(");
  });
});

describe("properties of branch summary preparation", () => {
  it("included messages are the newest ones, within the budget unless a summary took the 90 % exception", () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 0, max: 60000 }), ({ entries, leaf }, budget) => {
        const index = buildIndex(entries);
        const target = entries[0]?.id as string;
        const { entries: abandoned } = collectEntriesForBranchSummary(index, leaf, target);
        const prepared = prepareBranchEntries(abandoned, budget);
        const withMessages = abandoned.filter((e) => getBranchMessageFromEntry(e) !== undefined).map((e) => e.id);
        // a suffix of the entries that give messages, in order
        expect(prepared.includedEntryIds).toEqual(withMessages.slice(withMessages.length - prepared.includedEntryIds.length));
        if (budget > 0 && prepared.totalTokens > budget) {
          const oldest = index.byId.get(prepared.includedEntryIds[0] as string);
          expect(oldest?.type === "compaction" || oldest?.type === "branch_summary").toBe(true);
        }
        if (budget === 0) expect(prepared.includedEntryIds).toEqual(withMessages);
      }),
      RUNS,
    );
  });
});
