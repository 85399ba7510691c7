/**
 * A crash during the cut-back of a refused append (issue 31): a child process appends a long label
 * to a session file on a full disk; part of the line reaches the file, the journal is told what
 * will be cut, and the child is killed with SIGKILL before the cut. The next open's recovery finishes
 * the cut from the journal — also when that recovery is itself killed before its cut, and the open
 * after it finishes. The file ends at its earlier length, byte for byte, and the agent's next line
 * parses. Real processes, a real tmpfs; needs root (mount), skipped with the reason otherwise.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/index";
import { HEADER, line, tempDir, toolResultEntry, userEntry } from "../support";
import { expectAgreement, readFile, recordFigures, runChild, scenarioTimeout, trials } from "./harness";
import { emptyDisk, fillDisk, SMALL_DISK_SKIP as SKIP, smallDisk, unmountSmallDisk } from "./small-disk";

function writeSession(file: string, trial: number): void {
  let text = line(HEADER);
  let parent: string | null = null;
  for (let i = 0; i < 6; i++) {
    text += line(userEntry(`u${i}`, parent, `step ${i} ${"x".repeat((trial * 397) % 3000)}`, i * 2));
    text += line(toolResultEntry(`t${i}`, `u${i}`, "bash", `output ${i}`, i * 2 + 1));
    parent = `t${i}`;
  }
  fs.writeFileSync(file, text);
}

describe.skipIf(SKIP)(`a crash during the cut-back of a refused append ${SKIP}`, () => {
  for (const killRecovery of [false, true]) {
    it(
      killRecovery ? "killed before the cut, and the recovery killed before its cut: the open after finishes it" : "killed between the noted cut and the cut: the next open finishes it",
      async () => {
        const n = trials(2);
        let partialLines = 0;
        for (let trial = 0; trial < n; trial++) {
          const disk = smallDisk("256k");
          const file = path.join(disk, "s.jsonl");
          writeSession(file, trial);
          const db = path.join(tempDir(), "bonsai.db");
          const store = openStore({ path: db });
          const sessionId = (await store.importFile(file)).sessionId as string;
          store.close();
          const before = fs.readFileSync(file);
          fillDisk(disk, Math.floor(Math.random() * 16_384));

          const append = await runChild(["long-label", db, file, "append:take-back-noted"], null);
          expect(append.killed, `the append reached the cut: ${append.out}`).toBe(true);
          const torn = fs.readFileSync(file);
          expect(torn.length, "part of the line reached the file").toBeGreaterThan(before.length);
          expect(torn.subarray(0, before.length).equals(before)).toBe(true);
          partialLines++;
          emptyDisk(disk);

          if (killRecovery) {
            const recovery = await runChild(["import", db, file, "recovery:take-back"], null);
            expect(recovery.killed, `the recovery reached its cut: ${recovery.out}`).toBe(true);
            expect(fs.statSync(file).size, "nothing cut yet").toBe(torn.length);
          }
          // the next open: recovery cuts the file back to where it ended
          const reopened = openStore({ path: db });
          try {
            expect(fs.readFileSync(file).equals(before), "the file ends at its earlier length, byte for byte").toBe(true);
            fs.appendFileSync(file, line(userEntry(`agent${trial}`, "t5", "the agent goes on", 99)));
            const { entries, issues } = readFile(file);
            expect(issues, "broken lines in the agent's file").toBe(0);
            expect(entries.at(-1)?.id).toBe(`agent${trial}`);
            expect((await reopened.importFile(file)).entriesAdded).toBe(1);
            await expectAgreement(reopened, file, sessionId);
          } finally {
            reopened.close();
          }
          unmountSmallDisk(disk);
        }
        recordFigures(`crash during the cut-back${killRecovery ? " and during its recovery" : ""}`, { trials: n, partialLinesCutBack: partialLines, brokenLines: 0 });
      },
      scenarioTimeout(120_000),
    );
  }
});
