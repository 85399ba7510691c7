/**
 * A refused commit writes nothing (issue 31, 5): a compaction planned from a leaf the agent has
 * since moved past is refused as stale before the v2 file is upgraded to v3 and before the
 * `.bonsai-original` backup is taken.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BACKUP_SUFFIX, StaleCommitError } from "../src/index";
import { HEADER, line, newStore, tempDir, userEntry } from "./support";

describe("a refused commit writes nothing", () => {
  it("a stale compaction on a v2 file: no upgrade, no backup, the file byte for byte as it was", async () => {
    const dir = tempDir();
    const file = path.join(dir, "v2.jsonl");
    fs.writeFileSync(file, line({ ...HEADER, version: 2 }) + line(userEntry("a", null, "first")) + line(userEntry("b", "a", "second")));
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    // the agent moves on after the compaction was planned from "b"
    fs.appendFileSync(file, line(userEntry("c", "b", "the agent went on")));
    const before = fs.readFileSync(file);
    const compaction = { type: "compaction", summary: "so far", firstKeptEntryId: "b", tokensBefore: 10 } as const;
    expect(() => store.appendEntry(id, compaction, { expect: { leafId: "b", onPath: ["b"] } })).toThrow(StaleCommitError);
    expect(() => store.appendEntry(id, compaction, { expect: { leafId: "b", onPath: ["b"] } })).toThrow("Nothing was written");
    expect(fs.readFileSync(file).equals(before), "the v2 file is not upgraded").toBe(true);
    expect(fs.existsSync(`${file}${BACKUP_SUFFIX}`), "no backup is taken").toBe(false);
    // a commit planned from the present goes through (and upgrades the file then)
    store.appendEntry(id, compaction, { expect: { leafId: "c", onPath: ["b"] } });
    expect(JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0]!)).toMatchObject({ version: 3 });
  });
});
