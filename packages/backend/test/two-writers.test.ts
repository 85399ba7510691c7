/**
 * Two Bonsai writers on one session at once (issue 31, the red team's prune race), with real
 * processes on one data folder: the app's backend (`bonsai serve`, with its store worker, driven over
 * its WebSocket as the page does) and the `bonsai` CLI, or two CLIs, prune at random offsets from
 * each other, with and without an agent appending to the file, on a session pruned once before to
 * which the agent then added new tool outputs. After every trial: no tool output lost (each is in
 * the file as the agent wrote it or, pruned, in the restore table byte for byte), the store and the
 * file agree (export = file, reading the file again changes nothing), the backup is the agent's
 * original, Restore gives the agent's file back byte for byte, and a refused writer's sentence names
 * Bonsai (never an agent when no agent runs, never the backup).
 * Bounded in `pnpm test`; `pnpm test:faults` (BONSAI_FAULTS=full) runs 30 trials of each.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore } from "@bonsai/store";
import { afterEach, describe, expect, it } from "vitest";
import { expectAgentLinesKept, expectAgreement, FULL, recordFigures, scenarioTimeout, startAgent, trials, type AgentRun } from "../../store/test/faults/harness";
import { keptOriginals, lastEntryId, lostOutputs, preparePrunedSession, type PrunedSession } from "./two-writers/pruned-session";
import { atOffset, cli, cliPrune, overlapped, refusalKind, startServe, type ServedApp, type WriterRun } from "./two-writers/writers";

const ENTRIES = FULL ? 3_000 : 1_500;
/** the red team's figure: tool outputs the agent added after the first prune */
const ADDED = 150;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function trialDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-two-writers-"));
  dirs.push(d);
  return d;
}

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Tally {
  trials: number;
  done: number;
  refusedBonsai: number;
  refusedStale: number;
  refusedAgent: number;
  overlapped: number;
  outputsPrunedAfter: number;
  outputsRestored: number;
  agentLines: number;
  outputsLost: number;
  disagreements: number;
  sentences: Set<string>;
}

/**
 * After a trial: no output lost, store and file agree, the backup is whole, Restore gives the
 * agent's file back. Returns how many outputs were pruned and restored.
 */
async function checkTrial(s: PrunedSession, agentLines: readonly string[]): Promise<{ pruned: number; restored: number }> {
  if (agentLines.length > 0) expectAgentLinesKept(s.file, agentLines);
  const store = openStore({ path: s.db, backgroundIndexing: false });
  try {
    // the agent's lines after the writers' last look are new to the store; with no agent the store is up to date
    if (agentLines.length > 0) await store.importFile(s.file);
    await expectAgreement(store, s.file, s.sessionId);
    expect(store.renderJsonl(s.sessionId) === fs.readFileSync(s.file, "utf8"), "the export is the file").toBe(true);
    const { lost, pruned } = lostOutputs(s, store);
    expect(lost, "tool outputs in neither the file nor the restore table").toEqual([]);
    expect(fs.readFileSync(`${s.file}.bonsai-original`).equals(Buffer.from(s.original)), "the backup is the agent's original").toBe(true);
    const restored = store.restorePruned(s.sessionId);
    const after = fs.readFileSync(s.file);
    const head = Buffer.from(s.unpruned);
    expect(after.subarray(0, head.length).equals(head), "Restore gives back the agent's file byte for byte").toBe(true);
    const tail = after.subarray(head.length).toString("utf8").split("\n").filter((l) => l !== "");
    expect(tail.map((l) => (JSON.parse(l) as { id: string }).id), "after it, the agent's lines only").toEqual(agentLines);
    expect(keptOriginals(store, s.sessionId).size).toBe(0);
    await expectAgreement(store, s.file, s.sessionId);
    return { pruned, restored };
  } finally {
    store.close();
  }
}

/** who writes: the app prunes, or restores every pruned output, while the CLI prunes; or two CLIs prune */
type Pair = "app + CLI" | "app restore + CLI" | "CLI + CLI";
const WHAT: Record<Pair, string> = { "app + CLI": "app + CLI prune", "app restore + CLI": "app restores while the CLI prunes", "CLI + CLI": "CLI + CLI prune" };

