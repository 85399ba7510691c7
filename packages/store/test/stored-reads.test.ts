/**
 * Stored reads (src/reads/) against core on the whole session: for every kind of leaf of generated
 * sessions (compactions often, never; many branches), a damaged (irregular) session, odd lines and
 * the real pi sessions, the path, the context (entries and the column summary), the compaction
 * window, the tool results pruning reads and the abandoned branch give exactly what core gives on
 * all entries — while reading only part of them.
 */
import fs from "node:fs";
import path from "node:path";
import {
  pruneContextChange,
  buildIndex,
  buildSessionContext,
  collectEntriesForBranchSummary,
  computeFileLists,
  DEFAULT_PRUNE_CONFIG,
  getPath,
  IdList,
  planPruning,
  planPruningOf,
  prepareBranchEntries,
  prepareCompaction,
  summarizeCompaction,
  contextOf,
  convertMessageToLlm,
  reportedUsageOf,
  reportedUsageWith,
  summarizeContext,
  summarizePrunePlan,
  thinPositions,
  type ContextSummary,
  type FileOperations,
  type SessionEntry,
} from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { describe, expect, it } from "vitest";
import { FLAG_ODD_MESSAGE } from "../src/derive";
import type { ContextMessageRows, SqliteSessionStore } from "../src/index";
import { newStore, REAL_PI_FILES, tempDir } from "./support";

async function imported(text: string): Promise<{ store: SqliteSessionStore; id: string; all: SessionEntry[] }> {
  const dir = tempDir();
  const file = path.join(dir, "s.jsonl");
  fs.writeFileSync(file, text);
  const store = newStore(dir);
  const id = (await store.importFile(file)).sessionId as string;
  return { store, id, all: store.loadEntries(id) };
}

/** what core gives on all entries, next to what the store reads give, for one leaf */
function compareLeaf(store: SqliteSessionStore, id: string, all: SessionEntry[], leaf: string): void {
  const index = buildIndex(all);
  const wholePath = getPath(index, leaf);
  expect(store.getPath(id, leaf).map((e) => e.id)).toEqual(wholePath.map((e) => e.id));
  const onPath = new Set(wholePath.map((e) => e.id));
  const asked = [...new Set(all.map((e) => e.id)), "no-such-entry"];
  expect(store.areOnPath(id, asked, leaf)).toEqual(asked.map((x) => onPath.has(x)));
  for (const x of [asked[0] as string, leaf, asked[asked.length >> 1] as string, "no-such-entry"]) expect(store.isOnPath(id, x, leaf)).toBe(onPath.has(x));

  const expected = buildSessionContext(all, leaf, index);
  const fromEntries = buildSessionContext(store.getContextEntries(id, leaf));
  expect(fromEntries.messages).toEqual(expected.messages);
  expect(fromEntries.entryIds).toEqual(expected.entryIds);
  expect(JSON.stringify(fromEntries.models)).toBe(JSON.stringify(expected.models));
  expect(fromEntries.thinkingLevel).toBe(expected.thinkingLevel);
  expect(fromEntries.injectedTtsrRules).toEqual(expected.injectedTtsrRules);
  expect(fromEntries.mode).toBe(expected.mode);
  const summary = store.getContextSummary(id, leaf);
  expect(JSON.stringify(summary)).toBe(JSON.stringify(summarizeContext(expected)));
  compareContextLists(store, id, leaf, summary);
  compareContextMessages(store, id, leaf);
  compareContextFigures(store, id, leaf, wholePath);

  for (const keepRecentTokens of [20_000, 2_000]) {
    const settings = { enabled: true, reserveTokens: 16_384, keepRecentTokens };
    const want = prepareCompaction(wholePath, settings);
    const got = prepareCompaction(store.getCompactionWindow(id, leaf), settings);
    expect(got === undefined).toBe(want === undefined);
    if (want && got) {
      const visible = (p: typeof want) => ({
        firstKeptEntryId: p.firstKeptEntryId,
        isSplitTurn: p.isSplitTurn,
        summarizeEntryIds: p.summarizeEntryIds,
        turnPrefixEntryIds: p.turnPrefixEntryIds,
        tokensBefore: p.tokensBefore,
        previousSummary: p.previousSummary,
        files: computeFileLists(p.fileOps),
        keepRecentTokens: p.keepRecentTokens,
        keptEntryIds: p.keptEntryIds,
        messages: [p.messagesToSummarize, p.turnPrefixMessages, p.recentMessages],
      });
      expect(visible(got)).toEqual(visible(want));
    }
  }
  // the plan's decisions and file lists from the columns: a long keep budget takes the window's first cut, a tiny one splits turns
  for (const keepRecentTokens of [20_000, 2_000, 300, 1, 1e9]) {
    const settings = { enabled: true, reserveTokens: 16_384, keepRecentTokens };
    const want = prepareCompaction(wholePath, settings);
    const got = store.getCompactionPlan(id, leaf, settings);
    const wantSummary = want && summarizeCompaction(want);
    // a regular session's summarized ids as read (one JSON text), and as printed; an irregular one's planned from its entries
    const summarized = got?.summarizeEntryIds;
    const irregular = store.db.prepare("SELECT irregular FROM sessions WHERE id = ?").pluck().get(id) === 1;
    if (summarized !== undefined) expect(summarized instanceof IdList).toBe(!irregular);
    expect(got && { ...got, summarizeEntryIds: IdList.array(got.summarizeEntryIds) }).toEqual(wantSummary);
    if (summarized instanceof IdList && wantSummary) expect(summarized.prettyJson("  ")).toBe(JSON.stringify(wantSummary.summarizeEntryIds, null, 2).replaceAll("\n", "\n  "));
  }

  compareSizeSeries(store, id, wholePath.map((e) => e.id), leaf);

  const pruneConfigs = [
    DEFAULT_PRUNE_CONFIG,
    { ...DEFAULT_PRUNE_CONFIG, minimumSavings: 2_000, protectTokens: 4_000 },
    { ...DEFAULT_PRUNE_CONFIG, protectedTools: ["skill"], minimumSavings: 2_000, protectTokens: 4_000 },
    { protectedTools: [], minimumSavings: 0, protectTokens: 0 },
  ];
  for (const config of pruneConfigs) {
    const want = planPruning(wholePath, config);
    expect(planPruningOf(store.getToolResultsOnPath(id, leaf), config)).toEqual(want);
    // the dry run's plan, from the rows it may prune
    expect(store.getPrunePlan(id, leaf, config)).toEqual(want);
    // the ids as read (one JSON text) and as printed (--json lays them out from that text)
    const { entryIds: gotIds, ...got } = store.getPruneSummary(id, leaf, config);
    const { entryIds: wantIds, ...rest } = summarizePrunePlan(want);
    expect(got).toEqual(rest);
    expect(gotIds.toArray()).toEqual(wantIds.toArray());
    expect(gotIds.prettyJson("  ")).toBe(JSON.stringify(wantIds.toArray(), null, 2).replaceAll("\n", "\n  "));
    // what the model stops seeing, from the figures and sums over the rows pruned, wherever the figures come from the columns
    const change = store.getPruneContextChange(id, leaf, config);
    expect(change === undefined, leaf).toBe(store.getContextFigures(id, leaf) === undefined);
    if (change) expect(change, leaf).toEqual(pruneContextChange(wholePath, leaf, want, config));
    // both of a dry run from one read
    const dryRun = store.getPruneDryRun(id, leaf, config);
    expect(dryRun.change, leaf).toEqual(change);
    expect({ ...dryRun.summary, entryIds: dryRun.summary.entryIds.toArray() }).toEqual({ ...rest, entryIds: wantIds.toArray() });
  }
}

