/**
 * A full disk at every write path of the store (issue 31, 2): an append (a long entry, a label), a
 * rewrite (pruning, with the first backup copy), an export. The session file lives on a small tmpfs
 * filled to the last byte (the file's last page keeps some room, so the append is a short write
 * and then ENOSPC, at a different point each trial). Every trial: the refusal is the one sentence,
 * the file is byte for byte what it was, no temporary file is left, the agent's next line parses,
 * and the store and the file agree. Needs root (mount); skipped with the reason otherwise.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyPruning, DEFAULT_PRUNE_CONFIG, planPruning } from "@bonsai/core";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/index";
import { HEADER, line, tempDir, toolResultEntry, userEntry } from "../support";
import { bonsaiTemps, expectAgreement, readFile, recordFigures, scenarioTimeout, trials } from "./harness";

const DISK_FULL = "the disk is full; nothing was written";
const mounts: string[] = [];

/** A fresh tmpfs of `size`, or the reason it cannot be mounted here. */
function mountSmallDisk(size: string): string | { skip: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-small-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
  } catch (err) {
    return { skip: `a tmpfs cannot be mounted here (${(err as Error).message.split("\n")[0]}): needs root` };
  }
  mounts.push(dir);
  return dir;
}

function unmount(dir: string): void {
  execFileSync("umount", [dir]);
  fs.rmdirSync(dir);
  mounts.splice(mounts.indexOf(dir), 1);
}

afterAll(() => {
  for (const dir of [...mounts]) unmount(dir);
});

const probe = mountSmallDisk("64k");
const SKIP = typeof probe === "string" ? "" : probe.skip;

/** Fills the disk holding `dir` to the last byte (until ENOSPC). */
function fillDisk(dir: string): void {
  const fd = fs.openSync(path.join(dir, "filler"), "w");
  const chunk = Buffer.alloc(4096, 120);
  try {
    for (let size = 4096; ; size = Math.max(1, size >> 1)) {
      try {
        fs.writeSync(fd, chunk, 0, size);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
        if (size === 1) return;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

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
}

async function prepare(trial: number): Promise<Trial & { sessionId: string }> {
  const disk = mountSmallDisk("256k");
  if (typeof disk !== "string") throw new Error(disk.skip);
  const file = path.join(disk, "s.jsonl");
  writeSession(file, trial);
  const dbDir = tempDir();
  const store = openStore({ path: path.join(dbDir, "bonsai.db") });
  try {
    const sessionId = (await store.importFile(file)).sessionId as string;
    fillDisk(disk);
    return { disk, file, before: fs.readFileSync(file), dbDir, sessionId };
  } finally {
    store.close();
  }
}

/** After the refusal: the file as it was, no temporary file, the agent's next line parses, store and file agree. */
async function expectNothingWritten(t: Trial & { sessionId: string }, trial: number): Promise<void> {
  expect(fs.readFileSync(t.file).equals(t.before), "the session file is byte for byte what it was").toBe(true);
  expect(bonsaiTemps(t.disk)).toEqual([]);
  fs.rmSync(path.join(t.disk, "filler"));
  fs.appendFileSync(t.file, line(userEntry(`agent${trial}`, "t11", "the agent goes on", 99)));
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

type WritePath = (store: ReturnType<typeof openStore>, t: Trial & { sessionId: string }) => unknown;

const PATHS: Record<string, WritePath> = {
  "append (a long entry)": (store, t) => store.appendEntry(t.sessionId, { type: "custom", customType: "note", data: { text: "n".repeat(20_000) } }),
  "append (a label)": (store, t) => store.appendLabel(t.sessionId, "u2", "a label long enough to need a second page ".repeat(120)),
  "rewrite (prune, first backup)": (store, t) => {
    const entries = store.getPath(t.sessionId);
    return store.applyPruning(t.sessionId, applyPruning(entries, planPruning(entries, { ...DEFAULT_PRUNE_CONFIG, protectTokens: 0, minimumSavings: 0 }), 7));
  },
  "export (jsonl next to the session)": (store, t) => store.exportJsonl(t.sessionId, path.join(t.disk, "export.jsonl")),
};

describe.skipIf(SKIP)(`a full disk at every write path ${SKIP}`, () => {
  for (const [name, write] of Object.entries(PATHS)) {
    it(
      `${name}: the one sentence, nothing written, the agent's next line parses`,
      async () => {
        const n = trials(4);
        let refused = 0;
        for (let trial = 0; trial < n; trial++) {
          const t = await prepare(trial);
          const store = openStore({ path: path.join(t.dbDir, "bonsai.db") });
          try {
            await expect(Promise.resolve().then(() => write(store, t))).rejects.toThrow(DISK_FULL);
            refused++;
          } finally {
            store.close();
          }
          expect(fs.existsSync(path.join(t.disk, "export.jsonl"))).toBe(false);
          await expectNothingWritten(t, trial);
          unmount(t.disk);
        }
        recordFigures(`disk full: ${name}`, { trials: n, refusedWithTheSentence: refused, brokenLines: 0 });
      },
      scenarioTimeout(120_000),
    );
  }
});

describe.skipIf(SKIP)(`a full disk under the database ${SKIP}`, () => {
  it(
    "SQLite's 'database or disk is full' is the one sentence, and the transaction is rolled back",
    async () => {
      const n = trials(1); // each trial fills an 8 MiB database: slow
      let refused = 0;
      for (let trial = 0; trial < n; trial++) {
        const disk = mountSmallDisk("8m");
        if (typeof disk !== "string") throw new Error(disk.skip);
        const src = path.join(tempDir(), "s.jsonl");
        writeSession(src, trial);
        const dbPath = path.join(disk, "bonsai.db");
        const store = openStore({ path: dbPath });
        try {
          const before = store.listSessions().length;
          fillDisk(disk);
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
          fs.rmSync(path.join(disk, "filler"));
          // every session the store lists is whole: the failed one left no row behind
          for (const s of store.listSessions().slice(before)) expect(store.loadEntries(s.id)).toHaveLength(24);
        } finally {
          store.close();
        }
        unmount(disk);
      }
      recordFigures("disk full: the database", { trials: n, refusedWithTheSentence: refused });
    },
    scenarioTimeout(120_000),
  );
});
