/**
 * `bonsai compact` and `bonsai navigate SID TARGET --summarize` (the built bin) on a full disk: the
 * session file lives on a small tmpfs left with a random amount of room, less than the line the
 * command appends. Each run prints the one disk sentence, exits 1, and leaves the file byte for byte
 * as it was; the agent's next line then parses and the store takes it in. Bounded in `pnpm test`,
 * 30 trials each in `pnpm test:faults`. Needs root (mount); skipped with the reason otherwise.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSessionText } from "@bonsai/core";
import { openStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { expectAgreement, readFile, recordFigures, scenarioTimeout, trials } from "../../../packages/store/test/faults/harness";
import { emptyDisk, fillDisk, SMALL_DISK_SKIP as SKIP, smallDisk, unmountSmallDisk } from "../../../packages/store/test/faults/small-disk";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const DISK_FULL = "bonsai: the disk is full; nothing was written";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

let cached: string | undefined;
const text = (): string => (cached ??= sessionToJsonl(generateSession({ entries: 1_000, seed: 3, compactionInterval: 0, branchProbability: 0 })));

function run(dataDir: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [bin, ...args, "--data-dir", dataDir], { encoding: "utf8", env: { ...process.env, BONSAI_DB: "" } });
}

/** the session file in `dir`, imported into a fresh data folder */
function imported(dir: string): { file: string; dataDir: string; id: string } {
  const file = path.join(dir, "s.jsonl");
  fs.writeFileSync(file, text());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-cli-disk-full-"));
  dirs.push(dataDir);
  const r = run(dataDir, ["import", file]);
  expect(r.status, r.stderr).toBe(0);
  const id = /-> (\S+):/u.exec(r.stdout)![1]!;
  return { file, dataDir, id };
}

const COMMANDS: Record<string, (file: string, id: string) => string[]> = {
  "compact --offline": (_file, id) => ["compact", id, "--offline"],
  "navigate TARGET --summarize --offline": (file, id) => ["navigate", id, parseSessionText(fs.readFileSync(file, "utf8")).entries[10]!.id, "--summarize", "--offline"],
};

/** the bytes the command appends when the disk has room (measured once on a plain folder) */
function lineSize(command: (file: string, id: string) => string[]): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-cli-disk-room-"));
  dirs.push(dir);
  const t = imported(dir);
  const before = fs.statSync(t.file).size;
  const r = run(t.dataDir, command(t.file, t.id));
  expect(r.status, r.stderr).toBe(0);
  return fs.statSync(t.file).size - before;
}

describe.skipIf(SKIP)(`bonsai on a full disk ${SKIP}`, () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    it(
      `bonsai ${name}: the disk sentence, exit 1, the file byte for byte as it was`,
      async () => {
        // the file's last page may hold up to 4,095 bytes more than the room left: stay below the line by that
        const room = lineSize(command) - 4_096;
        expect(room, "the appended line is longer than a page").toBeGreaterThan(0);
        const n = trials(2);
        for (let trial = 0; trial < n; trial++) {
          const disk = smallDisk("2m");
          const t = imported(disk);
          const before = fs.readFileSync(t.file);
          fillDisk(disk, Math.floor(Math.random() * room));
          const r = run(t.dataDir, command(t.file, t.id));
          expect(r.stderr.trim().split("\n").at(-1), r.stderr).toBe(DISK_FULL);
          expect(r.stderr).not.toContain("this is a bug");
          expect(r.status).toBe(1);
          expect(fs.readFileSync(t.file).equals(before), "the session file is byte for byte what it was").toBe(true);
          emptyDisk(disk);
          const leaf = readFile(t.file).entries.at(-1)!.id;
          fs.appendFileSync(t.file, `${JSON.stringify({ type: "message", id: `agent${trial}`, parentId: leaf, timestamp: new Date().toISOString(), message: { role: "user", content: "the agent goes on", timestamp: 1 } })}\n`);
          const after = readFile(t.file);
          expect(after.issues, "broken lines in the agent's file").toBe(0);
          expect(after.entries.at(-1)!.id).toBe(`agent${trial}`);
          const store = openStore({ path: path.join(t.dataDir, "bonsai.db") });
          try {
            expect((await store.importFile(t.file)).entriesAdded, "the store reads the agent's line").toBe(1);
            await expectAgreement(store, t.file, t.id);
          } finally {
            store.close();
          }
          unmountSmallDisk(disk);
        }
        recordFigures(`disk full: bonsai ${name}`, { trials: n, exit1WithTheSentence: n, brokenLines: 0, lineBytes: room + 4_096 });
      },
      scenarioTimeout(180_000),
    );
  }
});