/** what a context preview reads from the rows, against contextOf on the context's entries (the backend's two ways) */
function compareContextMessages(store: SqliteSessionStore, id: string, leaf: string): void {
  const rows = store.getContextMessages(id, leaf);
  const irregular = store.db.prepare("SELECT irregular FROM sessions WHERE id = ?").pluck().get(id) === 1;
  expect(rows === null).toBe(irregular);
  if (!rows) return;
  const entries = store.getContextEntries(id, leaf);
  const figures = contextOf(entries, leaf);
  expect(JSON.stringify(rows.summary)).toBe(JSON.stringify(summarizeContext(figures.context)));
  expect(rows.sent).toEqual(figures.context.messages.map((m) => convertMessageToLlm(m)?.role ?? null));
  const previews = new Map(store.db.prepare("SELECT id, preview FROM entries WHERE session_id = ?").raw().all(id) as [string, string][]);
  expect(rows.previews).toEqual(figures.context.entryIds.map((e) => previews.get(e)));
  const usage = rows.usageMessage ? reportedUsageOf(rows.usageMessage, rows.compaction, rows.summary.entryIds, rows.summary.tokens) : null;
  expect(usage).toEqual(figures.usage);
  const compaction = [...entries].reverse().find((e) => e.type === "compaction") ?? null;
  expect(rows.compaction).toEqual(compaction);
  const init = [...entries].reverse().find((e) => e.type === "session_init" && typeof (e as { systemPrompt?: unknown }).systemPrompt === "string") ?? null;
  expect(rows.sessionInit).toEqual(init);
  expect(rows.unlisted).toBeNull();
  for (const window of [
    { head: 1, tail: 1 },
    { head: 2, tail: 5 },
    { head: 7, tail: 3 },
  ]) {
    compareWindowedMessages(store, id, leaf, rows, window);
  }
}

/** the estimate and the last reported usage as `context` reads them, against contextOf on the whole path (the command's rule on a file) */
function compareContextFigures(store: SqliteSessionStore, id: string, leaf: string, wholePath: SessionEntry[]): void {
  const figures = store.getContextFigures(id, leaf);
  // read from the columns wherever the estimate is (a regular session without odd messages)
  expect(figures === undefined, leaf).toBe(store.getContextTokens(id, leaf) === undefined);
  if (!figures) return;
  const { tokens, usage, compactionTokensBefore } = contextOf(wholePath, leaf);
  expect(figures, leaf).toEqual({ tokens, usage, compactionTokensBefore });
  // the same, read with the lists `context --json` prints
  expect(store.getContextLists(id, leaf)?.figures, leaf).toEqual({ tokens, usage, compactionTokensBefore });
}

