/**
 * One writer per session across processes (src/source/session-lock.ts), with real processes on one
 * data folder: a second writer waits, then refuses with a sentence naming Bonsai and changes
 * nothing; a holder killed with -9 does not wedge the session; first runs racing on a fresh data
 * folder both succeed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, SCHEMA_VERSION, SessionLockedError } from "../src/index";
import { tempDir } from "./support";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../../..");
const CHILD = path.join(here, "lock-child.ts");
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/** Starts the child; resolves once it printed `word` (rejects if it exits first). */
function startChild(args: string[], word: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes(word)) resolve(child);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (!out.includes(word)) reject(new Error(`child exited (${code}) before "${word}": ${err}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

async function importedSession(dir: string): Promise<{ db: string; file: string; sessionId: string }> {
  const db = path.join(dir, "bonsai.db");
  const file = path.join(dir, "s.jsonl");
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 60, seed: 3 })));
  const store = openStore({ path: db, backgroundIndexing: false });
  const report = await store.importFile(file);
  store.close();
  if (!report.sessionId) throw new Error(report.message);
  return { db, file, sessionId: report.sessionId };
}

describe("one writer per session across processes", () => {
  it("a second writer waits, then refuses with a sentence naming Bonsai; nothing is written", async () => {
    const { db, file, sessionId } = await importedSession(tempDir());
    const holder = await startChild(["hold", db, sessionId], "held");
    const store = openStore({ path: db, backgroundIndexing: false, sessionLockWaitMs: 300 });
    try {
      const before = fs.readFileSync(file);
      const leaf = store.getLeaf(sessionId);
      let refused: unknown;
      try {
        store.appendEntry(sessionId, { type: "message", message: { role: "user", content: "hello", timestamp: 1 } });
      } catch (err) {
        refused = err;
      }
      expect(refused).toBeInstanceOf(SessionLockedError);
      expect((refused as Error).message).toBe(`another Bonsai process is writing this session; try again (session ${sessionId})`);
      expect((refused as Error).message).not.toMatch(/agent/);
      expect(() => store.setLeaf(sessionId, null)).toThrow(SessionLockedError);
      expect(fs.readFileSync(file).equals(before)).toBe(true);
      expect(store.getLeaf(sessionId)).toBe(leaf);
      // once the holder is gone (killed -9: it never released), the session is writable again
      holder.kill("SIGKILL");
      await exited(holder);
      const entry = store.appendEntry(sessionId, { type: "message", message: { role: "user", content: "after", timestamp: 2 } });
      expect(fs.readFileSync(file, "utf8")).toContain(entry.id);
      expect(store.db.prepare("SELECT COUNT(*) FROM session_locks").pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });

  it("another session is not held up by a held one", async () => {
    const dir = tempDir();
    const { db, sessionId } = await importedSession(dir);
    const other = path.join(dir, "other.jsonl");
    fs.writeFileSync(other, sessionToJsonl(generateSession({ entries: 20, seed: 4 })));
    const store = openStore({ path: db, backgroundIndexing: false, sessionLockWaitMs: 300 });
    try {
      const otherId = (await store.importFile(other)).sessionId as string;
      await startChild(["hold", db, sessionId], "held");
      const entry = store.appendEntry(otherId, { type: "message", message: { role: "user", content: "free", timestamp: 3 } });
      expect(fs.readFileSync(other, "utf8")).toContain(entry.id);
    } finally {
      store.close();
    }
  });

  it("first runs racing on a fresh data folder both succeed", { timeout: 180_000 }, async () => {
    for (let trial = 0; trial < 4; trial++) {
      const db = path.join(tempDir(), "fresh", "bonsai.db");
      const runs = await Promise.all([startChild(["open", db], "opened"), startChild(["open", db], "opened"), startChild(["open", db], "opened")]);
      await Promise.all(runs.map(exited));
      expect(runs.map((r) => r.exitCode)).toEqual([0, 0, 0]);
      const store = openStore({ path: db, backgroundIndexing: false });
      expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      store.close();
    }
  });
});
