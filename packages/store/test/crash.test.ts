/**
 * A child process is killed (SIGKILL) at random moments during an import and during appends;
 * afterwards the database always opens, passes integrity_check, and holds all or none of each change.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSessionText } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { describe, expect, it } from "vitest";
import { openStore, type SqliteSessionStore } from "../src/index";
import { tempDir } from "./support";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../../..");
const CHILD = path.join(here, "crash-child.ts");
const ROUNDS = 6;

/** Starts the child, waits for "ready", kills it after `delayMs`; resolves with what it printed. */
function runAndKill(args: string[], delayMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("ready") && !child.killed) setTimeout(() => child.kill("SIGKILL"), delayMs);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL" && code !== 0) reject(new Error(`child failed (${code}): ${err}`));
      else resolve(out);
    });
  });
}

function checkIntegrity(store: SqliteSessionStore): void {
  expect(store.db.pragma("integrity_check", { simple: true })).toBe("ok");
  expect(store.db.prepare("INSERT INTO entries_fts(entries_fts, rank) VALUES ('integrity-check', 1)").run()).toBeTruthy();
  // derived counters agree with the rows: they are written in the same transaction
  for (const s of store.listSessions()) {
    const rows = store.db.prepare("SELECT count(*) FROM entries WHERE session_id = ?").pluck().get(s.id);
    expect(s.entryCount).toBe(rows);
  }
}

describe("crash safety", () => {
  it(`killed during an import (${ROUNDS} random moments): the session is there whole or not at all`, async () => {
    const dir = tempDir();
    const file = path.join(dir, "big.jsonl");
    const session = generateSession({ entries: 4_000, seed: 11 });
    fs.writeFileSync(file, sessionToJsonl(session));
    const sourceBefore = fs.readFileSync(file);
    const outcomes = { none: 0, all: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const db = path.join(dir, `import-${round}.db`);
      // spread over the import: early rounds die while parsing, later ones around the commit
      const delay = round * 450 + Math.floor(Math.random() * 600);
      await runAndKill(["import", db, file], delay);
      const store = openStore({ path: db });
      try {
        checkIntegrity(store);
        const sessions = store.listSessions();
        if (sessions.length === 0) {
          outcomes.none++;
          expect(store.db.prepare("SELECT count(*) FROM entries").pluck().get()).toBe(0);
        } else {
          outcomes.all++;
          expect(sessions).toHaveLength(1);
          expect(sessions[0]!.entryCount).toBe(4_000);
          expect(store.db.prepare("SELECT count(*) FROM import_reports").pluck().get()).toBe(1);
        }
        // importing again finishes the job
        const report = await store.importFile(file);
        expect(["imported", "unchanged"]).toContain(report.status);
        expect(store.loadEntries(store.listSessions()[0]!.id)).toEqual(session.entries);
      } finally {
        store.close();
      }
      expect(fs.readFileSync(file).equals(sourceBefore)).toBe(true);
    }
    console.log(`import crash rounds: ${outcomes.none} killed before commit, ${outcomes.all} after`);
  }, 120_000);

  it(`killed while appending (${ROUNDS} random moments): every stored append is whole and in the file`, async () => {
    const dir = tempDir();
    const file = path.join(dir, "live.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 200, seed: 5 })));
    const db = path.join(dir, "append.db");
    const setup = openStore({ path: db });
    const id = (await setup.importFile(file)).sessionId as string;
    setup.close();
    let previous = 200;
    for (let round = 0; round < ROUNDS; round++) {
      await runAndKill(["append", db, id], 150 + Math.floor(Math.random() * 600));
      const store = openStore({ path: db });
      try {
        checkIntegrity(store);
        const parsed = parseSessionText(fs.readFileSync(file, "utf8"));
        expect(parsed.issues).toEqual([]); // no half-written line in the source
        const stored = store.loadEntries(id);
        // the store holds a prefix of the file: the file is written first, the store reads it back
        expect(stored.length).toBeGreaterThanOrEqual(previous);
        expect(stored).toEqual(parsed.entries.slice(0, stored.length));
        expect(parsed.entries.length - stored.length).toBeLessThanOrEqual(1);
        // catching up stores the rest; leaf = the last line again
        await store.importFile(file);
        expect(store.loadEntries(id)).toEqual(parsed.entries);
        expect(store.getLeaf(id)).toBe(parsed.entries[parsed.entries.length - 1]!.id);
        previous = parsed.entries.length;
      } finally {
        store.close();
      }
    }
    expect(previous).toBeGreaterThan(200);
  }, 120_000);
});