/** a window's part of the context (its first and newest messages, and the figures of what it leaves out) against the whole one */
function compareWindowedMessages(store: SqliteSessionStore, id: string, leaf: string, whole: ContextMessageRows, window: { head: number; tail: number }): void {
  const part = store.getContextMessages(id, leaf, window) as ContextMessageRows;
  const count = whole.summary.entryIds.length;
  // a context that fits the window, or one with a message whose role the columns lack (odd), is listed whole
  const odd = store.db.prepare(`SELECT count(*) FROM entries WHERE session_id = ? AND flags & ${FLAG_ODD_MESSAGE}`).pluck().get(id) as number;
  if (part.unlisted === null) {
    expect(count <= window.head + window.tail || odd > 0).toBe(true);
    expect(part).toEqual(whole);
    return;
  }
  const pick = <T>(list: readonly T[]): T[] => [...list.slice(0, window.head), ...list.slice(count - window.tail)];
  expect(part.summary.entryIds).toEqual(pick(whole.summary.entryIds));
  expect(part.summary.roles).toEqual(pick(whole.summary.roles));
  expect(part.summary.tokens).toEqual(pick(whole.summary.tokens));
  expect(part.sent).toEqual(pick(whole.sent));
  expect(part.previews).toEqual(pick(whole.previews));
  expect(part.summary.models).toEqual(whole.summary.models);
  expect(part.summary.thinkingLevel).toBe(whole.summary.thinkingLevel);
  const between = whole.summary.tokens.slice(window.head, count - window.tail);
  expect(part.unlisted).toEqual({
    at: window.head,
    count: count - window.head - window.tail,
    tokens: between.reduce((a, b) => a + b, 0),
    sent: whole.sent.slice(window.head, count - window.tail).filter((role) => role !== null).length,
    largestTokens: Math.max(...whole.summary.tokens),
  });
  expect([part.compaction, part.usageMessage, part.sessionInit]).toEqual([whole.compaction, whole.usageMessage, whole.sessionInit]);
  const usage = whole.usageMessage ? reportedUsageOf(whole.usageMessage, whole.compaction, whole.summary.entryIds, whole.summary.tokens) : null;
  expect(part.usageMessage ? reportedUsageWith(part.usageMessage, part.compaction, part.usageTrailingTokens as number) : null).toEqual(usage);
}

/**
 * The size series the store reads (from columns, thinned) against the series computed on the whole
 * path's skeleton nodes, entry by entry: the size if each entry were the leaf, dropping at each
 * compaction to its summary plus what it keeps.
 */
function compareSizeSeries(store: SqliteSessionStore, id: string, pathIds: string[], leaf: string): void {
  const byId = new Map(store.getSkeleton(id).nodes.map((n) => [n.id, n]));
  const nodes = pathIds.map((p) => byId.get(p)!);
  const want: number[] = [];
  let size = 0;
  nodes.forEach((n, i) => {
    if (n.type === "compaction") {
      // its summary, plus what it keeps (from its first kept entry on the path, up to it)
      const kept = pathIds.indexOf(n.firstKeptEntryId ?? "");
      size = n.tokens;
      if (kept >= 0 && kept <= i) for (let k = kept; k < i; k++) if (nodes[k]!.type !== "compaction") size += nodes[k]!.tokens;
    } else size += n.tokens;
    want.push(size);
  });
  const whole = store.getSizeSeries(id, leaf, Number.MAX_SAFE_INTEGER);
  expect(whole.pathLength).toBe(pathIds.length);
  expect(whole.points).toEqual(nodes.map((n, pos) => ({ pos, entryId: n.id, tokens: want[pos], compaction: n.type === "compaction" })));
  const thin = store.getSizeSeries(id, leaf, 40);
  const compactions = nodes.flatMap((n, pos) => (n.type === "compaction" ? [pos] : []));
  expect(thin.points.map((p) => p.pos)).toEqual(thinPositions(nodes.length, compactions, 40));
  for (const p of thin.points) expect(p).toEqual(whole.points[p.pos]);
}

function compareBranch(store: SqliteSessionStore, id: string, all: SessionEntry[], from: string, to: string): void {
  const index = buildIndex(all);
  const want = collectEntriesForBranchSummary(index, from, to);
  for (const budget of [0, 1, 3_000, 20_000, 100_000]) {
    const got = store.getBranchPlan(id, from, to, budget);
    expect(got.commonAncestorId).toBe(want.commonAncestorId);
    expect(got.entryIds.toArray()).toEqual(want.entries.map((e) => e.id));
    expect(got.entryIds.prettyJson("  ")).toBe(JSON.stringify(want.entries.map((e) => e.id), null, 2).replaceAll("\n", "\n  "));
    const a = prepareBranchEntries(want.entries, budget);
    expect({ ids: got.includedEntryIds, tokens: got.totalTokens, files: sortedFileOps(got.fileOps) }).toEqual({
      ids: a.includedEntryIds,
      tokens: a.totalTokens,
      files: sortedFileOps(a.fileOps),
    });
  }
}

/** the three sets of file operations, sorted */
function sortedFileOps(fileOps: FileOperations): Record<keyof FileOperations, string[]> {
  return { read: [...fileOps.read].sort(), written: [...fileOps.written].sort(), edited: [...fileOps.edited].sort() };
}

