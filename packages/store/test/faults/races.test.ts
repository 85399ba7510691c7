/**
 * Races with a live agent: a simulated agent appends lines every 1-50 ms (one append per line, as
 * pi does) while Bonsai prunes, restores, upgrades a v2 file to v3, appends a compaction or a branch
 * summary; another agent writes each line in two writes; another keeps its descriptor open. In every
 * trial: no agent line is lost, duplicated or torn, the store and the file agree, and an operation
 * either happened or was refused with nothing changed. Figures: .test-results/faults*.json.
 */
import fs from "node:fs";
import path from "node:path";
import { applyPruning, planPruning, type SessionEntry } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { describe, expect, it } from "vitest";
import { openStore, SourceBusyError, StaleCommitError, type SqliteSessionStore } from "../../src/index";
import { tempDir } from "../support";
import { bonsaiTemps, expectAgentLinesKept, expectAgreement, FULL, readFile, recordFigures, scenarioTimeout, startAgent, trials, type AgentOptions } from "./harness";

const ENTRIES = FULL ? 15_000 : 1_500;
let cachedText: string | undefined;
function sessionText(): string {
  cachedText ??= sessionToJsonl(generateSession({ entries: ENTRIES, seed: 42, compactionInterval: 0, branchProbability: 0 }));
  return cachedText;
}

interface Trial {
  dir: string;
  file: string;
  store: SqliteSessionStore;
  id: string;
}

/** the same session as a v2 file: header version 2, migrated `custom` roles back to `hookMessage` */
function v2SessionText(): string {
  return sessionText().replace('"version":3', '"version":2').replaceAll('"role":"custom"', '"role":"hookMessage"');
}

async function setUp(text = sessionText()): Promise<Trial> {
  const dir = tempDir();
  const file = path.join(dir, "live.jsonl");
  fs.writeFileSync(file, text);
  const store = openStore({ path: path.join(dir, "bonsai.db") });
  const id = (await store.importFile(file)).sessionId as string;
  return { dir, file, store, id };
}

type Outcome = "done" | "refused";

/** Runs `op` while the agent appends; checks the invariants; returns what happened. */
async function race(t: Trial, agent: AgentOptions, op: () => void): Promise<{ outcome: Outcome; lines: number; message?: string }> {
  const run = await startAgent(t.file, { firstParent: t.store.getLeaf(t.id), ...agent });
  // let the agent get going, then work while it writes
  await new Promise((r) => setTimeout(r, 20 + Math.random() * 60));
  let outcome: Outcome = "done";
  let message: string | undefined;
  try {
    op();
  } catch (err) {
    if (!(err instanceof SourceBusyError || err instanceof StaleCommitError)) throw err;
    outcome = "refused";
    message = err.message;
  }
  await new Promise((r) => setTimeout(r, 30 + Math.random() * 60));
  const written = await run.stop();
  expectAgentLinesKept(t.file, written);
  await t.store.importFile(t.file); // the lines written after the operation
  await expectAgreement(t.store, t.file, t.id);
  return { outcome, lines: written.length, message };
}

function prunePlan(store: SqliteSessionStore, id: string): { entryId: string; message: never }[] {
  const p = store.getPath(id);
  return applyPruning(p, planPruning(p), Date.now()) as never;
}

function prunedInFile(file: string): number {
  return readFile(file).entries.filter((e) => (e as SessionEntry & { message?: { prunedAt?: number } }).message?.prunedAt !== undefined).length;
}

