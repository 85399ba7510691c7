/**
 * kill -9 during import, compaction and branch-summary appends, pruning, restore, the first backup
 * and a v1 -> v3 upgrade: at every named point of the file protocols and at random moments. After
 * each kill the next open (recovery) must leave: the store and the file in agreement (reading the
 * file again changes nothing, same entries), no Bonsai temporary file, no pending intent, and the
 * backup — whenever the file was rewritten — byte for byte the agent's original. Then the same
 * operation runs to completion.
 */
import fs from "node:fs";
import path from "node:path";
import { applyPruning, planPruning } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { describe, expect, it } from "vitest";
import { BACKUP_SUFFIX, openStore, type FaultPoint, type SqliteSessionStore } from "../../src/index";
import { BEFORE_COMPACTION, HAVE_FIXTURES, tempDir } from "../support";
import { DEFER_FROM_FILE_BYTES } from "../../src/import/deferred-index";
import { bonsaiTemps, expectAgreement, FULL, recordFigures, scenarioTimeout, runChild, trials } from "./harness";

const ENTRIES = FULL ? 6_000 : 2_000;
const REWRITE_POINTS: FaultPoint[] = [
  "rewrite:intent",
  "rewrite:temp-written",
  "rewrite:backup-written",
  "rewrite:backup-linked",
  "rewrite:before-rename",
  "rewrite:after-rename",
];
const APPEND_POINTS: FaultPoint[] = ["append:intent", "append:before-write", "append:written"];

let cached: string | undefined;
const sessionText = (): string => (cached ??= sessionToJsonl(generateSession({ entries: ENTRIES, seed: 7, compactionInterval: 0 })));
let cachedBig: string | undefined;
/** a file above the size from which an import builds its id index after the rows (import/deferred-index.ts) */
const BIG_ENTRIES = 14_000;
const bigSessionText = (): string => {
  cachedBig ??= sessionToJsonl(generateSession({ entries: BIG_ENTRIES, seed: 8, compactionInterval: 0 }));
  expect(Buffer.byteLength(cachedBig)).toBeGreaterThan(DEFER_FROM_FILE_BYTES);
  return cachedBig;
};

interface Case {
  op: "import" | "prune" | "restore" | "compact" | "navigate" | "label";
  /** the scenario's name when not the op's */
  name?: string;
  /** entries of its file when not ENTRIES */
  entries?: number;
  /** the file the trial starts from */
  text: () => string;
  /** done in the test process before the child runs */
  prepare: (store: SqliteSessionStore, file: string) => Promise<void>;
  points: FaultPoint[];
  randomKills: number;
}

async function importOnly(store: SqliteSessionStore, file: string): Promise<void> {
  await store.importFile(file);
}

function pruneAll(store: SqliteSessionStore, id: string): void {
  const p = store.getPath(id);
  store.applyPruning(id, applyPruning(p, planPruning(p), 1_000));
}

const CASES: Case[] = [
  { op: "import", text: sessionText, prepare: async () => undefined, points: [], randomKills: trials(3) },
  { op: "import", name: "import (id index built after the rows)", entries: BIG_ENTRIES, text: bigSessionText, prepare: async () => undefined, points: [], randomKills: trials(2) },
  { op: "prune", text: sessionText, prepare: importOnly, points: REWRITE_POINTS, randomKills: trials(1) },
  {
    op: "restore",
    text: sessionText,
    prepare: async (store, file) => {
      await store.importFile(file);
      pruneAll(store, store.listSessions()[0]!.id);
    },
    points: REWRITE_POINTS,
    randomKills: trials(1),
  },
  { op: "compact", text: sessionText, prepare: importOnly, points: APPEND_POINTS, randomKills: trials(2) },
  { op: "navigate", text: sessionText, prepare: importOnly, points: APPEND_POINTS, randomKills: trials(2) },
];
if (HAVE_FIXTURES) {
  // a v1 file: the first write upgrades it to v3 (a rewrite with the first backup), then appends
  CASES.push({ op: "label", text: () => fs.readFileSync(BEFORE_COMPACTION, "utf8"), prepare: importOnly, points: [...REWRITE_POINTS, ...APPEND_POINTS], randomKills: trials(1) });
}

function isV3(file: string): boolean {
  const first = fs.readFileSync(file, "utf8").split("\n", 1)[0] as string;
  return (JSON.parse(first) as { version?: number }).version === 3;
}

