/**
 * Two `bonsai import` of one new file at the same moment, in two real processes on one database:
 * one imports it, the other reports it as already imported; both exit 0, neither prints a SQLite
 * message, and the store holds the session once with every entry of the file (a pi session, and
 * a Claude Code one, which the store reads through its foreign import).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, buildCli } from "./built-cli";
import { REAL_SESSIONS, realSession } from "./real-sessions";

const ENTRIES = 3000;
const TRIALS = 4;
let work: string;

beforeAll(() => {
  buildCli();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-simultaneous-import-"));
}, 300_000);

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

function importOnce(file: string, database: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, "import", file], { cwd: work, env: { ...process.env, BONSAI_DB: database, BONSAI_DEBUG: "", HOME: work }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Imports `file` twice at once into a new database; the two runs, the loser's line, and the sessions stored. */
async function race(file: string, dir: string): Promise<{ loser: string; sessions: { entryCount: number }[] }> {
  fs.mkdirSync(dir);
  const database = path.join(dir, "bonsai.db");
  // the database exists first, so that both processes race for the session, not for its creation
  openStore({ path: database }).close();
  const runs = await Promise.all([importOnce(file, database), importOnce(file, database)]);
  for (const r of runs) {
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/UNIQUE|constraint|SQLITE/i);
  }
  const lines = runs.map((r) => r.stdout.split("\n").find((l) => l.includes(path.basename(file))) ?? "");
  expect(lines.filter((l) => l.startsWith("imported"))).toHaveLength(1);
  expect(lines.filter((l) => l.startsWith("unchanged"))).toHaveLength(1);
  const store = openStore({ path: database });
  try {
    return { loser: lines.find((l) => l.startsWith("unchanged")) ?? "", sessions: store.listSessions() };
  } finally {
    store.close();
  }
}

const RACED = ": already imported: another process imported it a moment ago";

describe("two simultaneous first imports of one file", () => {
  it("import a pi session once: the other says it is already imported, and both exit 0", async () => {
    const file = path.join(work, "session.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: ENTRIES, seed: 11, compactionInterval: 0, branchProbability: 0 })));
    const losers: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const { loser, sessions } = await race(file, path.join(work, `pi-${trial}`));
      losers.push(loser);
      expect(sessions.map((s) => s.entryCount)).toEqual([ENTRIES]);
    }
    // the trials raced (both read the store before either had stored the session): the loser says so
    expect(losers.filter((l) => l.endsWith(RACED)).length).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it.skipIf(REAL_SESSIONS["claude-code"].length === 0)("import a Claude Code session once, the same way", async () => {
    const file = realSession("claude-code", REAL_SESSIONS["claude-code"].at(-1) as string);
    const alone = path.join(work, "claude-alone.db");
    const single = await importOnce(file, alone);
    expect(single.code, single.stderr).toBe(0);
    const store = openStore({ path: alone });
    const expected = store.listSessions().map((s) => s.entryCount);
    store.close();
    const losers: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const { loser, sessions } = await race(file, path.join(work, `claude-${trial}`));
      losers.push(loser);
      expect(sessions.map((s) => s.entryCount)).toEqual(expected);
    }
    expect(losers.filter((l) => l.endsWith(RACED)).length).toBeGreaterThanOrEqual(1);
  }, 300_000);
});