describe(`live agent races (${FULL ? "full" : "bounded"}: ${ENTRIES} entries)`, () => {
  it(`prune while the agent appends (${trials(2)} trials): no line lost; done or refused with nothing changed`, async () => {
    const tally = { done: 0, refused: 0, lines: 0 };
    for (let i = 0; i < trials(2); i++) {
      const t = await setUp();
      const results = prunePlan(t.store, t.id);
      expect(results.length).toBeGreaterThan(0);
      const r = await race(t, {}, () => t.store.applyPruning(t.id, results));
      tally[r.outcome]++;
      tally.lines += r.lines;
      // done: the file holds the pruned form; refused: nothing of it anywhere
      if (r.outcome === "done") expect(prunedInFile(t.file)).toBe(results.length);
      else {
        expect(prunedInFile(t.file)).toBe(0);
        expect(t.store.listPruned(t.id)).toEqual([]);
      }
      t.store.close();
    }
    recordFigures("prune-while-agent-appends", { trials: trials(2), ...tally, linesLost: 0, entries: ENTRIES });
  }, scenarioTimeout(600_000));

  it(`restore while the agent appends (${trials(2)} trials)`, async () => {
    const tally = { done: 0, refused: 0, lines: 0 };
    for (let i = 0; i < trials(2); i++) {
      const t = await setUp();
      const results = prunePlan(t.store, t.id);
      t.store.applyPruning(t.id, results);
      const r = await race(t, {}, () => void t.store.restorePruned(t.id));
      tally[r.outcome]++;
      tally.lines += r.lines;
      if (r.outcome === "done") {
        expect(prunedInFile(t.file)).toBe(0);
        expect(t.store.listPruned(t.id)).toEqual([]);
      } else {
        expect(prunedInFile(t.file)).toBe(results.length);
        expect(t.store.listPruned(t.id)).toHaveLength(results.length);
      }
      t.store.close();
    }
    recordFigures("restore-while-agent-appends", { trials: trials(2), ...tally, linesLost: 0, entries: ENTRIES });
  }, scenarioTimeout(600_000));

  it(`first write to a v2 file (rewritten as v3) while the agent appends (${trials(2)} trials)`, async () => {
    const v2 = v2SessionText();
    const tally = { done: 0, refused: 0, lines: 0 };
    for (let i = 0; i < trials(2); i++) {
      const t = await setUp(v2);
      const target = t.store.getLeaf(t.id) as string;
      const r = await race(t, {}, () => void t.store.appendLabel(t.id, target, "checkpoint"));
      tally[r.outcome]++;
      tally.lines += r.lines;
      const now = fs.readFileSync(t.file, "utf8");
      const header = JSON.parse(now.split("\n", 1)[0] as string) as { version: number };
      // done: the file is v3; refused: the agent's v2 file as it was, with only the agent's lines after it
      if (r.outcome === "done") expect(header.version).toBe(3);
      else expect(now.startsWith(v2), "a refused upgrade leaves the v2 file as it was").toBe(true);
      t.store.close();
    }
    recordFigures("migration-rewrite-while-agent-appends", { trials: trials(2), ...tally, linesLost: 0, entries: ENTRIES });
  }, scenarioTimeout(600_000));

  it(`a compaction planned before the agent moved on is refused; appended when it still holds (${trials(2)} trials)`, async () => {
    const tally = { done: 0, refused: 0, lines: 0, staleRefusals: 0 };
    for (let i = 0; i < trials(2); i++) {
      const t = await setUp();
      const leaf = t.store.getLeaf(t.id);
      const kept = t.store.getPath(t.id).at(-20)?.id as string;
      const body = { type: "compaction", summary: "what happened so far", firstKeptEntryId: kept, tokensBefore: 50_000 };
      const r = await race(t, {}, () => void t.store.appendEntry(t.id, body, { expect: { leafId: leaf, onPath: [kept] } }));
      tally[r.outcome]++;
      tally.lines += r.lines;
      const compactions = readFile(t.file).entries.filter((e) => e.type === "compaction" && (e as { summary?: string }).summary === body.summary);
      expect(compactions).toHaveLength(r.outcome === "done" ? 1 : 0);
      if (r.message?.includes("planned from")) tally.staleRefusals++;
      t.store.close();
    }
    recordFigures("compaction-while-agent-appends", { trials: trials(2), ...tally, linesLost: 0, entries: ENTRIES });
  }, scenarioTimeout(600_000));

  it(`a branch switch with a summary while the agent appends (${trials(2)} trials)`, async () => {
    const tally = { done: 0, refused: 0, lines: 0 };
    for (let i = 0; i < trials(2); i++) {
      const t = await setUp();
      const leaf = t.store.getLeaf(t.id);
      const target = t.store.getPath(t.id).at(-30)?.id as string;
      const body = { type: "branch_summary", fromId: target, summary: "the abandoned branch tried X" };
      const r = await race(t, {}, () => void t.store.appendEntry(t.id, body, { parentId: target, expect: { leafId: leaf, exists: [target] } }));
      tally[r.outcome]++;
      tally.lines += r.lines;
      t.store.close();
    }
    recordFigures("branch-switch-while-agent-appends", { trials: trials(2), ...tally, linesLost: 0, entries: ENTRIES });
  }, scenarioTimeout(600_000));

  it(`appends while an agent writes each line in two writes (${trials(2)} trials of 40 appends): no torn line`, async () => {
    const tally = { appends: 0, refused: 0, lines: 0 };
    for (let i = 0; i < trials(2); i++) {
      const t = await setUp();
      let appended = 0;
      const r = await race(t, { mode: "split", minMs: 0, maxMs: 4 }, () => {
        for (let k = 0; k < 40; k++) {
          try {
            t.store.appendEntry(t.id, { type: "custom", customType: "bonsai-test", data: { k } });
            appended++;
            tally.appends++;
          } catch (err) {
            if (!(err instanceof SourceBusyError)) throw err;
            tally.refused++;
          }
        }
      });
      tally.lines += r.lines;
      const ours = readFile(t.file).entries.filter((e) => (e as { customType?: string }).customType === "bonsai-test");
      expect(ours).toHaveLength(appended);
      t.store.close();
    }
    recordFigures("appends-with-a-two-write-agent", { trials: trials(2), ...tally, linesLost: 0, tornLines: 0 });
  }, scenarioTimeout(600_000));

  it.skipIf(process.platform !== "linux")("an agent that keeps the file open for writing: rewrites are refused, nothing changes", async () => {
    const t = await setUp();
    const results = prunePlan(t.store, t.id);
    const r = await race(t, { mode: "held", minMs: 5, maxMs: 20 }, () => t.store.applyPruning(t.id, results));
    expect(r.outcome).toBe("refused");
    expect(r.message).toMatch(/keeps it open for writing/);
    expect(prunedInFile(t.file)).toBe(0);
    expect(bonsaiTemps(t.dir)).toEqual([]);
    t.store.close();
  }, scenarioTimeout(120_000));

  it.skipIf(process.platform !== "linux")("a v2 file held open by its agent: the first write (its upgrade to v3) is refused, the file stays v2, the store keeps it as v3", async () => {
    const v2 = v2SessionText();
    expect(v2).toContain('"role":"hookMessage"');
    const t = await setUp(v2);
    const target = t.store.getLeaf(t.id) as string;
    // race() checks the store against the file as the store reads it: the v2 lines migrated
    const r = await race(t, { mode: "held", minMs: 5, maxMs: 20 }, () => void t.store.appendLabel(t.id, target, "checkpoint"));
    expect(r.outcome).toBe("refused");
    expect(r.message).toMatch(/keeps it open for writing/);
    expect(fs.readFileSync(t.file, "utf8").startsWith(v2)).toBe(true);
    expect(t.store.loadEntries(t.id).some((e) => (e as { message?: { role?: string } }).message?.role === "hookMessage")).toBe(false);
    t.store.close();
  }, scenarioTimeout(120_000));
});
