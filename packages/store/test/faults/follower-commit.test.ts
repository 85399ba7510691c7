/**
 * The live follower (another connection, another process) against commits while an agent appends:
 * labels set through the store, and branch summaries that are refused because the agent moved the
 * leaf. In every trial: no agent line lost, no row stored twice, the store holds exactly the file's
 * entries, and an export writes exactly as many lines as the file has. Figures:
 * .test-results/faults*.json ("follower-vs-label", "follower-vs-refused-branch-summary").
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { describe, expect, it } from "vitest";
import { openStore, SourceBusyError, StaleCommitError, type SqliteSessionStore } from "../../src/index";
import { tempDir } from "../support";
import { expectAgentLinesKept, expectAgreement, FULL, recordFigures, ROOT, scenarioTimeout, startAgent, trials } from "./harness";

const here = path.dirname(fileURLToPath(import.meta.url));
const ENTRIES = FULL ? 15_000 : 1_500;
let cachedText: string | undefined;
const sessionText = (): string => (cachedText ??= sessionToJsonl(generateSession({ entries: ENTRIES, seed: 31, compactionInterval: 0, branchProbability: 0 })));

/** Starts the follower child; resolves once it follows, with its stop (resolves with its sync count). */
function startFollower(db: string, file: string, stopFile: string): Promise<{ stop(): Promise<number> }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "follow-child.ts"), db, file, stopFile], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const exited = new Promise<number>((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve(Number(/done (\d+)/.exec(out)?.[1] ?? 0)) : reject(new Error(`follow-child failed (${code}): ${err}`)))),
  );
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("ready")) resolve({ stop: () => (fs.writeFileSync(stopFile, ""), exited) });
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    exited.catch(reject);
  });
}

/** rows of the session that share a line of the file with another row */
function duplicateRows(store: SqliteSessionStore, sessionId: string): number {
  return store.db.prepare("SELECT coalesce(sum(n - 1), 0) AS d FROM (SELECT count(*) AS n FROM entries WHERE session_id = ? AND line IS NOT NULL GROUP BY line HAVING n > 1)").pluck().get(sessionId) as number;
}

function lineCount(file: string): number {
  return fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").length;
}

const REFUSED_SUMMARY = "the abandoned branch (planned against a leaf the agent left)";

type Op = (store: SqliteSessionStore, id: string) => void;

async function trial(op: Op): Promise<{ done: number; refused: number; lines: number; syncs: number; duplicates: number }> {
  const dir = tempDir();
  const file = path.join(dir, "live.jsonl");
  const db = path.join(dir, "bonsai.db");
  fs.writeFileSync(file, sessionText());
  const store = openStore({ path: db });
  const id = (await store.importFile(file)).sessionId as string;
  const follower = await startFollower(db, file, path.join(dir, "stop"));
  const agent = await startAgent(file, { firstParent: store.getLeaf(id), minMs: 1, maxMs: 12 });
  const tally = { done: 0, refused: 0 };
  const commits = async (): Promise<void> => {
    for (let k = 0; k < 8; k++) {
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 25));
      try {
        op(store, id);
        tally.done++;
      } catch (err) {
        if (!(err instanceof SourceBusyError || err instanceof StaleCommitError)) throw err;
        tally.refused++;
      }
    }
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 40));
  };
  // the agent and the follower are stopped whatever happens (stopping again gives the same answer)
  await commits().finally(() => Promise.all([agent.stop(), follower.stop()]));
  const written = await agent.stop();
  const syncs = await follower.stop();
  expectAgentLinesKept(file, written);
  await store.importFile(file);
  const duplicates = duplicateRows(store, id);
  expect(duplicates, "rows stored twice").toBe(0);
  await expectAgreement(store, file, id);
  const exported = path.join(dir, "export.jsonl");
  await store.exportJsonl(id, exported);
  expect(lineCount(exported)).toBe(lineCount(file));
  expect(fs.readFileSync(file, "utf8")).not.toContain(REFUSED_SUMMARY);
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { ...tally, lines: written.length, syncs, duplicates };
}

async function scenario(name: string, op: Op): Promise<void> {
  const sum = { trials: trials(2), done: 0, refused: 0, lines: 0, syncs: 0, duplicateRows: 0, entries: ENTRIES };
  for (let i = 0; i < sum.trials; i++) {
    const r = await trial(op);
    sum.done += r.done;
    sum.refused += r.refused;
    sum.lines += r.lines;
    sum.syncs += r.syncs;
    sum.duplicateRows += r.duplicates;
  }
  recordFigures(name, sum);
}

describe(`the follower against commits while the agent appends (${FULL ? "full" : "bounded"}: ${ENTRIES} entries)`, () => {
  it(`labels (${trials(2)} trials of 8): no row stored twice; the export has the file's lines`, async () => {
    await scenario("follower-vs-label", (store, id) => void store.appendLabel(id, store.getLeaf(id) as string, `mark ${Date.now()}`));
  }, scenarioTimeout(600_000));

  it(`branch summaries refused because the agent moved the leaf (${trials(2)} trials of 8): no row stored twice, nothing of the summary written`, async () => {
    await scenario("follower-vs-refused-branch-summary", (store, id) => {
      const leaf = store.getLeaf(id);
      const target = store.getPath(id).at(-30)?.id as string;
      // planned against a leaf the agent has moved on from by the time it is committed: refused
      const stale = store.getPath(id).at(-2)?.id ?? leaf;
      store.appendEntry(id, { type: "branch_summary", fromId: target, summary: REFUSED_SUMMARY }, { parentId: target, expect: { leafId: stale, exists: [target] } });
    });
  }, scenarioTimeout(600_000));
});
