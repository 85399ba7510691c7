/**
 * Conformance cases 140 and 142 (the two legacy v1 fixtures) and the facts stated by
 * ../shared/fixtures/real/README.md about the six real pi v3 sessions: they parse without issues,
 * need no migration, and their trees and contexts look as described. Skipped when ../shared is absent.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  buildIndex,
  buildSessionContext,
  childrenOf,
  convertToLlm,
  defaultLeafId,
  findLeaves,
  findRoots,
  getPath,
  migrateSession,
  parseSessionText,
  serializeSession,
  type CompactionEntry,
  type MessageEntry,
  type SessionEntry,
  type SessionHeader,
} from "../src/index";

const sharedDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared");
const fixturesDir = resolve(sharedDir, "fixtures");
const realPiDir = resolve(fixturesDir, "real/pi");
const haveLegacy = existsSync(resolve(fixturesDir, "before-compaction.jsonl")) && existsSync(resolve(fixturesDir, "large-session.jsonl"));
const haveReal = existsSync(realPiDir);
if (!haveLegacy) console.warn(`cases 140 and 142 skipped: ${fixturesDir} has no legacy fixtures`);
if (!haveReal) console.warn(`real pi session checks skipped: ${realPiDir} not found`);

interface Loaded {
  header: SessionHeader;
  entries: SessionEntry[];
  lines: number;
}

function load(path: string): Loaded {
  const text = readFileSync(path, "utf8");
  const parsed = parseSessionText(text);
  expect(parsed.issues).toEqual([]);
  if (!parsed.header) throw new Error(`${path} is not a session`);
  return { header: parsed.header, entries: parsed.entries, lines: parsed.entries.length + 1 };
}

function countBy<T>(items: readonly T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

const typeCounts = (entries: SessionEntry[]) => countBy(entries, (e) => e.type);
const roleCounts = (entries: SessionEntry[]) => countBy(entries.filter((e): e is MessageEntry => e.type === "message"), (e) => e.message.role);
const messageRole = (e: SessionEntry | undefined) => (e as MessageEntry | undefined)?.message?.role;

describe.skipIf(!haveLegacy)("O. legacy fixtures: migration and context", () => {
  it("case 140: before-compaction.jsonl migrates to v3 and builds a 446-message context", () => {
    const { header, entries } = load(resolve(fixturesDir, "before-compaction.jsonl"));
    expect(migrateSession(header, entries)).toEqual({ migrated: true, fromVersion: 1, toVersion: 3 });
    expect(header.version).toBe(3);
    expect(entries).toHaveLength(1002);
    expect(entries.every((e) => /^[0-9a-f]{8}$/.test(e.id))).toBe(true);
    expect(new Set(entries.map((e) => e.id)).size).toBe(1002);
    const compactions = entries.flatMap((e, i) => (e.type === "compaction" ? [i] : []));
    expect(compactions).toEqual([358, 627]);
    for (const [ci, kept] of [
      [358, 292],
      [627, 550],
    ] as const) {
      const c = entries[ci] as CompactionEntry;
      expect(c.firstKeptEntryId).toBe(entries[kept]?.id);
      expect(messageRole(entries[kept])).toBe("user");
      expect("firstKeptEntryIndex" in c).toBe(false);
    }

    const ctx = buildSessionContext(entries);
    expect(ctx.messages).toHaveLength(446);
    expect(countBy(ctx.messages, (m) => m.role)).toEqual({ compactionSummary: 1, user: 31, assistant: 219, toolResult: 192, bashExecution: 3 });
    const first = ctx.messages[0] as { role: string; summary: string };
    expect(first.role).toBe("compactionSummary");
    expect(first.summary).toBe((entries[627] as CompactionEntry).summary);
    expect(first.summary).toHaveLength(3649);
    expect(ctx.entryIds[0]).toBe(entries[627]?.id);
    expect(ctx.entryIds[1]).toBe(entries[550]?.id);
    expect(ctx.models).toEqual({ default: "anthropic/claude-opus-4-5" });
    expect(ctx.thinkingLevel).toBe("off");
    expect(convertToLlm(ctx.messages)).toHaveLength(446);
  });

  it("case 142: large-session.jsonl has no compaction and a 914-message context", () => {
    const { header, entries } = load(resolve(fixturesDir, "large-session.jsonl"));
    migrateSession(header, entries);
    expect(entries).toHaveLength(1018);
    expect(entries.some((e) => e.type === "compaction")).toBe(false);
    const ctx = buildSessionContext(entries);
    expect(ctx.messages).toHaveLength(914);
    expect(countBy(ctx.messages, (m) => m.role)).toEqual({ user: 88, assistant: 453, toolResult: 373 });
    expect(ctx.models).toEqual({ default: "anthropic/claude-sonnet-4-5" });
    expect(entries.filter((e) => e.type === "thinking_level_change")).toHaveLength(103);
    expect(ctx.thinkingLevel).toBe("off");
  });
});

const real = (name: string) => resolve(realPiDir, name);

describe.skipIf(!haveReal)("real pi v3 sessions (../shared/fixtures/real/pi)", () => {
  it("every file parses cleanly, is v3, needs no migration, has a single root and serializes back byte for byte", () => {
    const files = [
      "codyborders__yinshi__34_1a3af3e9ec_3_full.jsonl",
      "codyborders__yinshi__entire-metadata_019dd1b7-a5a1-776d-a01b-8e0a84059557_full.jsonl",
      "codyborders__yinshi__entire-metadata_019fdd7a-c159-7d29-a385-de141607cb78_full.jsonl",
      "mholtzscher__pi-herdr-subagents__1_full.jsonl",
      "raquezha__pi.dev__96_2b1009dcd7_0_full.jsonl",
      "raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl",
    ];
    for (const f of files) {
      const { header, entries } = load(real(f));
      expect(serializeSession(header, entries) === readFileSync(real(f), "utf8"), f).toBe(true);
      expect(header.version, f).toBe(3);
      const before = JSON.stringify(entries);
      expect(migrateSession(header, entries).migrated, f).toBe(false);
      expect(JSON.stringify(entries), f).toBe(before);
      expect(findRoots(entries).length, f).toBe(1);
    }
  });

  it("yinshi 019dd1b7: four extension compactions; context restarts at the last one", () => {
    const { entries, lines } = load(real("codyborders__yinshi__entire-metadata_019dd1b7-a5a1-776d-a01b-8e0a84059557_full.jsonl"));
    expect(lines).toBe(1112);
    expect(typeCounts(entries)).toEqual({ message: 1100, custom_message: 5, compaction: 4, model_change: 1, thinking_level_change: 1 });
    expect(roleCounts(entries)).toEqual({ user: 13, assistant: 522, toolResult: 565 });
    const compactions = entries.filter((e): e is CompactionEntry => e.type === "compaction");
    expect(compactions.map((c) => c.fromHook)).toEqual([true, true, true, true]);
    expect(compactions.map((c) => (c.details as { compactor?: string }).compactor)).toEqual(["pi-vcc", "pi-vcc", "pi-vcc", "pi-vcc"]);
    expect(compactions.map((c) => c.tokensBefore)).toEqual([211642, 229209, 96802, 86226]);
    expect(findLeaves(entries)).toHaveLength(1);
    const ctx = buildSessionContext(entries);
    expect(ctx.entryIds[0]).toBe(compactions[3]?.id);
    expect(ctx.entryIds[1]).toBe(compactions[3]?.firstKeptEntryId);
    expect(countBy(ctx.messages, (m) => m.role)).toEqual({ compactionSummary: 1, user: 3, assistant: 65, toolResult: 74 });
    expect(ctx.thinkingLevel).toBe("xhigh");
    expect(ctx.models).toEqual({ default: "openai-codex/gpt-5.5" });
  });

  it("yinshi 019fdd7a: custom messages in context, thinking level \"max\" accepted, errors and aborts kept", () => {
    const { entries } = load(real("codyborders__yinshi__entire-metadata_019fdd7a-c159-7d29-a385-de141607cb78_full.jsonl"));
    expect(typeCounts(entries)).toEqual({ message: 663, custom_message: 29, model_change: 2, thinking_level_change: 2, custom: 2 });
    expect(roleCounts(entries)).toEqual({ user: 15, assistant: 325, toolResult: 323 });
    expect(entries.filter((e) => e.type === "thinking_level_change").map((e) => (e as { thinkingLevel: string }).thinkingLevel)).toEqual(["max", "high"]);
    const maxAt = entries.findIndex((e) => (e as { thinkingLevel?: string }).thinkingLevel === "max");
    expect(buildSessionContext(entries, entries[maxAt]?.id).thinkingLevel).toBe("max");
    const stops = countBy(entries.filter((e) => messageRole(e) === "assistant"), (e) => String(((e as MessageEntry).message as { stopReason: string }).stopReason));
    expect(stops.error).toBe(3);
    expect(stops.aborted).toBe(4);
    const ctx = buildSessionContext(entries);
    expect(countBy(ctx.messages, (m) => m.role)).toEqual({ user: 15, assistant: 325, toolResult: 323, custom: 29 });
    expect(ctx.thinkingLevel).toBe("high");
    // pi-mono-shaped model_change entries are ignored: the last assistant decides
    expect(ctx.models).toEqual({ default: "anthropic/claude-opus-5" });
    expect(countBy(convertToLlm(ctx.messages), (m) => m.role)).toEqual({ user: 44, assistant: 325, toolResult: 323 });
  });

  it("raquezha 0: an internal compaction whose firstKeptEntryId is an assistant message", () => {
    const { entries } = load(real("raquezha__pi.dev__96_2b1009dcd7_0_full.jsonl"));
    expect(typeCounts(entries)).toEqual({ message: 233, model_change: 2, thinking_level_change: 1, compaction: 1 });
    expect(roleCounts(entries)).toEqual({ user: 35, assistant: 91, toolResult: 107 });
    const c = entries[215] as CompactionEntry; // file line 217
    expect(c.type).toBe("compaction");
    expect(c.fromHook).toBe(false);
    expect(c.tokensBefore).toBe(99908);
    const details = c.details as { readFiles: string[]; modifiedFiles: string[] };
    expect([details.readFiles.length, details.modifiedFiles.length]).toEqual([9, 6]);
    const kept = buildIndex(entries).byId.get(c.firstKeptEntryId as string);
    expect(entries.indexOf(kept as SessionEntry)).toBe(172); // file line 174
    expect(messageRole(kept)).toBe("assistant");
    const ctx = buildSessionContext(entries);
    expect(ctx.entryIds.slice(0, 2)).toEqual([c.id, c.firstKeptEntryId]);
    expect(ctx.messages).toHaveLength(65);
    expect(countBy(ctx.messages, (m) => m.role)).toEqual({ compactionSummary: 1, assistant: 25, user: 8, toolResult: 31 });
  });

  it("mholtzscher: a real fork at fa43908d without a branch summary", () => {
    const { entries } = load(real("mholtzscher__pi-herdr-subagents__1_full.jsonl"));
    expect(typeCounts(entries)).toEqual({ message: 190, custom: 9, model_change: 1, thinking_level_change: 1 });
    expect(roleCounts(entries)).toEqual({ user: 11, assistant: 79, toolResult: 100 });
    const index = buildIndex(entries);
    const fork = childrenOf(index, "fa43908d");
    expect(fork).toHaveLength(2);
    expect(messageRole(index.byId.get("fa43908d"))).toBe("assistant");
    const leaf = defaultLeafId(entries) as string;
    const active = getPath(index, leaf);
    expect(active).toHaveLength(186);
    const leaves = findLeaves(entries, index);
    expect(leaves).toHaveLength(2);
    const abandonedLeaf = leaves.find((e) => e.id !== leaf) as SessionEntry;
    const abandoned = getPath(index, abandonedLeaf.id);
    const forkAt = abandoned.findIndex((e) => e.id === "fa43908d");
    expect(abandoned.length - forkAt - 1).toBe(15);
    const firstAbandoned = abandoned[forkAt + 1] as MessageEntry;
    expect((firstAbandoned.message as { content: unknown }).content).toEqual([{ type: "text", text: "can you tell me the cost of this session?" }]);
    const ctx = buildSessionContext(entries);
    expect(ctx.messages).toHaveLength(175);
    expect(ctx.entryIds).not.toContain(firstAbandoned.id);
  });

  it("yinshi 34: a sub-agent session with session_info", () => {
    const { entries } = load(real("codyborders__yinshi__34_1a3af3e9ec_3_full.jsonl"));
    expect(typeCounts(entries)).toEqual({ message: 29, model_change: 1, thinking_level_change: 1, custom: 1, session_info: 1 });
    expect(roleCounts(entries)).toEqual({ user: 2, assistant: 7, toolResult: 20 });
    expect(entries.find((e) => e.type === "session_info")).toMatchObject({ name: "subagent-reviewer-cf301541-1" });
    expect(buildSessionContext(entries).messages).toHaveLength(29);
  });

  it("raquezha 2: settings changes before the first message", () => {
    const { entries, lines } = load(real("raquezha__pi.dev__96_2b1009dcd7_2_full.jsonl"));
    expect(lines).toBe(10);
    expect(typeCounts(entries)).toEqual({ message: 4, thinking_level_change: 3, model_change: 2 });
    expect(entries.filter((e) => e.type === "thinking_level_change").map((e) => (e as { thinkingLevel: string }).thinkingLevel)).toEqual(["medium", "high", "off"]);
    const ctx = buildSessionContext(entries);
    expect(ctx.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(ctx.thinkingLevel).toBe("off");
    expect(ctx.models).toEqual({ default: "github-copilot/gpt-5-mini" });
  });
});
