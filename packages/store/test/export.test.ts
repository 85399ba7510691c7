import fs from "node:fs";
import path from "node:path";
import { buildSessionContext, parseSessionText, type SessionEntry } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { describe, expect, it } from "vitest";
import { BEFORE_COMPACTION, HAVE_FIXTURES, LARGE_SESSION, REAL_PI_FILES, newStore, tempDir } from "./support";

/** import -> export -> import into a second store: the same entries, field for field. */
async function roundTrip(file: string): Promise<{ exported: string; first: SessionEntry[]; second: SessionEntry[] }> {
  const dir = tempDir();
  const a = newStore(dir, "a.db");
  const id = (await a.importFile(file)).sessionId as string;
  const exported = path.join(dir, "exported.jsonl");
  await a.exportJsonl(id, exported);
  const b = newStore(dir, "b.db");
  const report = await b.importFile(exported);
  expect(report.status).toBe("imported");
  expect(report.issues).toEqual([]);
  expect(b.getHeader(report.sessionId as string)).toEqual(a.getHeader(id));
  return { exported, first: a.loadEntries(id), second: b.loadEntries(report.sessionId as string) };
}

describe.skipIf(!HAVE_FIXTURES)("round trip of the legacy fixtures", () => {
  it.each([
    ["before-compaction.jsonl", BEFORE_COMPACTION],
    ["large-session.jsonl", LARGE_SESSION],
  ])("%s: exported in v3 with the stored ids, re-imported field for field", async (_n, file) => {
    const { exported, first, second } = await roundTrip(file);
    expect(second).toEqual(first);
    const parsed = parseSessionText(fs.readFileSync(exported, "utf8"));
    expect(parsed.header?.version).toBe(3);
    expect(parsed.issues).toEqual([]);
    // same context from either side
    expect(buildSessionContext(second).messages).toEqual(buildSessionContext(first).messages);
  });
});

describe.skipIf(REAL_PI_FILES.length === 0)("round trip of the real pi sessions", () => {
  it.each(REAL_PI_FILES.map((f) => [path.basename(f), f]))("%s: the export is byte-identical to the source", async (_n, file) => {
    const { exported, first, second } = await roundTrip(file);
    expect(second).toEqual(first);
    expect(fs.readFileSync(exported).equals(fs.readFileSync(file))).toBe(true);
  });
});

describe("round trip of generated sessions", () => {
  it("every entry type survives export and import", async () => {
    const session = generateSession({ entries: 3000, seed: 7, compactionInterval: 600 });
    const types = new Set(session.entries.map((e) => e.type));
    for (const t of ["message", "compaction", "branch_summary", "label", "custom", "custom_message", "model_change", "thinking_level_change"]) {
      expect(types.has(t as SessionEntry["type"]), `generator produced ${t}`).toBe(true);
    }
    const dir = tempDir();
    const file = path.join(dir, "generated.jsonl");
    fs.writeFileSync(file, sessionToJsonl(session));
    const { first, second } = await roundTrip(file);
    expect(first).toEqual(session.entries);
    expect(second).toEqual(session.entries);
  });
});

describe("markdown export", () => {
  it.skipIf(!HAVE_FIXTURES)("writes the active path with headings", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    const id = (await store.importFile(BEFORE_COMPACTION)).sessionId as string;
    const out = path.join(dir, "s.md");
    const md = await store.exportMarkdown(id, out);
    expect(fs.readFileSync(out, "utf8")).toBe(md);
    expect(md.startsWith("# ")).toBe(true);
    expect(md).toContain("## User");
    expect(md).toContain("## Compaction summary");
    expect(md).toContain("### Tool result: `bash`");
  });
});

describe("context entries", () => {
  it("getContextEntries gives the same context as the whole session, for every leaf kind", async () => {
    const session = generateSession({ entries: 4000, seed: 3, compactionInterval: 500 });
    const dir = tempDir();
    const file = path.join(dir, "g.jsonl");
    fs.writeFileSync(file, sessionToJsonl(session));
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    const all = store.loadEntries(id);
    // the stored path shortcuts are in use (a regular session) and agree with the whole path
    expect(store.db.prepare("SELECT irregular FROM sessions WHERE id = ?").pluck().get(id)).toBe(0);
    const leaves = [store.getLeaf(id) as string, ...all.filter((_, i) => i % 211 === 0).map((e) => e.id)];
    for (const e of all) if (e.type === "compaction" || e.type === "branch_summary") leaves.push(e.id);
    // after a compaction only the kept part (plus settings entries) is loaded
    expect(store.getContextEntries(id).length).toBeLessThan(store.getPath(id).length / 2);
    for (const leaf of leaves) {
      const expected = buildSessionContext(all, leaf);
      const fast = store.getContextEntries(id, leaf);
      const got = buildSessionContext(fast);
      expect(got.messages).toEqual(expected.messages);
      expect(got.entryIds).toEqual(expected.entryIds);
      expect(JSON.stringify(got.models)).toBe(JSON.stringify(expected.models)); // key order too
      expect(got.thinkingLevel).toBe(expected.thinkingLevel);
      expect(got.injectedTtsrRules).toEqual(expected.injectedTtsrRules);
      expect(got.mode).toBe(expected.mode);
      expect(store.getPath(id, leaf).map((e) => e.id)).toEqual(pathIds(all, leaf));
    }
  });
});

function pathIds(entries: readonly SessionEntry[], leaf: string): string[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: string[] = [];
  const seen = new Set<string>();
  for (let e = byId.get(leaf); e && !seen.has(e.id); e = e.parentId ? byId.get(e.parentId) : undefined) {
    seen.add(e.id);
    out.push(e.id);
  }
  return out.reverse();
}
