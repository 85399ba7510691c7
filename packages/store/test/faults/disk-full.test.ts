/**
 * A full disk at every write path of the store (issue 31, 2): an append (a long entry, a label), a
 * rewrite (pruning with the first backup copy, pruning again, restoring), an export, Continue in pi's
 * new file. The session file lives on a small tmpfs filled to a random level each trial (from the
 * last byte up to just under what the write needs), so the write fails at a different point each
 * time: a short write then ENOSPC, or the backup, or the rewrite after the backup. Every trial: the
 * refusal is the one sentence, the file is byte for byte what it was, no temporary file is left, a
 * backup left behind is whole, the agent's next line parses, and the store and the file agree.
 * Needs root (mount); skipped with the reason otherwise.
 */
import fs from "node:fs";
import path from "node:path";
import { applyPruning, DEFAULT_PRUNE_CONFIG, planPruning } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { openStore, type SqliteSessionStore } from "../../src/index";
import { backupPathOf } from "../../src/source/backup";
import { HEADER, line, tempDir, toolResultEntry, userEntry } from "../support";
import { bonsaiTemps, expectAgreement, readFile, recordFigures, scenarioTimeout, trials } from "./harness";
import { emptyDisk, fillDisk, SMALL_DISK_SKIP as SKIP, smallDisk, unmountSmallDisk } from "./small-disk";

const DISK_FULL = "the disk is full; nothing was written";

/** a session whose size (and so the room left in its last page) depends on the trial */
function writeSession(file: string, trial: number): void {
  let text = line(HEADER);
  let parent: string | null = null;
  for (let i = 0; i < 12; i++) {
    text += line(userEntry(`u${i}`, parent, `step ${i} ${"x".repeat((trial * 397) % 900)}`, i * 2));
    text += line(toolResultEntry(`t${i}`, `u${i}`, "bash", `output ${i} ${"o".repeat(8000 + trial * 131)}`, i * 2 + 1));
    parent = `t${i}`;
  }
  fs.writeFileSync(file, text);
}

interface Trial {
  disk: string;
  file: string;
  before: Buffer;
  dbDir: string;
  sessionId: string;
}

function prune(store: SqliteSessionStore, sessionId: string, leafId?: string): number {
  const entries = store.getPath(sessionId, leafId);
  return store.applyPruning(sessionId, applyPruning(entries, planPruning(entries, { ...DEFAULT_PRUNE_CONFIG, protectTokens: 0, minimumSavings: 0 }), 7));
}

/** One write path: what it does before the disk fills (not refused), the write refused, and the most room it may find. */
interface WritePath {
  setUp?: (store: SqliteSessionStore, t: Trial) => unknown;
  write: (store: SqliteSessionStore, t: Trial) => unknown;
  /** the most bytes left free (a random level from 0 to this, rounded to pages by tmpfs) */
  maxFree: (t: Trial) => number;
}

const PATHS: Record<string, WritePath> = {
  "append (a long entry)": {
    write: (store, t) => store.appendEntry(t.sessionId, { type: "custom", customType: "note", data: { text: "n".repeat(40_000) } }),
    maxFree: () => 32_768,
  },
  "append (a label)": {
    write: (store, t) => store.appendLabel(t.sessionId, "u2", "a label long enough to need a second page ".repeat(200)),
    maxFree: () => 4_096,
  },
  "rewrite (prune, with the first backup copy)": {
    write: (store, t) => prune(store, t.sessionId),
    // the backup copy needs the file's size, the pruned file far less: both fail below a page
    maxFree: () => 4_096,
  },
  "rewrite (prune again, the backup taken)": {
    setUp: (store, t) => prune(store, t.sessionId, "t5"),
    write: (store, t) => prune(store, t.sessionId),
    maxFree: () => 4_096,
  },
  "rewrite (restore)": {
    setUp: (store, t) => prune(store, t.sessionId),
    write: (store, t) => store.restorePruned(t.sessionId),
    maxFree: (t) => t.before.length - 4_096,
  },
  "export (jsonl next to the session)": {
    write: (store, t) => store.exportJsonl(t.sessionId, path.join(t.disk, "export.jsonl")),
    maxFree: (t) => t.before.length - 8_192,
  },
  "Continue in pi (the new pi session file)": {
    write: (store, t) => store.continueInPi(t.sessionId, { env: { PI_CODING_AGENT_SESSION_DIR: path.join(t.disk, "pi") }, home: t.disk }),
    maxFree: (t) => t.before.length - 8_192,
  },
};

