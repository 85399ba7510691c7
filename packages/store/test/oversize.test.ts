/**
 * A file over the size limit is refused from its size, before a byte of it is read (issue 31, 5):
 * a 2 GiB sparse file (a header, then zeros) is refused with one sentence and nothing stored.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SESSION_FILE_BYTES } from "../src/source/blocks";
import { HEADER, line, newStore, tempDir, userEntry } from "./support";

describe("files over the size limit", () => {
  it("a 2 GiB sparse file is refused from its size with one sentence; the store keeps nothing of it", async () => {
    const dir = tempDir();
    const file = path.join(dir, "huge.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "hello")));
    fs.truncateSync(file, 2 * 1024 ** 3);
    const store = newStore(dir);
    const before = process.memoryUsage().rss;
    const report = await store.importFile(file);
    expect(report.status).toBe("failed");
    expect(report.message).toBe(`${file} is too large for Bonsai: 2.0 GiB (it reads session files of up to 512 MiB)`);
    // bounded by the limit, not the file: nothing near the file's size was allocated
    expect(process.memoryUsage().rss - before).toBeLessThan(MAX_SESSION_FILE_BYTES);
    expect(store.listSessions()).toEqual([]);
  });

  it("a file at the limit's side of it is read as usual", async () => {
    const dir = tempDir();
    const file = path.join(dir, "small.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "hello")));
    const report = await newStore(dir).importFile(file);
    expect(report.status).toBe("imported");
  });
});