/** leaves worth checking: the current one, every compaction, branch summary and leaf of a branch, and a spread of others */
function leavesOf(all: SessionEntry[], step: number): string[] {
  const children = new Set(all.map((e) => e.parentId));
  const out = new Set<string>();
  all.forEach((e, i) => {
    if (i % step === 0 || e.type === "compaction" || e.type === "branch_summary" || !children.has(e.id)) out.add(e.id);
  });
  out.add((all[all.length - 1] as SessionEntry).id);
  return [...out];
}

/** getContextLists (what `context --json` prints of a stored session) against the context's summary, as read and as printed */
function compareContextLists(store: SqliteSessionStore, id: string, leaf: string, summary: ContextSummary): boolean {
  const lists = store.getContextLists(id, leaf);
  // the sum alone, from one aggregate (a session list's figure), where the lists come from the index
  expect(store.getContextTokens(id, leaf)).toBe(lists && summary.tokens.reduce((a, b) => a + b, 0));
  if (!lists) return false;
  expect(lists.entryIds.toArray()).toEqual(summary.entryIds);
  expect(lists.roles.toArray()).toEqual(summary.roles);
  expect(lists.llmRoles.toArray()).toEqual(summary.llmRoles);
  expect(lists.estimatedTokens).toBe(summary.tokens.reduce((a, b) => a + b, 0));
  expect(JSON.stringify(lists.models)).toBe(JSON.stringify(summary.models));
  expect(lists.thinkingLevel).toBe(summary.thinkingLevel);
  // printed from the text as read: what JSON.stringify prints for the arrays in a report
  for (const [list, array] of [[lists.entryIds, summary.entryIds], [lists.roles, summary.roles], [lists.llmRoles, summary.llmRoles]] as const) {
    expect(list.length).toBe(array.length);
    expect(list.prettyJson("  ")).toBe(JSON.stringify(array, null, 2).replaceAll("\n", "\n  "));
  }
  return true;
}