async function prepare(trial: number, p: WritePath): Promise<Trial & { free: number }> {
  const disk = smallDisk("512k");
  const file = path.join(disk, "s.jsonl");
  writeSession(file, trial);
  const dbDir = tempDir();
  const store = openStore({ path: path.join(dbDir, "bonsai.db") });
  try {
    const sessionId = (await store.importFile(file)).sessionId as string;
    const t = { disk, file, before: Buffer.alloc(0), dbDir, sessionId };
    await p.setUp?.(store, t);
    t.before = fs.readFileSync(file);
    const free = Math.floor(Math.random() * Math.max(0, p.maxFree(t)));
    fillDisk(disk, free);
    return { ...t, free };
  } finally {
    store.close();
  }
}

/** After the refusal: the file as it was, nothing else written, the agent's next line parses, store and file agree. */
async function expectNothingWritten(t: Trial, trial: number): Promise<void> {
  expect(fs.readFileSync(t.file).equals(t.before), "the session file is byte for byte what it was").toBe(true);
  expect(bonsaiTemps(t.disk)).toEqual([]);
  expect(fs.existsSync(path.join(t.disk, "export.jsonl")), "no export file").toBe(false);
  const piDir = path.join(t.disk, "pi");
  expect(fs.existsSync(piDir) ? fs.readdirSync(piDir) : [], "no pi copy").toEqual([]);
  const backup = backupPathOf(t.file);
  if (fs.existsSync(backup)) expect(fs.statSync(backup).size, "a backup left behind is whole").toBeGreaterThan(0);
  emptyDisk(t.disk);
  const leaf = readFile(t.file).entries.at(-1)!.id;
  fs.appendFileSync(t.file, line(userEntry(`agent${trial}`, leaf, "the agent goes on", 99)));
  const { entries, issues } = readFile(t.file);
  expect(issues, "broken lines in the agent's file").toBe(0);
  expect(entries.at(-1)?.id).toBe(`agent${trial}`);
  const store = openStore({ path: path.join(t.dbDir, "bonsai.db") });
  try {
    expect((await store.importFile(t.file)).entriesAdded, "the store reads the agent's line").toBe(1);
    await expectAgreement(store, t.file, t.sessionId);
  } finally {
    store.close();
  }
}

describe.skipIf(SKIP)(`a full disk at every write path ${SKIP}`, () => {
  for (const [name, p] of Object.entries(PATHS)) {
    it(
      `${name}: the one sentence, nothing written, the agent's next line parses`,
      async () => {
        const n = trials(3);
        let refused = 0;
        let maxFree = 0;
        for (let trial = 0; trial < n; trial++) {
          const t = await prepare(trial, p);
          maxFree = Math.max(maxFree, t.free);
          const store = openStore({ path: path.join(t.dbDir, "bonsai.db") });
          try {
            await expect(Promise.resolve().then(() => p.write(store, t)), `trial ${trial}, ${t.free} bytes left free`).rejects.toThrow(DISK_FULL);
            refused++;
          } finally {
            store.close();
          }
          await expectNothingWritten(t, trial);
          unmountSmallDisk(t.disk);
        }
        recordFigures(`disk full: ${name}`, { trials: n, refusedWithTheSentence: refused, brokenLines: 0, mostBytesLeftFree: maxFree });
      },
      scenarioTimeout(120_000),
    );
  }
});

describe.skipIf(SKIP)(`a full disk under the database ${SKIP}`, () => {
  it(
    "SQLite's 'database or disk is full' is the one sentence, and the transaction is rolled back",
    async () => {
      const n = trials(1, 30);
      let refused = 0;
      for (let trial = 0; trial < n; trial++) {
        const disk = smallDisk("4m");
        const src = path.join(tempDir(), "s.jsonl");
        writeSession(src, trial);
        const dbPath = path.join(disk, "bonsai.db");
        const store = openStore({ path: dbPath });
        try {
          const before = store.listSessions().length;
          // a random level: the database fills after a different number of imports each trial
          fillDisk(disk, Math.floor(Math.random() * 400_000));
          // sessions go on being imported until the database cannot grow
          let message = "";
          for (let i = 0; i < 400 && message === ""; i++) {
            const copy = path.join(path.dirname(src), `s${i}.jsonl`);
            fs.writeFileSync(copy, fs.readFileSync(src, "utf8").replace(HEADER.id, `${HEADER.id}-${i}`));
            const report = await store.importFile(copy);
            if (report.status === "failed") message = report.message;
          }
          expect(message).toMatch(new RegExp(`was not imported: ${DISK_FULL}$`, "u"));
          refused++;
          emptyDisk(disk);
          // every session the store lists is whole: the failed one left no row behind
          for (const s of store.listSessions().slice(before)) expect(store.loadEntries(s.id)).toHaveLength(24);
        } finally {
          store.close();
        }
        unmountSmallDisk(disk);
      }
      recordFigures("disk full: the database", { trials: n, refusedWithTheSentence: refused });
    },
    scenarioTimeout(120_000),
  );
});
