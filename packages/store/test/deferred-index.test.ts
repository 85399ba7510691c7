import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SqliteSessionStore } from "../src/index";
import { DEFER_FROM_FILE_BYTES } from "../src/import/deferred-index";
import { byId, lastFirst } from "../src/id-tiers";
import { HEADER, line, newStore, tempDir, toolResultEntry, userEntry } from "./support";

/** a session file of `entries` entries with ~18 KB tool outputs (2,000 entries: ~18 MB, above the rebuild's 16 MiB) */
function bigSession(dir: string, entries: number, id = HEADER.id): string {
  const file = path.join(dir, `${id}.jsonl`);
  const lines = [line({ ...HEADER, id })];
  let parent: string | null = null;
  for (let i = 0; i < entries; i++) {
    const entryId = `${id}-${i.toString(16)}-${((i * 2654435761) >>> 0).toString(36)}`;
    lines.push(line(i % 2 === 0 ? userEntry(entryId, parent, `question ${i}`, i) : toolResultEntry(entryId, parent, "read", `output ${i} ${"y".repeat(18000)}`, i)));
    parent = entryId;
  }
  fs.writeFileSync(file, lines.join(""));
  return file;
}

const indexRow = (store: SqliteSessionStore): { sql: string; rootpage: number } | undefined =>
  store.db.prepare("SELECT sql, rootpage FROM sqlite_master WHERE type = 'index' AND name = 'entries_by_id_tier'").get() as { sql: string; rootpage: number } | undefined;

const idLookupPlan = (store: SqliteSessionStore): string =>
  (store.db.prepare(`EXPLAIN QUERY PLAN SELECT seq FROM entries WHERE ${byId()} ORDER BY ${lastFirst()} LIMIT 1`).all("s", "x") as { detail: string }[]).map((r) => r.detail).join("; ");

describe("the id index of a big whole-file import", () => {
  it("is built after the rows when they are most of the table: the same index, every id found", async () => {
    const dir = tempDir();
    const file = bigSession(dir, 2000);
    expect(fs.statSync(file).size).toBeGreaterThan(DEFER_FROM_FILE_BYTES);
    const store = newStore(dir);
    const before = indexRow(store);
    const report = await store.importFile(file);
    expect(report.status).toBe("imported");
    expect(report.entriesAdded).toBe(2000);
    const after = indexRow(store);
    expect(after?.sql).toBe(before?.sql);
    expect(after?.rootpage).not.toBe(before?.rootpage); // dropped and built again
    expect(idLookupPlan(store)).toContain("entries_by_id_tier");
    expect(store.db.pragma("integrity_check", { simple: true })).toBe("ok");
    const id = report.sessionId as string;
    const ids = store.db.prepare("SELECT id FROM entries WHERE session_id = ? ORDER BY seq").pluck().all(id) as string[];
    for (const entryId of ids) expect(store.hasEntry(id, entryId)).toBe(true);
    expect(store.getEntryInfo(id, ids[1234] as string)).toMatchObject({ seq: 1234 });
  });

  it("is kept row by row when the store holds more rows than the file brings", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    // a store of many small sessions: more rows than a guess of the big file's entries (18 MB / 2 KB / 2)
    for (let s = 0; s < 5; s++) {
      const id = `small-${s}`;
      const lines = [line({ ...HEADER, id })];
      for (let i = 0; i < 1000; i++) lines.push(line(userEntry(`${id}-${i}`, i === 0 ? null : `${id}-${i - 1}`, `q ${i}`, i)));
      const f = path.join(dir, `${id}.jsonl`);
      fs.writeFileSync(f, lines.join(""));
      expect((await store.importFile(f)).status).toBe("imported");
    }
    const before = indexRow(store);
    const report = await store.importFile(bigSession(dir, 2000, "big"));
    expect(report.status).toBe("imported");
    expect(indexRow(store)).toEqual(before);
    expect(store.hasEntry(report.sessionId as string, "big-7cf-" + ((0x7cf * 2654435761) >>> 0).toString(36))).toBe(true);
  });

  it("is left as it was when the import stops halfway (one transaction)", async () => {
    const dir = tempDir();
    const file = bigSession(dir, 2000);
    const store = newStore(dir);
    const before = indexRow(store);
    const controller = new AbortController();
    await expect(
      store.importFile(file, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.bytesDone > 0) controller.abort();
        },
      }),
    ).rejects.toThrow();
    expect(indexRow(store)).toEqual(before);
    expect(store.listSessions()).toEqual([]);
    expect(store.db.prepare("SELECT count(*) FROM entries").pluck().get()).toBe(0);
  });
});
