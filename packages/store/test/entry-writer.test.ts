/**
 * How imports link entries to their parents (import/entry-writer.ts), on random files: duplicate
 * ids, parents that come later, missing parents, self-parents and cycles, imported whole and as a
 * stored part followed by appended lines. The writer skips its whole-run check when nothing in the
 * run needs it; these properties hold either way.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@bonsai/core";
import { EntryWriter, type PendingEntry } from "../src/import/entry-writer";

/** runs of entries longer than the 64 KiB pieces a file is read in, and shorter */
const RUN = 128;
import { HEADER, line, newStore, tempDir, userEntry } from "./support";

interface Spec {
  id: string;
  parent: string | null;
}

/** the seq a parent resolves to: the last entry with that id in `run` (indexes offset by `base`), else in `before` */
function resolve(parent: string | null, self: string, run: readonly Spec[], base: number, before: readonly Spec[]): number | null {
  if (parent === null || parent === self) return null;
  for (let i = run.length - 1; i >= 0; i--) if (run[i]!.id === parent) return base + i;
  for (let i = before.length - 1; i >= 0; i--) if (before[i]!.id === parent) return i;
  return null;
}

/** cycles of the links "last entry with the parent's id (itself included)", counted once each */
function cycleCount(specs: readonly Spec[]): number {
  const link = specs.map((s) => (s.parent === null ? -1 : specs.map((x) => x.id).lastIndexOf(s.parent)));
  const cycles = new Set<number>();
  for (let start = 0; start < specs.length; start++) {
    let i = start;
    for (let step = 0; step < specs.length && i !== -1; step++) i = link[i] as number;
    if (i === -1) continue;
    // i is on a cycle: name it by its smallest member
    let least = i;
    for (let j = link[i] as number; j !== i; j = link[j] as number) least = Math.min(least, j);
    cycles.add(least);
  }
  return cycles.size;
}

const specs = fc.integer({ min: 1, max: 24 }).chain((n) => {
  const id = fc.integer({ min: 0, max: Math.max(1, Math.floor(n * 1.2)) }).map((k) => `e${k}`);
  return fc.array(fc.record({ id, parent: fc.option(id, { nil: null, freq: 4 }) }), { minLength: n, maxLength: n });
});

function fileOf(list: readonly Spec[]): string {
  return list.map((s, i) => line(userEntry(s.id, s.parent, `m${i}`, i))).join("");
}

function storedParents(store: ReturnType<typeof newStore>, sessionId: string): (number | null)[] {
  return (store.db.prepare("SELECT parent_seq FROM entries WHERE session_id = ? ORDER BY seq").pluck().all(sessionId) as (number | null)[]).map((v) => v ?? null);
}

describe("entry writer: parent links", () => {
  it("a whole file: every parent is the last entry with its id; duplicates, missing parents and cycles are reported", async () => {
    await fc.assert(
      fc.asyncProperty(specs, async (list) => {
        const dir = tempDir();
        const file = path.join(dir, "s.jsonl");
        fs.writeFileSync(file, line(HEADER) + fileOf(list));
        const store = newStore(dir);
        const report = await store.importFile(file);
        const sessionId = report.sessionId as string;
        const expected = list.map((s) => resolve(s.parent, s.id, list, 0, []));
        expect(storedParents(store, sessionId)).toEqual(expected);
        const kinds = (kind: string): number => report.issues.filter((i) => i.kind === kind).length;
        const ids = list.map((s) => s.id);
        expect(kinds("duplicate-id")).toBe(list.filter((s, i) => ids.indexOf(s.id) < i).length);
        expect(kinds("missing-parent")).toBe(list.filter((s) => s.parent !== null && s.parent !== s.id && !ids.includes(s.parent)).length);
        expect(kinds("parent-cycle")).toBe(cycleCount(list));
        const irregular = list.some((s, i) => ids.indexOf(s.id) < i) || expected.some((p, i) => p !== null && p >= i);
        expect(store.db.prepare("SELECT irregular FROM sessions WHERE id = ?").pluck().get(sessionId)).toBe(irregular ? 1 : 0);
      }),
      { numRuns: 60 },
    );
  });

  it("appended lines: parents resolve in the appended run first, then among the stored entries", async () => {
    await fc.assert(
      fc.asyncProperty(specs, specs, async (stored, appended) => {
        const dir = tempDir();
        const file = path.join(dir, "s.jsonl");
        fs.writeFileSync(file, line(HEADER) + fileOf(stored));
        const store = newStore(dir);
        const sessionId = (await store.importFile(file)).sessionId as string;
        // ids of two characters are new ones, longer ids may be stored ones (as ids and as parents)
        const rename = (id: string): string => (id.length === 2 ? `a${id}` : id);
        const renamed = appended.map((s) => ({ id: rename(s.id), parent: s.parent === null ? null : rename(s.parent) }));
        fs.appendFileSync(file, fileOf(renamed));
        const report = await store.importFile(file);
        expect(report.status).toBe("appended");
        const expected = [...stored.map((s) => resolve(s.parent, s.id, stored, 0, [])), ...renamed.map((s) => resolve(s.parent, s.id, renamed, stored.length, stored))];
        expect(storedParents(store, sessionId)).toEqual(expected);
        // the issues of the appended lines: ids met before (stored or earlier in the run), parents
        // neither stored nor earlier in the run (itself included), entries that are their own parent
        const storedIds = new Set(stored.map((s) => s.id));
        const seenBy = (i: number): Set<string> => new Set([...storedIds, ...renamed.slice(0, i + 1).map((s) => s.id)]);
        const lineOf = (i: number): number => stored.length + 2 + i;
        const expectedIssues = renamed.flatMap((s, i) => {
          const out: string[] = [];
          if (storedIds.has(s.id) || renamed.slice(0, i).some((e) => e.id === s.id)) out.push(`${lineOf(i)}:duplicate-id`);
          if (s.parent !== null && !seenBy(i).has(s.parent)) out.push(`${lineOf(i)}:missing-parent`);
          else if (s.parent === s.id) out.push(`${lineOf(i)}:parent-cycle`);
          return out;
        });
        expect(report.issues.map((i) => `${i.line}:${i.kind}`)).toEqual(expectedIssues);
      }),
      { numRuns: 40 },
    );
  });
});

