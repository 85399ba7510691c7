/**
 * The guarantees of packages/store/src/source/ through what a user runs: the built `bonsai` CLI
 * compacting, navigating with a summary and pruning a stored session
 * - killed with SIGKILL at random moments: the next `bonsai` command's open puts the store and the
 *   file back in agreement, with no temporary file left;
 * - while an agent appends to the session file every 1-50 ms: no agent line is lost, and a command
 *   that could not work safely exits with one clear line (never "unexpected error").
 * Bounded in `pnpm test`; BONSAI_FAULTS=full (`pnpm test:faults`) runs 30 trials of each.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSessionText } from "@bonsai/core";
import { openStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { expectAgentLinesKept, expectStoreAgrees, FULL, recordFigures, scenarioTimeout, startAgent, trials } from "../../../packages/store/test/faults/harness";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const ENTRIES = FULL ? 10_000 : 2_000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

let cached: string | undefined;
const text = (): string => (cached ??= sessionToJsonl(generateSession({ entries: ENTRIES, seed: 3, compactionInterval: 0, branchProbability: 0 })));

function setUp(): { dir: string; file: string; db: string; id: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-cli-faults-"));
  dirs.push(dir);
  const file = path.join(dir, "live.jsonl");
  fs.writeFileSync(file, text());
  const db = path.join(dir, "data", "bonsai.db");
  const r = spawnSync(process.execPath, [bin, "import", file], { encoding: "utf8", env: { ...process.env, BONSAI_DB: db } });
  expect(r.status, r.stderr).toBe(0);
  const store = openStore({ path: db });
  const id = store.listSessions()[0]!.id;
  store.close();
  return { dir, file, db, id };
}

function commandFor(op: string, t: { file: string; id: string; db: string }): string[] {
  if (op === "compact") return ["compact", t.id, "--offline"];
  if (op === "prune") return ["prune", t.id];
  const entries = parseSessionText(fs.readFileSync(t.file, "utf8")).entries;
  const target = entries.at(-25)!.id;
  return ["navigate", t.id, target, "--summarize", "--offline"];
}

/** Runs bonsai; kills it after `killAfterMs` when given. */
function bonsai(db: string, args: string[], killAfterMs: number | null): Promise<{ code: number | null; killed: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, BONSAI_DB: db } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    if (killAfterMs !== null) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("exit", (code, signal) => resolve({ code, killed: signal === "SIGKILL", stderr }));
  });
}

const OPS = ["compact", "navigate", "prune"] as const;

describe(`the bonsai CLI under faults (${FULL ? "full" : "bounded"}: ${ENTRIES} entries)`, () => {
  for (const op of OPS) {
    it(`bonsai ${op} killed at random moments: the next open agrees with the file`, async () => {
      const n = trials(2);
      const tally = { killed: 0, finished: 0 };
      // the kills fall anywhere in the command's run (start-up included) as long as it takes here
      const first = setUp();
      const started = performance.now();
      const whole = await bonsai(first.db, commandFor(op, first), null);
      expect(whole.code, whole.stderr).toBe(0);
      const span = (performance.now() - started) * 1.1;
      for (let i = 0; i < n; i++) {
        const t = setUp();
        const r = await bonsai(t.db, commandFor(op, t), Math.random() * span);
        tally[r.killed ? "killed" : "finished"]++;
        if (!r.killed) expect(r.code, r.stderr).toBe(0);
        await expectStoreAgrees(t.db, t.file, t.id); // opening runs the recovery
        const next = await bonsai(t.db, ["ls"], null);
        expect(next.code, next.stderr).toBe(0);
      }
      recordFigures(`cli-${op}-killed`, { trials: n, ...tally, spanMs: Math.round(span), disagreements: 0, tempFilesLeft: 0, entries: ENTRIES });
    }, scenarioTimeout(900_000));

    it(`bonsai ${op} while the agent appends: no line lost; refused runs exit cleanly`, async () => {
      const n = trials(2);
      const tally = { done: 0, refused: 0, lines: 0 };
      for (let i = 0; i < n; i++) {
        const t = setUp();
        const agent = await startAgent(t.file, { firstParent: parseSessionText(fs.readFileSync(t.file, "utf8")).entries.at(-1)!.id });
        const r = await bonsai(t.db, commandFor(op, t), null);
        const written = await agent.stop();
        tally.lines += written.length;
        expectAgentLinesKept(t.file, written);
        expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
        if (r.code === 0) tally.done++;
        else {
          tally.refused++;
          // progress lines may come first; the error is one line, last
          const last = r.stderr.trim().split("\n").at(-1) ?? "";
          expect(last, r.stderr).toMatch(/^bonsai: .*(running agent|changed since this was planned)/);
        }
        const store = openStore({ path: t.db });
        await store.importFile(t.file);
        store.close();
        await expectStoreAgrees(t.db, t.file, t.id);
      }
      recordFigures(`cli-${op}-while-agent-appends`, { trials: n, ...tally, linesLost: 0, entries: ENTRIES });
    }, scenarioTimeout(900_000));
  }
});
