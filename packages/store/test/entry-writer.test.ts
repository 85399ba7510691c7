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
        expect((await store.importFile(file)).status).toBe("appended");
        const expected = [...stored.map((s) => resolve(s.parent, s.id, stored, 0, [])), ...renamed.map((s) => resolve(s.parent, s.id, renamed, stored.length, stored))];
        expect(storedParents(store, sessionId)).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});
