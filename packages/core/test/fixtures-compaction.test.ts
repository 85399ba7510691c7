/**
 * Conformance section O (141, 143, 144) on the real sessions in ../shared/fixtures.
 * Skipped with a message when that folder is absent.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseSessionText } from "../src/jsonl";
import { migrateSession } from "../src/migrate";
import { seededRandomSource } from "../src/ids";
import { buildIndex, defaultLeafId, getPath } from "../src/tree";
import { calculatePromptTokens, getLastAssistantUsage } from "../src/tokens";
import { findCutPoint } from "../src/cut-point";
import { prepareCompaction } from "../src/prepare-compaction";
import { computeFileLists } from "../src/file-ops";
import { CHECKOUT_PROTECTED_TOOLS, DEFAULT_PRUNE_CONFIG, planPruning } from "../src/prune";
import { DEFAULT_SETTINGS } from "../src/settings";
import type { CompactionEntry, SessionEntry } from "../src/entries";
import { planShape } from "./support/plan-shape";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const fixturesDir = resolve(repoRoot, "../shared/fixtures");
/** SHA-256 of the fixtures as ../shared/fixtures/README.md states them: the expected values hold for these bytes. */
const FIXTURE_SHA256: Record<string, string> = {
  "before-compaction.jsonl": "1350e4bb514a511b3f64c21cf294ef481b050653410293cf535b2b4500ca7fa5",
  "large-session.jsonl": "e3fd7f495fa8b9cc7defef430667d438aa7e73ec68db0474b2f3742313cc718f",
};

function fixtureProblem(): string | undefined {
  for (const [name, sha] of Object.entries(FIXTURE_SHA256)) {
    const file = resolve(fixturesDir, name);
    if (!existsSync(file)) return `${file} not found`;
    if (createHash("sha256").update(readFileSync(file)).digest("hex") !== sha) return `${file} was modified (SHA-256 differs from the fixture README)`;
  }
  return undefined;
}

const problem = fixtureProblem();
const present = problem === undefined;
if (problem) console.warn(`fixture cases 141, 143, 144 skipped: ${problem}`);

function loadFixture(name: string): SessionEntry[] {
  const parsed = parseSessionText(readFileSync(resolve(fixturesDir, name), "utf8"));
  if (!parsed.header) throw new Error(`${name} is not a session`);
  migrateSession(parsed.header, parsed.entries, seededRandomSource(7));
  return parsed.entries;
}

function branchOf(entries: SessionEntry[]): SessionEntry[] {
  return getPath(buildIndex(entries), defaultLeafId(entries));
}

const CHECKOUT = { ...DEFAULT_PRUNE_CONFIG, protectedTools: CHECKOUT_PROTECTED_TOOLS };

describe.skipIf(!present)("O. fixture cases (../shared/fixtures)", () => {
  it("case 141: before-compaction.jsonl, prepareCompaction with defaults", () => {
    const entries = loadFixture("before-compaction.jsonl");
    const path = branchOf(entries);
    expect(path).toHaveLength(1002);
    const usage = getLastAssistantUsage(path);
    expect(usage).toMatchObject({ input: 10, output: 30, cacheRead: 0, cacheWrite: 167978, totalTokens: 168018 });
    expect(calculatePromptTokens(usage!)).toBe(167988);

    const prep = prepareCompaction(path, DEFAULT_SETTINGS.compaction);
    if (!prep) throw new Error("no preparation");
    expect(prep.boundaryStart).toBe(628);
    expect(prep.estimatedWindowTokens).toBe(121735);
    expect([prep.firstKeptEntryIndex, prep.turnStartIndex]).toEqual([980, 957]);
    expect(planShape(prep)).toEqual({ firstKeptEntryId: path[980]?.id, isSplitTurn: true, tokensBefore: 168018, keep: 14493, summarize: 324, prefix: 23, recent: 21 });
    expect((path[980] as { message: { role: string } }).message.role).toBe("assistant");
    expect((path[957] as { message: { role: string } }).message.role).toBe("user");
    expect(prep.previousSummary).toBe((path[627] as CompactionEntry).summary);
    expect(prep.previousSummary).toHaveLength(3649);
    const lists = computeFileLists(prep.fileOps);
    expect(lists.readFiles).toHaveLength(2);
    expect(lists.readFiles[0]).toMatch(/\/packages\/agent\/src\/agent\.ts$/);
    expect(lists.readFiles[1]).toMatch(/\/packages\/coding-agent\/src\/core\/messages\.ts$/);
    expect(lists.modifiedFiles).toHaveLength(11);
  });

  it("case 143: large-session.jsonl, compaction planning and the unadapted cut", () => {
    const entries = loadFixture("large-session.jsonl");
    const path = branchOf(entries);
    expect(path).toHaveLength(1018);
    const usage = getLastAssistantUsage(path);
    expect(usage?.totalTokens).toBeUndefined();
    expect(usage).toMatchObject({ input: 0, output: 53, cacheRead: 176585, cacheWrite: 1019 });
    expect(calculatePromptTokens(usage!)).toBe(177604);

    const prep = prepareCompaction(path, DEFAULT_SETTINGS.compaction);
    if (!prep) throw new Error("no preparation");
    expect(prep.estimatedWindowTokens).toBe(124487);
    expect([prep.firstKeptEntryIndex, prep.turnStartIndex]).toEqual([899, 896]);
    expect(planShape(prep)).toEqual({ firstKeptEntryId: path[899]?.id, isSplitTurn: true, tokensBefore: 177657, keep: 14018, summarize: 792, prefix: 3, recent: 119 });
    expect(prep.previousSummary).toBeUndefined();
    const lists = computeFileLists(prep.fileOps);
    expect(lists.readFiles).toHaveLength(6);
    expect(lists.modifiedFiles).toHaveLength(21);
    expect(lists.modifiedFiles).toContain("~/.pi/agent/themes/nord.json");

    const unadapted = findCutPoint(path, 0, 1018, 20000);
    expect(unadapted).toEqual({ firstKeptEntryIndex: 837, turnStartIndex: 834, isSplitTurn: true });
    expect((path[837] as { message: { role: string } }).message.role).toBe("assistant");
  });

  it("case 144: fixture pruning, normative and checkout protected tools", () => {
    const before = loadFixture("before-compaction.jsonl");
    expect(planPruning(before)).toMatchObject({ prunedCount: 254, tokensSaved: 45570 });
    expect(planPruning(before, CHECKOUT)).toMatchObject({ prunedCount: 321, tokensSaved: 167381 });
    const large = loadFixture("large-session.jsonl");
    expect(planPruning(large)).toMatchObject({ prunedCount: 0, tokensSaved: 0 });
    expect(planPruning(large, CHECKOUT)).toMatchObject({ prunedCount: 22, tokensSaved: 23990 });
  });
});
