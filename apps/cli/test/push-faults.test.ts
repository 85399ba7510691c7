/**
 * `bonsai push` killed with SIGKILL at a random moment of its run (start-up, reading the store, a
 * batch on the wire or being stored), then run again to the end: the archive holds every entry of
 * the session exactly once, at positions 0..n-1, with the local store's entry ids in order.
 * Bounded in `pnpm test`; BONSAI_FAULTS=full (`pnpm test:faults`) runs 30 trials.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FULL, recordFigures, scenarioTimeout, trials } from "../../../packages/store/test/faults/harness";
import { BIN, runBonsai, startTestArchive, type TestArchive } from "./team-archive";

const ENTRIES = FULL ? 5000 : 3000;
const SESSION = "push-fault-session";
let archive: TestArchive;
let dir: string;
let data: string;
let token: string;
let localIds: string[];

function ok(args: string[], env: Record<string, string> = {}): string {
  const r = runBonsai(dir, archive?.database ?? "", args, env);
  if (r.code !== 0) throw new Error(`bonsai ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

function push(project: string, killAfterMs: number | null): Promise<{ killed: boolean; code: number | null }> {
  const child = spawn(process.execPath, [BIN, "push", SESSION, "--to", archive.url, "--project", project, "--data-dir", data], { env: { ...process.env, BONSAI_TOKEN: token, HOME: dir }, stdio: "ignore" });
  if (killAfterMs !== null) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ killed: signal === "SIGKILL", code })));
}

async function archivedIds(project: string): Promise<{ seq: number; entry_id: string }[]> {
  const client = new pg.Client({ connectionString: archive.database });
  await client.connect();
  try {
    const rows = await client.query<{ seq: number; entry_id: string }>(
      "SELECT e.seq, e.entry_id FROM entries e JOIN sessions s ON s.id = e.session_pk JOIN projects p ON p.id = s.project_id WHERE p.name = $1 AND s.session_id = $2 ORDER BY e.seq",
      [project, SESSION],
    );
    return rows.rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-push-faults-"));
  data = path.join(dir, "local");
  const file = path.join(dir, "session.jsonl");
  const generated = generateSession({ entries: ENTRIES, seed: 11, sessionId: SESSION });
  await writeSessionJsonl(file, generated);
  localIds = generated.entries.map((e) => e.id);
  archive = await startTestArchive((database) => {
    const run = (args: string[]): string => {
      const r = runBonsai(dir, database, args);
      if (r.code !== 0) throw new Error(`bonsai ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
      return r.stdout;
    };
    run(["import", file, "--data-dir", data]);
    token = (JSON.parse(run(["team", "user", "add", "pusher", "--json"])) as { token: string }).token;
  });
}, 180_000);

afterAll(async () => {
  await archive?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it(`bonsai push killed at random moments and repeated: every entry exactly once (${FULL ? "full" : "bounded"}: ${ENTRIES} entries)`, async () => {
  const n = trials(2);
  const tally = { killed: 0, finished: 0, partial: 0 };
  // one whole push measures the span the kills fall in
  ok(["team", "project", "add", "whole"]);
  ok(["team", "grant", "pusher", "whole"]);
  const started = performance.now();
  const whole = await push("whole", null);
  expect(whole.code).toBe(0);
  const span = (performance.now() - started) * 1.1;
  for (let i = 0; i < n; i++) {
    const project = `trial-${i}`;
    ok(["team", "project", "add", project]);
    ok(["team", "grant", "pusher", project]);
    const r = await push(project, Math.random() * span);
    tally[r.killed ? "killed" : "finished"]++;
    const held = (await archivedIds(project)).length;
    if (held > 0 && held < ENTRIES) tally.partial++;
    const again = await push(project, null);
    expect(again.code).toBe(0);
    const rows = await archivedIds(project);
    expect(rows.map((row) => row.seq)).toEqual(localIds.map((_, seq) => seq));
    expect(rows.map((row) => row.entry_id)).toEqual(localIds);
  }
  recordFigures("push-killed-and-repeated", { trials: n, ...tally, spanMs: Math.round(span), entries: ENTRIES, duplicates: 0, missing: 0 });
}, scenarioTimeout(600_000));