describe("entry writer: rows and their JSON", () => {
  /** every row of the store: its session, seq and id, and the id and text its entry_json row holds */
  function rows(store: ReturnType<typeof newStore>): { session_id: string; seq: number; id: string; json_id: string; text: string }[] {
    return store.db
      .prepare(
        `SELECT e.session_id, e.seq, e.id, j.json ->> '$.id' AS json_id, j.json ->> '$.message.content' AS text
         FROM entries e JOIN entry_json j ON j.pk = e.pk ORDER BY e.pk`,
      )
      .all() as { session_id: string; seq: number; id: string; json_id: string; text: string }[];
  }

  const chain = (prefix: string, from: number, count: number, parent: string | null): string[] => {
    const out: string[] = [];
    let previous = parent;
    for (let i = from; i < from + count; i++) {
      const id = `${prefix}${i}`;
      out.push(line(userEntry(id, previous, `${prefix} text ${i}`, i)));
      previous = id;
    }
    return out;
  };

  it("every row keeps its own JSON: whole files, appended runs, a second session after a deleted one", async () => {
    const batch = RUN;
    const dir = tempDir();
    const store = newStore(dir);
    const first = path.join(dir, "a.jsonl");
    fs.writeFileSync(first, line(HEADER) + chain("a", 0, 2 * batch + 3, null).join(""));
    const a = (await store.importFile(first)).sessionId as string;
    // appended: one batch and one row, then fewer than a batch
    fs.appendFileSync(first, chain("a", 2 * batch + 3, batch + 1, `a${2 * batch + 2}`).join(""));
    expect((await store.importFile(first)).status).toBe("appended");
    fs.appendFileSync(first, chain("a", 3 * batch + 4, 5, `a${3 * batch + 3}`).join(""));
    expect((await store.importFile(first)).status).toBe("appended");
    // a session imported and deleted, then another: the new rows are numbered after every stored one
    const gone = path.join(dir, "gone.jsonl");
    fs.writeFileSync(gone, line({ ...HEADER, id: "sess-gone" }) + chain("g", 0, batch, null).join(""));
    const g = (await store.importFile(gone)).sessionId as string;
    store.deleteSession(g);
    const second = path.join(dir, "b.jsonl");
    fs.writeFileSync(second, line({ ...HEADER, id: "sess-second" }) + chain("b", 0, batch, null).join(""));
    const b = (await store.importFile(second)).sessionId as string;

    const all = rows(store);
    const expected = [
      ...Array.from({ length: 3 * batch + 9 }, (_, i) => ({ session_id: a, seq: i, id: `a${i}`, json_id: `a${i}`, text: `a text ${i}` })),
      ...Array.from({ length: batch }, (_, i) => ({ session_id: b, seq: i, id: `b${i}`, json_id: `b${i}`, text: `b text ${i}` })),
    ];
    expect(all).toEqual(expected);
    // the parents resolve across batches too
    expect(storedParents(store, a)).toEqual(Array.from({ length: 3 * batch + 9 }, (_, i) => (i === 0 ? null : i - 1)));
  });
});

describe("entry writer: entry bytes", () => {
  it("an entry's bytes may be a view of a buffer the reader fills again once add() returns", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER));
    const store = newStore(dir);
    const sessionId = (await store.importFile(file)).sessionId as string;
    const shared = Buffer.alloc(1 << 16);
    const piece = (from: number, count: number): PendingEntry[] => {
      const out: PendingEntry[] = [];
      let offset = 0;
      for (let i = from; i < from + count; i++) {
        const entry = userEntry(`e${i}`, i === 0 ? null : `e${i - 1}`, `text ${i}`, i) as unknown as SessionEntry;
        const json = JSON.stringify(entry);
        const length = shared.write(json, offset);
        out.push({ entry, json, bytes: shared.subarray(offset, offset + length), line: i + 2 });
        offset += length;
      }
      return out;
    };
    const sizes = [RUN + 37, 90, 1, RUN];
    store.db.transaction(() => {
      const writer = new EntryWriter(store.db, sessionId, { seq: 0, stored: false, checkTree: true });
      let from = 0;
      for (const n of sizes) {
        writer.add(piece(from, n));
        shared.fill(0x7b); // the reader's next block overwrites the buffer
        from += n;
      }
      writer.finish();
    })();
    const total = sizes.reduce((a, b) => a + b, 0);
    const stored = store.db.prepare("SELECT e.id, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? ORDER BY e.seq").all(sessionId) as { id: string; json: string }[];
    expect(stored.map((r) => r.id)).toEqual(Array.from({ length: total }, (_, i) => `e${i}`));
    expect(stored.map((r) => (JSON.parse(r.json) as { id: string }).id)).toEqual(Array.from({ length: total }, (_, i) => `e${i}`));
  });
});
