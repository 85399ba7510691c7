/**
 * The benchmark's session of real pi entries (bench/real-pi-session.ts): as many entries as asked,
 * a single tree with one root whose last line is the leaf of a path through every copy, fresh
 * distinct ids with every reference following them, and each entry's content as recorded.
 */
import { buildIndex, getPath, parseSessionText } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { REAL_PI_DIR, realPiEntries, realPiSession } from "../bench/real-pi-session";

const sources = realPiEntries();

describe.skipIf(sources === undefined)(`the real pi session of the benchmark (skipped: ${REAL_PI_DIR} is absent)`, () => {
  const all = (sources ?? []).flat();
  const size = all.length * 2 + 17; // two whole rounds of the six files and a cut copy
  const text = realPiSession(size, "019ffa2f-0000-7000-8000-000000000001") as string;
  const parsed = parseSessionText(text);

  it("parses without issues into a pi v3 session of exactly the asked number of entries", () => {
    expect(parsed.issues).toEqual([]);
    expect(parsed.header?.id).toBe("019ffa2f-0000-7000-8000-000000000001");
    expect(parsed.entries).toHaveLength(size);
  });

  it("has fresh, distinct 8-hex ids, one root, and every reference names an entry of the session", () => {
    const ids = parsed.entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(size);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    const originals = new Set(all.map((e) => e.id));
    expect(ids.filter((id) => originals.has(id))).toEqual([]);
    expect(parsed.entries.filter((e) => e.parentId === null)).toHaveLength(1);
    const known = new Set(ids);
    for (const e of parsed.entries as unknown as Record<string, unknown>[])
      for (const key of ["parentId", "firstKeptEntryId", "fromId", "targetId"]) if (typeof e[key] === "string") expect(known.has(e[key])).toBe(true);
  });

  it("chains the copies: the last line's path runs from the root through every copy", () => {
    const last = parsed.entries[parsed.entries.length - 1];
    const onPath = getPath(buildIndex(parsed.entries), last?.id as string);
    expect(onPath[0]?.parentId).toBeNull();
    // all but the abandoned branch of the recorded session with one (15 entries each time it is copied whole)
    expect(onPath.length).toBeGreaterThan(size - 3 * 15 - 1);
  });

  it("keeps each entry's content as recorded, in the files' order", () => {
    const strip = (e: Record<string, unknown>): Record<string, unknown> => {
      const { id: _id, parentId: _parent, firstKeptEntryId: _kept, fromId: _from, targetId: _target, ...rest } = e;
      return rest;
    };
    const got = parsed.entries as unknown as Record<string, unknown>[];
    for (let i = 0; i < size; i++) expect(strip(got[i] as Record<string, unknown>)).toEqual(strip(all[i % all.length] as Record<string, unknown>));
  });
});