describe("stored reads equal core on the whole session", () => {
  it.each([
    ["compactions every 400 entries", { entries: 3000, seed: 5, compactionInterval: 400 }],
    ["no compaction", { entries: 1500, seed: 6, compactionInterval: 0 }],
    ["a long window with branches (no compaction)", { entries: 2500, seed: 11, compactionInterval: 0, branchProbability: 0.2 }],
    ["small entries, frequent compactions", { entries: 1500, seed: 12, compactionInterval: 150, contentScale: 0.3 }],
    ["many branches", { entries: 2500, seed: 7, compactionInterval: 300, branchProbability: 0.3 }],
    // thousands of small messages within a budget, as the bench's "small" shape
    ["small entries, a compaction every 100 entries, branches", { entries: 2500, seed: 8, contentScale: 0.3, compactionInterval: 100, branchProbability: 0.15 }],
  ])("%s", async (_name, options) => {
    const { store, id, all } = await imported(sessionToJsonl(generateSession(options)));
    expect(store.db.prepare("SELECT irregular FROM sessions WHERE id = ?").pluck().get(id)).toBe(0);
    const leaves = leavesOf(all, 97);
    for (const leaf of leaves) compareLeaf(store, id, all, leaf);
    // an agent's session has a role in every message: `context --json` lists come from the index
    for (const leaf of leaves) expect(store.getContextLists(id, leaf), leaf).toBeDefined();
    const targets = all.filter((_, i) => i % 173 === 0).map((e) => e.id);
    for (const from of leaves.slice(0, 25)) for (const to of targets) compareBranch(store, id, all, from, to);
  }, 600_000); // a bound for a hung run, not a speed check: 17 s alone, 8x that with the cores shared

  it("ids JSON escapes (quotes, backslashes, control characters) and non-ASCII ids", async () => {
    // a foreign session's ids are arbitrary strings: the id lists read as JSON text must print as JSON.stringify prints them
    const odd = ['"q', "b\\s", "nl\n", "c\u0001", "sep\u001e", "é", "😀", '","', "\u2028", "\u007f"];
    const generated = generateSession({ entries: 900, seed: 11, compactionInterval: 0, branchProbability: 0.2 });
    const rename = new Map(generated.entries.map((e, i) => [e.id, i % 3 === 0 ? `${odd[i % odd.length]}${e.id}` : e.id]));
    const renamed = { ...generated, entries: generated.entries.map((e) => ({ ...e, id: rename.get(e.id) as string, parentId: e.parentId === null ? null : (rename.get(e.parentId) ?? e.parentId) })) };
    const { store, id, all } = await imported(sessionToJsonl(renamed as typeof generated));
    const leaves = leavesOf(all, 211);
    const everyResult = leaves.flatMap((leaf) => store.getPruneSummary(id, leaf, { protectedTools: [], minimumSavings: 0, protectTokens: 0 }).entryIds.toArray());
    for (const o of odd) expect(everyResult.some((x) => x.startsWith(o))).toBe(true);
    for (const leaf of leaves) compareLeaf(store, id, all, leaf);
    for (const from of leaves.slice(0, 8)) for (const to of all.filter((_, i) => i % 97 === 0).map((e) => e.id)) compareBranch(store, id, all, from, to);
  });

  it("the context's lists as read map every role as convertToLlm does: excluded executions, custom and file mentions, empty summaries, a role core does not know", async () => {
    const at = (n: number): string => `2025-01-01T00:00:${String(n).padStart(2, "0")}.000Z`;
    const message = (id: string, parentId: string, n: number, m: Record<string, unknown>) => ({ type: "message", id, parentId, timestamp: at(n), message: { timestamp: n, ...m } });
    const lines: Record<string, unknown>[] = [
      { type: "session", version: 3, id: "roles", timestamp: at(0), cwd: "/p" },
      message("u1", "", 1, { role: "user", content: "hi" }),
      message("a1", "u1", 2, { role: "assistant", content: [{ type: "text", text: "yo" }], provider: "p", model: "x", usage: { input: 5, output: 1 }, stopReason: "stop" }),
      message("b1", "a1", 3, { role: "bashExecution", command: "ls", output: "a b", excludeFromContext: true }),
      message("b2", "b1", 4, { role: "bashExecution", command: "pwd", output: "/p" }),
      message("p1", "b2", 5, { role: "pythonExecution", code: "1+1", output: "2", excludeFromContext: true }),
      message("f1", "p1", 6, { role: "fileMention", files: [{ path: "/p/a.ts", content: "x" }] }),
      message("h1", "f1", 7, { role: "hookMessage", customType: "hook", content: "from a hook", display: true }),
      message("s9", "h1", 8, { role: "system", content: "a role core does not know" }),
      { type: "branch_summary", id: "e1", parentId: "s9", timestamp: at(9), fromId: "a1", summary: "" },
      { type: "branch_summary", id: "e2", parentId: "e1", timestamp: at(10), fromId: "a1", summary: "what the other branch did" },
      { type: "custom_message", customType: "note", content: "custom", display: true, id: "c1", parentId: "e2", timestamp: at(11) },
      { type: "compaction", id: "k1", parentId: "c1", timestamp: at(12), summary: "sum", firstKeptEntryId: "b2", tokensBefore: 100 },
      message("u2", "k1", 13, { role: "user", content: "again" }),
    ].map((l) => (l.parentId === "" ? { ...l, parentId: null } : l));
    const { store, id, all } = await imported(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const index = buildIndex(all);
    for (const leaf of all.map((e) => e.id)) {
      const summary = summarizeContext(buildSessionContext(all, leaf, index));
      expect(compareContextLists(store, id, leaf, summary), leaf).toBe(true);
    }
    const last = store.getContextLists(id, "u2");
    expect(last?.roles.toArray()).toEqual(["compactionSummary", "bashExecution", "pythonExecution", "fileMention", "hookMessage", "system", "branchSummary", "custom", "user"]);
    expect(last?.llmRoles.toArray()).toEqual(["user", "user", "user", "user", "user", "user", "user"]);
  });

  it("the context figure's usage is the newest reported on the whole path: before the kept entries, behind replies without one, or none", async () => {
    const at = (n: number): string => `2025-01-01T00:00:${String(n).padStart(2, "0")}.000Z`;
    const message = (id: string, parentId: string | null, n: number, m: Record<string, unknown>) => ({ type: "message", id, parentId, timestamp: at(n), message: { timestamp: Date.parse(at(n)), ...m } });
    const reply = (id: string, parentId: string, n: number, usage?: Record<string, number>) =>
      message(id, parentId, n, { role: "assistant", content: [{ type: "text", text: `reply ${id}` }], provider: "p", model: `m-${id}`, stopReason: "stop", ...(usage ? { usage } : {}) });
    const lines: Record<string, unknown>[] = [
      { type: "session", version: 3, id: "usage", timestamp: at(0), cwd: "/p" },
      message("u1", null, 1, { role: "user", content: "first" }),
      reply("a1", "u1", 2, { input: 900, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 950 }),
      message("u2", "a1", 3, { role: "user", content: "second" }),
      reply("a2", "u2", 4),
      message("u3", "a2", 5, { role: "user", content: "third" }),
      { type: "compaction", id: "k1", parentId: "u3", timestamp: at(6), summary: "what came before", firstKeptEntryId: "u3", tokensBefore: 1000 },
      message("u4", "k1", 7, { role: "user", content: "after" }),
      reply("a3", "u4", 8),
      message("u5", "a3", 9, { role: "user", content: "later" }),
      reply("a4", "u5", 10, { input: 300, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 320 }),
      message("u6", "a4", 11, { role: "user", content: "last" }),
      // a reply whose usage is all zeros (as a reply aborted before the model counted records it): no report
      reply("a5", "u6", 14, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }),
      // a branch from the first question whose replies report nothing
      reply("b1", "u1", 12),
      message("b2", "b1", 13, { role: "user", content: "other" }),
    ];
    const { store, id, all } = await imported(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const index = buildIndex(all);
    const usageOf = (leaf: string) => store.getContextFigures(id, leaf)?.usage ?? null;
    for (const leaf of all.map((e) => e.id)) compareContextFigures(store, id, leaf, getPath(index, leaf));
    // the reply with a usage lies before the kept entries, behind one without: found, older than the compaction
    expect(usageOf("a3")).toMatchObject({ entryId: "a1", age: "before-compaction", tokens: 950, model: "m-a1" });
    expect(usageOf("u6")).toMatchObject({ entryId: "a4", age: "after-compaction", tokens: 320 });
    expect(usageOf("a5")).toMatchObject({ entryId: "a4", age: "after-compaction", tokens: 320 });
    expect(usageOf("b2")).toBeNull();
    expect(store.getContextFigures(id, null)).toEqual({ tokens: 0, usage: null, compactionTokensBefore: null });
  });

  it("after a compaction only its window and the settings entries are read", async () => {
    const { store, id, all } = await imported(sessionToJsonl(generateSession({ entries: 4000, seed: 8, compactionInterval: 500 })));
    const leaf = store.getLeaf(id) as string;
    const wholePath = getPath(buildIndex(all), leaf);
    expect(store.getContextEntries(id, leaf).length).toBeLessThan(wholePath.length / 3);
    expect(store.getCompactionWindow(id, leaf).length).toBeLessThan(wholePath.length / 3);
  });

  it("an irregular session (duplicate ids, a parent after its child, a cycle) and odd lines", async () => {
    const at = (n: number): string => `2025-01-01T00:00:${String(n).padStart(2, "0")}.000Z`;
    const lines: Record<string, unknown>[] = [
      { type: "session", version: 3, id: "odd", timestamp: at(0), cwd: "/p" },
      { type: "model_change", id: "m1", parentId: null, timestamp: at(1), model: "a/small", role: "smol" },
      { type: "message", id: "u1", parentId: "m1", timestamp: at(2), message: { role: "user", content: "hi", timestamp: 2 } },
      { type: "message", id: "a1", parentId: "u1", timestamp: at(3), message: { role: "assistant", content: [{ type: "text", text: "yo" }], provider: "p", model: "x", usage: { input: 5, output: 1, totalTokens: 6 }, stopReason: "stop", timestamp: 3 } },
      { type: "message", id: "b1", parentId: "a1", timestamp: at(4), message: { role: "bashExecution", command: "ls", output: "a b", excludeFromContext: true, timestamp: 4 } },
      { type: "message", id: "o1", parentId: "b1", timestamp: at(5), message: "just text" },
      { type: "message", id: "o2", parentId: "o1", timestamp: at(6), message: { content: "no role" } },
      { type: "message", id: "n1", parentId: "o2", timestamp: at(7), message: null },
      { type: "branch_summary", id: "s1", parentId: "n1", timestamp: at(8), fromId: "a1", summary: "" },
      { type: "custom_message", customType: "note", content: "custom", display: true, id: "c1", parentId: "s1", timestamp: at(9) },
      { type: "thinking_level_change", id: "t1", parentId: "c1", timestamp: at(10), thinkingLevel: "high" },
      { type: "compaction", id: "k1", parentId: "t1", timestamp: at(11), summary: "sum", firstKeptEntryId: "a1", tokensBefore: 100 },
      { type: "message", id: "u2", parentId: "k1", timestamp: at(12), message: { role: "toolResult", toolCallId: "x", toolName: "read", content: [{ type: "text", text: "r".repeat(400) }], isError: false, timestamp: 12 } },
      { type: "message", id: "a2", parentId: "u2", timestamp: at(13), message: { role: "assistant", content: [{ type: "toolCall", id: "x", name: "edit", arguments: { path: "/f" } }], provider: "q", model: "y", usage: { input: 9, output: 1 }, stopReason: "toolUse", timestamp: 13 } },
    ];
    const regular = await imported(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    expect(regular.store.db.prepare("SELECT irregular FROM sessions WHERE id = ?").pluck().get(regular.id)).toBe(0);
    for (const leaf of regular.all.map((e) => e.id)) compareLeaf(regular.store, regular.id, regular.all, leaf);
    for (const from of regular.all.map((e) => e.id)) for (const to of ["u1", "s1", "k1", "a2"]) compareBranch(regular.store, regular.id, regular.all, from, to);
    // the first assistant message sets "default" before the smol model_change that follows it... here smol comes first
    expect(Object.keys(regular.store.getContextSummary(regular.id).models)).toEqual(["smol", "default"]);

    // the default model is set first by an assistant message older than the kept part, then a smol model_change
    const older = [
      lines[0],
      { ...(lines[2] as object), parentId: null },
      { ...(lines[3] as object) },
      { ...(lines[1] as object), parentId: "a1" },
      { type: "message", id: "a9", parentId: "m1", timestamp: at(19), message: { role: "assistant", content: [{ type: "text", text: "again" }], provider: "p", model: "w", usage: { input: 1, output: 1 }, stopReason: "stop", timestamp: 19 } },
      { type: "message", id: "u3", parentId: "a9", timestamp: at(20), message: { role: "user", content: "later", timestamp: 20 } },
      { type: "compaction", id: "k3", parentId: "u3", timestamp: at(21), summary: "s", firstKeptEntryId: "u3", tokensBefore: 10 },
      { type: "message", id: "u4", parentId: "k3", timestamp: at(22), message: { role: "user", content: "after", timestamp: 22 } },
    ];
    const olderAssistant = await imported(older.map((l) => JSON.stringify(l)).join("\n") + "\n");
    for (const leaf of ["u4", "k3", "u3"]) compareLeaf(olderAssistant.store, olderAssistant.id, olderAssistant.all, leaf);
    expect(Object.keys(olderAssistant.store.getContextSummary(olderAssistant.id).models)).toEqual(["default", "smol"]);

    const irregularLines = [
      ...lines,
      { type: "message", id: "u1", parentId: "a2", timestamp: at(14), message: { role: "user", content: "dup id", timestamp: 14 } },
      { type: "message", id: "f1", parentId: "f2", timestamp: at(15), message: { role: "user", content: "parent later", timestamp: 15 } },
      { type: "message", id: "f2", parentId: "u1", timestamp: at(16), message: { role: "assistant", content: [], provider: "p", model: "z", timestamp: 16 } },
      { type: "message", id: "y1", parentId: "y2", timestamp: at(17), message: { role: "user", content: "cycle", timestamp: 17 } },
      { type: "message", id: "y2", parentId: "y1", timestamp: at(18), message: { role: "user", content: "cycle", timestamp: 18 } },
    ];
    const irregular = await imported(irregularLines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    expect(irregular.store.db.prepare("SELECT irregular FROM sessions WHERE id = ?").pluck().get(irregular.id)).toBe(1);
    for (const leaf of ["f1", "f2", "y1", "y2", "a2", "k1"]) compareLeaf(irregular.store, irregular.id, irregular.all, leaf);
    for (const to of ["u1", "k1", "y2"]) compareBranch(irregular.store, irregular.id, irregular.all, "f1", to);
  });

  it("compaction plans from the columns: split turns, metadata before the cut, previous summaries' file lists, odd messages", async () => {
    const at = (n: number): string => `2025-01-01T00:${String(Math.floor(n / 60)).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}.000Z`;
    const call = (name: string, p: string) => ({ type: "toolCall", id: `${name}${p}`, name, arguments: { path: p } });
    const assistant = (n: number, calls: object[], extra: object = {}) => ({
      role: "assistant",
      content: [{ type: "text", text: "x".repeat(40 * n) }, ...calls],
      provider: "p",
      model: "m",
      usage: { input: 10 * n, output: 5, totalTokens: 10 * n + 5 },
      stopReason: "toolUse",
      timestamp: n,
      ...extra,
    });
    const body: Record<string, unknown>[] = [
      { type: "message", message: { role: "user", content: "start", timestamp: 1 } },
      { type: "message", message: assistant(1, [call("read", "/a"), call("edit", "/b")]) },
      { type: "message", message: { role: "toolResult", toolCallId: "x", toolName: "read", content: [{ type: "text", text: "r".repeat(300) }], isError: false, timestamp: 2 } },
      { type: "compaction", summary: "first", firstKeptEntryId: "e1", tokensBefore: 50, details: { readFiles: ["/old-read"], modifiedFiles: ["/old-mod"] } },
      { type: "message", message: assistant(2, [call("write", "/c"), call("read", "/b")]) },
      { type: "branch_summary", fromId: "e1", summary: "went elsewhere", details: { readFiles: ["/branch"], modifiedFiles: [] } },
      { type: "custom_message", customType: "note", content: "custom", display: true },
      { type: "message", message: { role: "bashExecution", command: "make", output: "ok".repeat(100), timestamp: 3 } },
      { type: "message", message: "just text" },
      { type: "message", message: null },
      { type: "label", targetId: "e1", label: "here" },
      { type: "model_change", model: "p/other" },
      { type: "message", message: assistant(3, [call("read", "/d")], { stopReason: "error" }) },
      { type: "message", message: { role: "user", content: "u".repeat(800), timestamp: 4 } },
      { type: "message", message: assistant(4, [call("edit", "/e"), call("read", "/e")]) },
      { type: "compaction", summary: "by an extension", firstKeptEntryId: "e12", tokensBefore: 70, fromExtension: true, details: { readFiles: ["/ext"], modifiedFiles: [] } },
      { type: "message", message: assistant(5, [call("read", "/f")]) },
      { type: "thinking_level_change", thinkingLevel: "high" },
      { type: "message", message: assistant(6, [call("write", "/g")], { stopReason: "aborted" }) },
      { type: "message", message: { role: "toolResult", toolCallId: "y", toolName: "write", content: [{ type: "text", text: "w".repeat(500) }], isError: false, timestamp: 6 } },
    ];
    const lines = [
      { type: "session", version: 3, id: "plans", timestamp: at(0), cwd: "/p" },
      ...body.map((e, i) => ({ ...e, id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: at(i + 1) })),
    ];
    const { store, id, all } = await imported(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    for (const leaf of all.map((e) => e.id)) compareLeaf(store, id, all, leaf);
    // the window after the first compaction lists its files and the branch summary's, not the extension's
    const plan = store.getCompactionPlan(id, "e14", { keepRecentTokens: 1 });
    expect(plan?.previousCompactionId).toBe("e3");
    expect(plan?.readFiles).toContain("/old-read");
    expect(plan?.modifiedFiles).toEqual(expect.arrayContaining(["/old-mod", "/c"]));
  });

  it("a branch plan's file lists: summaries on the abandoned branch (nested, from an extension), odd tool calls", async () => {
    const at = (n: number): string => `2025-01-01T00:${String(Math.floor(n / 60)).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}.000Z`;
    const assistant = (calls: { name: unknown; arguments: unknown }[], text = "ok"): Record<string, unknown> => ({
      role: "assistant",
      content: [{ type: "text", text }, ...calls.map((c, i) => ({ type: "toolCall", id: `c${i}`, ...c }))],
      provider: "p",
      model: "m",
      usage: { input: 5, output: 1 },
      stopReason: "toolUse",
      timestamp: 1,
    });
    const bodies: Record<string, unknown>[] = [
      { type: "message", message: { role: "user", content: "start", timestamp: 1 } },
      { type: "message", message: assistant([{ name: "read", arguments: { path: "/a/old-read" } }]) },
      // a summary of an older move (its lists count), one from an extension (they do not), one without details
      { type: "branch_summary", fromId: "x", summary: "older", details: { readFiles: ["/s/read", 7], modifiedFiles: ["/s/mod"] }, fromExtension: false },
      { type: "branch_summary", fromId: "x", summary: "ext", details: { readFiles: ["/ext/read"], modifiedFiles: ["/ext/mod"] }, fromExtension: true },
      { type: "branch_summary", fromId: "x", summary: "bare" },
      { type: "message", message: assistant([{ name: "write", arguments: { path: "/a/w" } }, { name: "edit", arguments: { path: "" } }, { name: "read", arguments: { path: 3 } }]) },
      { type: "message", message: assistant([{ name: "bash", arguments: { command: "ls" } }, { name: "read", arguments: { path: "/a/r2" } }, { name: "read", arguments: { path: "/a/r2" } }]) },
      { type: "message", message: assistant([{ name: "read,edit", arguments: { path: "/a/comma" } }, { name: "grep", arguments: { path: "/a/grep" } }]) },
      { type: "message", message: assistant([{ name: "edit", arguments: null }, { name: 5, arguments: { path: "/a/n" } }]) },
      { type: "message", message: { content: [{ type: "toolCall", name: "read", arguments: { path: "/odd" } }] } },
      { type: "message", message: { role: "toolResult", toolCallId: "c0", toolName: "read", content: [{ type: "text", text: "r".repeat(4000) }], isError: false, timestamp: 2 } },
      { type: "compaction", summary: "c".repeat(800), firstKeptEntryId: "e1", tokensBefore: 100 },
      { type: "branch_summary", fromId: "x", summary: "nested", details: { readFiles: ["/n/read"], modifiedFiles: ["/n/mod", "/s/read"] }, fromExtension: false },
      { type: "message", message: assistant([{ name: "edit", arguments: { path: "/a/e" } }], "x".repeat(1200)) },
      { type: "custom_message", customType: "note", content: "custom", display: true },
      { type: "message", message: assistant([{ name: "read", arguments: { path: "/a/new" } }]) },
      { type: "message", message: { role: "user", content: "end", timestamp: 3 } },
    ];
    // the target's branch leaves the main line at e1
    const lines: Record<string, unknown>[] = [
      { type: "session", version: 3, id: "files", timestamp: at(0), cwd: "/p" },
      ...bodies.map((b, i) => ({ ...b, id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: at(i + 1) })),
      { type: "message", id: "t1", parentId: "e1", timestamp: at(40), message: { role: "user", content: "elsewhere", timestamp: 4 } },
    ];
    const { store, id, all } = await imported(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const last = `e${bodies.length - 1}`;
    for (const to of ["t1", "e1", "e5", "e11", "e13", null]) {
      for (const from of [last, "e15", "e12", "e9"]) if (to !== null) compareBranch(store, id, all, from, to);
    }
    // a budget that stops before the older summary: its lists count all the same, the extension's never
    const plan = store.getBranchPlan(id, last, "t1", 400);
    expect(plan.includedEntryIds).toEqual(["e11", "e12", "e13", "e14", "e15", "e16"]);
    expect(computeFileLists(plan.fileOps)).toEqual({ readFiles: ["/a/new", "/n/read"], modifiedFiles: ["/a/e", "/n/mod", "/s/mod", "/s/read"] });
    const whole = store.getBranchPlan(id, last, "t1", 0);
    expect(computeFileLists(whole.fileOps)).toEqual({ readFiles: ["/a/new", "/a/r2", "/n/read"], modifiedFiles: ["/a/e", "/a/w", "/n/mod", "/s/mod", "/s/read"] });
  });

  it("pruning changes the columns the reads use", async () => {
    const { store, id } = await imported(sessionToJsonl(generateSession({ entries: 1200, seed: 9, compactionInterval: 0 })));
    const results = store.getToolResultsOnPath(id);
    const plan = planPruningOf(results, DEFAULT_PRUNE_CONFIG);
    expect(plan.prunedCount).toBeGreaterThan(0);
    const pathEntries = store.getPath(id);
    store.applyPruning(
      id,
      plan.candidates.map((c) => ({ entryId: c.entryId, message: { ...(pathEntries[c.index] as { message: object }).message, content: [{ type: "text", text: "[pruned]" }], prunedAt: 1 } })),
    );
    const all = store.loadEntries(id);
    compareLeaf(store, id, all, store.getLeaf(id) as string);
    expect(planPruningOf(store.getToolResultsOnPath(id), DEFAULT_PRUNE_CONFIG).prunedCount).toBe(0);
  });

  it.skipIf(REAL_PI_FILES.length === 0)("the real pi sessions", async () => {
    for (const file of REAL_PI_FILES) {
      const { store, id, all } = await imported(fs.readFileSync(file, "utf8"));
      const leaves = leavesOf(all, 53);
      for (const leaf of leaves) compareLeaf(store, id, all, leaf);
      for (const from of leaves.slice(0, 6)) for (const to of all.filter((_, i) => i % 61 === 0).map((e) => e.id)) compareBranch(store, id, all, from, to);
    }
  }, 600_000);
});
