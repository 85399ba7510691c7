/**
 * The read commands on a stored session id are answered by the store's reader alone
 * (apps/cli/src/stored-read.ts) when the database needs nothing but reading, and give anything else
 * back to the command's usual path: a database to migrate is opened, migrated and answered there,
 * with the same answer. Mistakes keep the command line's error policy (one line, its exit status).
 * Run on the built CLI, as a user runs it, with real SQLite files.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, buildCli, run as runIn, type Run } from "./built-cli";
import { bonsai } from "./run-cli";

let dir = "";
let db = "";
let id = "";
let target = "";

const run = (database: string, ...args: string[]): Run => runIn(dir, database, ...args);

function userVersion(file: string, set?: number): number {
  const conn = new Database(file);
  try {
    if (set !== undefined) conn.pragma(`user_version = ${set}`);
    return conn.pragma("user_version", { simple: true }) as number;
  } finally {
    conn.close();
  }
}

const COMMANDS = (): string[][] => [
  ["context", id, "--json"],
  ["plan", id, "--json"],
  ["prune", id, "--dry-run", "--json"],
  ["branch", id, "--to", target, "--json"],
  ["branch", id, "--to", target],
];

beforeAll(() => {
  buildCli();
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-stored-read-"));
  db = path.join(dir, "bonsai.db");
  const session = generateSession({ entries: 1500, seed: 13 });
  const file = path.join(dir, "s.jsonl");
  writeFileSync(file, sessionToJsonl(session));
  target = session.entries[500]?.id as string;
  const imported = run(db, "import", file, "--json");
  id = (JSON.parse(imported.stdout) as { reports: { sessionId: string }[] }).reports[0]?.sessionId as string;
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the read commands on a stored session id", () => {
  it("give a database that must be migrated first to the command's usual path, which migrates it and answers the same", () => {
    const answers = COMMANDS().map((args) => run(db, ...args));
    for (const a of answers) expect(a.code, a.stderr).toBe(0);
    const current = userVersion(db);
    for (const [i, args] of COMMANDS().entries()) {
      const older = path.join(dir, `older-${i}.db`);
      copyFileSync(db, older);
      userVersion(older, current - 1);
      const r = run(older, ...args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, args.join(" ")).toBe(answers[i]?.stdout);
      // the usual path opened the whole store, which migrated the file
      expect(userVersion(older)).toBe(current);
    }
  });

  it("report mistakes as the command line does: one line, the same exit status", () => {
    const unknown = run(db, "context", "nosuchsession", "--json");
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toMatch(/^bonsai: nosuchsession: no such file, and [^\n]*\n$/);
    const noDatabase = run(path.join(dir, "missing", "bonsai.db"), "plan", id);
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.stderr).toBe(`bonsai: ${id}: no such file (and no Bonsai database at ${path.join(dir, "missing", "bonsai.db")} to look the id up in)\n`);
    // a usage mistake is reported before any session is opened
    const noTarget = run(path.join(dir, "missing", "bonsai.db"), "branch", id);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toMatch(/^bonsai: missing --to TARGET/);
    const badLeaf = run(db, "context", id, "--leaf", "nosuchentry");
    expect(badLeaf.code).toBe(1);
    expect(badLeaf.stderr).toBe(`bonsai: --leaf nosuchentry: no entry with this id in ${id}\n`);
  });

  it("answer as the command line does for the rest: the same session as a file, help, a mistake in the arguments", () => {
    const file = run(db, "context", "s.jsonl", "--json");
    expect(file.code, file.stderr).toBe(0);
    expect(file.stdout).toBe(run(db, "context", id, "--json").stdout);
    const help = run(db, "context", id, "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: bonsai context /);
    const bogus = run(db, "plan", id, "--bogus");
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toBe("bonsai: unknown option --bogus for bonsai plan (see bonsai plan --help)\n");
  });

  it("end quietly when the reader of their output is gone (a closed pipe), as the command line does", async () => {
    for (const args of [["context", id, "--json"], ["context", "s.jsonl", "--json"]]) {
      const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { ...process.env, BONSAI_DB: db, BONSAI_DEBUG: "", HOME: dir }, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout.destroy();
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(stderr, args.join(" ")).toBe("");
      expect(code, args.join(" ")).toBe(0);
    }
  });

  it("answer the same in process (runCli from the sources) as the built bundle", async () => {
    const previous = process.env.BONSAI_DB;
    process.env.BONSAI_DB = db;
    try {
      for (const args of COMMANDS()) {
        const r = await bonsai(...args);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toBe(run(db, ...args).stdout);
      }
    } finally {
      if (previous === undefined) delete process.env.BONSAI_DB;
      else process.env.BONSAI_DB = previous;
    }
  });
});