async function trial(pair: Pair, live: boolean, timing: Timing, tally: Tally): Promise<void> {
  const s = await preparePrunedSession(trialDir(), ENTRIES, ADDED);
  let app: ServedApp | null = null;
  let agent: AgentRun | null = null;
  let runs: [WriterRun, WriterRun];
  let agentLines: string[] = [];
  try {
    if (pair !== "CLI + CLI") {
      app = await startServe(s.dataDir);
      const last = lastEntryId(s.file);
      await app.open(s.sessionId);
      // the page shows the session once its follower has read the agent's new outputs
      await waitFor("the app shows the new outputs", async () => (await app!.leaf(s.sessionId)) === last);
    }
    if (live) agent = await startAgent(s.file, { firstParent: lastEntryId(s.file), minMs: 100, maxMs: 1_500, prefix: "ag" });
    const offset = drawOffset(pair, timing);
    const served = app;
    const first = !served
      ? () => cliPrune(s.db, s.sessionId)
      : pair === "app restore + CLI"
        ? () => served.restore(s.sessionId)
        : async () => served.prune(s.sessionId, await served.leaf(s.sessionId));
    runs = await atOffset(offset, first, () => cliPrune(s.db, s.sessionId));
  } finally {
    if (agent) agentLines = await agent.stop();
    await app?.stop();
  }
  tally.agentLines += agentLines.length;
  tally.trials++;
  if (overlapped(runs[0], runs[1])) tally.overlapped++;
  for (const r of runs) {
    if (r.refusal === null) {
      tally.done++;
      continue;
    }
    const kind = refusalKind(r.refusal);
    tally.sentences.add(`${r.writer}: ${r.refusal.replace(/\(session [^)]+\)/, "(session SID)").replace(/\b(?=[0-9a-z]*\d)[0-9a-z]{6,}\b/g, "ID")}`);
    expect(kind, `${r.writer}: ${r.refusal}`).not.toBe("other");
    // with no agent, only Bonsai writes the file: a refusal must name Bonsai, never an agent
    if (!live) expect(kind, `${r.writer}: ${r.refusal}`).toBe("bonsai");
    if (kind === "bonsai") tally.refusedBonsai++;
    else if (kind === "stale") tally.refusedStale++;
    else tally.refusedAgent++;
  }
  const { pruned, restored } = await checkTrial(s, agentLines);
  tally.outputsPrunedAfter += pruned;
  tally.outputsRestored += restored;
}

/**
 * When the writers' work falls, measured here on the prepared session: a `bonsai` process spends
 * `startMs` starting and opening the store (`bonsai ls`), then about `workMs` pruning. The offsets
 * are drawn so that the writers' work overlaps or nearly does (drawOffset).
 */
interface Timing {
  startMs: number;
  workMs: number;
}

async function measureTiming(): Promise<Timing> {
  const s = await preparePrunedSession(trialDir(), ENTRIES, ADDED);
  const ls = await cli(s.db, ["ls"]);
  const run = await cliPrune(s.db, s.sessionId);
  expect(run.refusal).toBeNull();
  const startMs = ls.endedAt - ls.startedAt;
  return { startMs, workMs: Math.max(100, run.endedAt - run.startedAt - startMs) };
}

/**
 * the offset of the CLI's start from the first writer's (negative: the CLI starts first): two CLIs
 * within ±workMs; the app's call anywhere in the CLI's run (its start-up varies with the load)
 */
function drawOffset(pair: Pair, t: Timing): number {
  if (pair === "CLI + CLI") return (Math.random() * 2 - 1) * t.workMs;
  return -Math.random() * (t.startMs + t.workMs);
}

describe(`two Bonsai writers on one session (${FULL ? "full" : "bounded"}: ${ENTRIES} entries, ${ADDED} new outputs after a prune)`, () => {
  let timing: Timing | undefined;
  for (const pair of ["app + CLI", "CLI + CLI", "app restore + CLI"] as const) {
    for (const live of pair === "app restore + CLI" ? [false] : [false, true]) {
      it(`${WHAT[pair]} at random offsets${live ? " while the agent appends" : ""}: nothing lost, store and file agree, Restore gives the file back`, async () => {
        timing ??= await measureTiming();
        const tally: Tally = {
          trials: 0,
          done: 0,
          refusedBonsai: 0,
          refusedStale: 0,
          refusedAgent: 0,
          overlapped: 0,
          outputsPrunedAfter: 0,
          outputsRestored: 0,
          agentLines: 0,
          outputsLost: 0,
          disagreements: 0,
          sentences: new Set(),
        };
        const started = performance.now();
        const n = trials(2);
        for (let i = 0; i < n; i++) {
          await trial(pair, live, timing, tally);
          if (FULL) console.log(`[faults] two-writers ${pair}${live ? " agent" : ""}: trial ${i + 1}/${n} at ${Math.round((performance.now() - started) / 1000)} s`);
        }
        const { sentences, ...figures } = tally;
        recordFigures(`two-writers ${pair}${live ? " agent" : ""}`, {
          ...figures,
          entries: ENTRIES,
          added: ADDED,
          startMs: Math.round(timing.startMs),
          workMs: Math.round(timing.workMs),
          wallSeconds: Math.round((performance.now() - started) / 1000),
          sentences: [...sentences].join(" | "),
        });
      }, scenarioTimeout(300_000));
    }
  }
});