/** The checks after a kill; returns what state the file was left in. */
async function checkAfterKill(dir: string, file: string, original: Buffer, c: Case): Promise<"untouched" | "rewritten" | "appended"> {
  const store = openStore({ path: path.join(dir, "bonsai.db") }); // recovery runs here
  try {
    expect(store.db.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(store.db.prepare("SELECT count(*) FROM source_intents").pluck().get(), "pending intents after recovery").toBe(0);
    expect(bonsaiTemps(dir)).toEqual([]);
    const sessions = store.listSessions();
    if (c.op === "import" && sessions.length === 0) return "untouched";
    expect(sessions).toHaveLength(1);
    const id = sessions[0]!.id;
    if (isV3(file)) await expectAgreement(store, file, id);
    else {
      const report = await store.importFile(file);
      expect(report.status).toBe("unchanged");
    }
    const now = fs.readFileSync(file);
    const backup = `${file}${BACKUP_SUFFIX}`;
    if (fs.existsSync(backup)) expect(fs.readFileSync(backup).equals(original), "the backup is the agent's original").toBe(true);
    if (now.equals(original)) return "untouched";
    if (now.subarray(0, original.length).equals(original)) return "appended";
    // rewritten: the original is kept whole (restore: the backup predates this trial's file)
    expect(fs.existsSync(backup), "a rewritten file has its backup").toBe(true);
    return "rewritten";
  } finally {
    store.close();
  }
}

/** The same operation, run to completion after recovery, works and leaves store and file agreeing. */
async function finishAfterwards(dir: string, file: string, c: Case): Promise<void> {
  if (c.op === "import") return;
  const r = await runChild([c.op, path.join(dir, "bonsai.db"), file], null);
  expect(r.out, r.out).toMatch(/done|refused .*(Already|planned from|no longer)/);
  const store = openStore({ path: path.join(dir, "bonsai.db") });
  try {
    await expectAgreement(store, file, store.listSessions()[0]!.id);
  } finally {
    store.close();
  }
}

/** A fresh trial folder: the case's file, prepared in the test process. */
async function trialDir(c: Case): Promise<{ dir: string; file: string; original: Buffer }> {
  const dir = tempDir();
  const file = path.join(dir, "session.jsonl");
  fs.writeFileSync(file, c.text());
  // restore starts from a file Bonsai pruned: its original is the backup to keep whole
  const setup = openStore({ path: path.join(dir, "bonsai.db") });
  await c.prepare(setup, file);
  setup.close();
  return { dir, file, original: c.op === "restore" ? Buffer.from(c.text()) : fs.readFileSync(file) };
}

/**
 * How long the operation takes here (ms from the child's "ready"), from one run to completion: the
 * random kills fall within it, wherever the machine's speed puts its end.
 */
async function timeOperation(c: Case): Promise<number> {
  const { dir, file } = await trialDir(c);
  const r = await runChild([c.op, path.join(dir, "bonsai.db"), file], null);
  const ms = Number(/done (\d+)/.exec(r.out)?.[1]);
  expect(Number.isFinite(ms), `the operation did not finish: ${r.out}`).toBe(true);
  return Math.max(2, ms);
}

describe(`kill -9 during file operations (${FULL ? "full" : "bounded"}: ${ENTRIES} entries)`, () => {
  for (const c of CASES) {
    const runs: { point: FaultPoint | null }[] = [...c.points.map((point) => ({ point })), ...Array.from({ length: c.randomKills }, () => ({ point: null }))];
    it(`${c.name ?? c.op}: ${c.points.length} fault points + ${c.randomKills} random kills`, async () => {
      const states = { untouched: 0, rewritten: 0, appended: 0, killed: 0, completed: 0 };
      // kills drawn over the operation's span and a little after it (the end is a moment too)
      const span = c.randomKills > 0 ? (await timeOperation(c)) * 1.1 : 0;
      for (const run of runs) {
        const { dir, file, original } = await trialDir(c);
        const result = await runChild([c.op, path.join(dir, "bonsai.db"), file, ...(run.point ? [run.point] : [])], run.point ? null : Math.random() * span);
        if (result.killed) states.killed++;
        else states.completed++;
        states[await checkAfterKill(dir, file, original, c)]++;
        await finishAfterwards(dir, file, c);
      }
      recordFigures(`kill-during-${c.name ?? c.op}`, { trials: runs.length, ...states, spanMs: Math.round(span), disagreements: 0, tempFilesLeft: 0, brokenBackups: 0, entries: c.entries ?? ENTRIES });
    }, scenarioTimeout(900_000));
  }
});
