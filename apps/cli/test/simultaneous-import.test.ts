/**
 * Two `bonsai import` of one new file at the same moment, in two real processes on one database:
 * one imports it, the other reports it as already imported; both exit 0, neither prints a SQLite
 * message, and the store holds the session once with every entry of the file (a pi session, and
 * a Claude Code one, which the store reads through its foreign import). And an import that finds
 * another process writing the database for longer than SQLite's 5 s busy timeout (a real write
 * transaction held open by this test's process) says so on one line and waits for it, then imports
 * everything; the writer killed with -9 lets it go on at once (SQLite releases a dead process's
 * lock); Ctrl-C while it waits stops it with nothing stored.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BUSY_TIMEOUT_MS, openStore } from "@bonsai/store";
import Database from "better-sqlite3";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, buildCli, root } from "./built-cli";
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

interface Started {
  child: ChildProcess;
  /** what it printed so far */
  output(): { stdout: string; stderr: string };
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function startImport(files: string[], database: string): Started {
  const child = spawn(process.execPath, [bin, "import", ...files], { cwd: work, env: { ...process.env, BONSAI_DB: database, BONSAI_DEBUG: "", HOME: work }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  return { child, output: () => ({ stdout, stderr }), done: new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr }))) };
}

function importOnce(file: string, database: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return startImport([file], database).done;
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

const WAITING = /^bonsai: waiting for another Bonsai process writing the database to finish \(\S+ next; Ctrl-C stops\)…$/u;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** a row written on the database in a write transaction this process holds open for `holdMs` (another Bonsai process's long import, as SQLite sees it) */
async function holdingWriteLock(database: string, holdMs: number, whileHeld: () => Promise<void>): Promise<void> {
  const db = new Database(database);
  try {
    db.exec("BEGIN IMMEDIATE");
    db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('held-by-test', '1')").run();
    const held = sleep(holdMs);
    await whileHeld();
    await held;
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

/** a new database in `work/<name>` and a generated session file beside it, not imported yet */
function freshCase(name: string, entries: number, seed: number): { database: string; file: string } {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  const database = path.join(dir, "bonsai.db");
  openStore({ path: database }).close();
  const file = path.join(dir, "s.jsonl");
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries, seed, compactionInterval: 0, branchProbability: 0 })));
  return { database, file };
}

/** starts the import of `file` and resolves once it has said it waits */
async function importUntilWaiting(file: string, database: string): Promise<Started> {
  const run = startImport([file], database);
  for (let i = 0; i < 200 && !WAITING.test(run.output().stderr.trim()); i++) await sleep(100);
  expect(run.output().stderr.trim()).toMatch(WAITING);
  return run;
}

describe("an import while another process writes the database for longer than the busy timeout", () => {
  it("says it waits, on one line, then imports the new file and the grown one once the writer is done", async () => {
    const dir = path.join(work, "waiting");
    fs.mkdirSync(dir);
    const database = path.join(dir, "bonsai.db");
    const grown = path.join(dir, "grown.jsonl");
    const fresh = path.join(dir, "fresh.jsonl");
    const first = generateSession({ entries: 400, seed: 31, compactionInterval: 0, branchProbability: 0 });
    fs.writeFileSync(grown, sessionToJsonl(first));
    fs.writeFileSync(fresh, sessionToJsonl(generateSession({ entries: 500, seed: 32, compactionInterval: 0, branchProbability: 0 })));
    expect((await importOnce(grown, database)).code).toBe(0);
    const more = { type: "message", id: "more-1", parentId: first.entries.at(-1)!.id, timestamp: "2027-01-01T00:00:00.000Z", message: { role: "user", content: "appended", timestamp: 1 } };
    fs.appendFileSync(grown, `${JSON.stringify(more)}\n`);

    let run: Started | undefined;
    const holdMs = BUSY_TIMEOUT_MS + 3000;
    await holdingWriteLock(database, holdMs, async () => {
      run = startImport([grown, fresh], database);
      // past the busy timeout the import says it waits (and has written nothing)
      await sleep(BUSY_TIMEOUT_MS + 1500);
      expect(run.child.exitCode).toBeNull();
      expect(run.output().stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(WAITING)]);
      expect(run.output().stdout).toBe("");
    });
    const result = await run!.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(WAITING)]);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/locked|SQLITE/iu);
    expect(result.stdout).toMatch(/^appended {3}.*grown\.jsonl -> .*: 1 new entries$/mu);
    expect(result.stdout).toMatch(/^imported {3}.*fresh\.jsonl -> .*: 500 entries/mu);
    const store = openStore({ path: database });
    try {
      expect(store.listSessions().map((s) => s.entryCount).sort((a, b) => a - b)).toEqual([401, 500]);
    } finally {
      store.close();
    }
  }, 120_000);

  it("the other writer killed with -9 while it waits: the import goes on and stores the file", async () => {
    const { database, file } = freshCase("killed", 250, 34);
    // another process holding a write transaction open, never to finish it
    const holder = spawn(process.execPath, ["-e", `const db = new (require("better-sqlite3"))(${JSON.stringify(database)}); db.exec("BEGIN IMMEDIATE"); db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('held', '1')").run(); console.log("held"); setInterval(() => {}, 1000);`], {
      cwd: path.join(root, "apps/cli"),
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((resolve) => holder.stdout?.once("data", () => resolve()));
      const run = await importUntilWaiting(file, database);
      holder.kill("SIGKILL");
      const result = await run.done;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^imported {3}.*s\.jsonl -> .*: 250 entries/mu);
    } finally {
      holder.kill("SIGKILL");
    }
    const store = openStore({ path: database });
    try {
      expect(store.listSessions().map((s) => s.entryCount)).toEqual([250]);
      // the killed writer's transaction was rolled back
      expect(store.db.prepare("SELECT count(*) FROM settings WHERE key = 'held'").pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  }, 120_000);

  it("Ctrl-C while it waits stops it: interrupted, exit 1, nothing of the file stored", async () => {
    const { database, file } = freshCase("interrupted", 300, 33);
    await holdingWriteLock(database, BUSY_TIMEOUT_MS * 3, async () => {
      const run = await importUntilWaiting(file, database);
      run.child.kill("SIGINT");
      const result = await run.done;
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/\(stopped: interrupted\)\n$/u);
    });
    const store = openStore({ path: database });
    try {
      expect(store.listSessions()).toEqual([]);
    } finally {
      store.close();
    }
  }, 120_000);
});
