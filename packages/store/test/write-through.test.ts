import fs from "node:fs";
import path from "node:path";
import { applyPruning, parseSessionText, planPruning, type SessionEntry } from "@bonsai/core";
import { describe, expect, it, vi } from "vitest";
import { BACKUP_SUFFIX, openStore, type StoreEvents } from "../src/index";
import { BEFORE_COMPACTION, HAVE_FIXTURES, HEADER, copyInto, line, newStore, sha256File, tempDir, toolResultEntry, userEntry } from "./support";

function bigOutput(n: number, seed: string): string {
  return `${seed} `.repeat(Math.ceil(n / (seed.length + 1))).slice(0, n);
}

/** a v3 session with large tool outputs: pruning has something to do */
function writePrunable(file: string): void {
  let text = line(HEADER);
  let parent: string | null = null;
  for (let i = 0; i < 12; i++) {
    const u = `u${i}`;
    const t = `t${i}`;
    text += line(userEntry(u, parent, `step ${i}`, i * 2));
    text += line(toolResultEntry(t, u, i % 4 === 0 ? "read" : "bash", bigOutput(60_000, `output${i}`), i * 2 + 1));
    parent = t;
  }
  fs.writeFileSync(file, text);
}

describe("appends", () => {
  it("a store-only session gets omp-style ids, parent = leaf, and the leaf moves", () => {
    const store = newStore();
    const s = store.createSession({ cwd: "/p", title: "scratch" });
    const events: StoreEvents["entries-added"][] = [];
    store.on("entries-added", (e) => events.push(e));
    const a = store.appendEntry(s.id, { type: "message", message: { role: "user", content: "hi", timestamp: 1 } });
    const b = store.appendEntry(s.id, { type: "thinking_level_change", thinkingLevel: "high" });
    expect(a.id).toMatch(/^[0-9a-f]{8}$/);
    expect(a.parentId).toBeNull();
    expect(b.parentId).toBe(a.id);
    expect(Object.keys(b).slice(0, 4)).toEqual(["type", "id", "parentId", "timestamp"]);
    expect(Number.isNaN(Date.parse(b.timestamp))).toBe(false);
    expect(store.getLeaf(s.id)).toBe(b.id);
    const c = store.appendEntry(s.id, { type: "custom", customType: "x", data: { k: 1 } }, { parentId: a.id });
    expect(Object.keys(c)).toEqual(["type", "customType", "data", "id", "parentId", "timestamp"]);
    expect(c.parentId).toBe(a.id);
    expect(store.getLeaf(s.id)).toBe(c.id);
    expect(events.map((e) => e.entries[0]!.id)).toEqual([a.id, b.id, c.id]);
    const label = store.appendLabel(s.id, a.id, "start");
    expect(label).toMatchObject({ type: "label", targetId: a.id, label: "start", parentId: c.id });
    expect(store.getSkeleton(s.id).nodes.find((n) => n.id === a.id)!.label).toBe("start");
    store.appendLabel(s.id, a.id, undefined);
    expect(store.getSkeleton(s.id).nodes.find((n) => n.id === a.id)!.label).toBeUndefined();
    expect(() => store.appendEntry(s.id, { type: "label" }, { parentId: "nope" })).toThrow("Entry nope not found");
    expect(() => store.setLeaf(s.id, "nope")).toThrow("Entry nope not found");
    store.setLeaf(s.id, null);
    expect(store.appendEntry(s.id, { type: "mode_change", mode: "plan" }).parentId).toBeNull();
  });

  it("appends to a v3 source file line by line, and a re-import is then a no-op", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "hello")));
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    const before = fs.readFileSync(file, "utf8");
    const e = store.appendEntry(id, { type: "branch_summary", fromId: "a", summary: "abandoned work" });
    const after = fs.readFileSync(file, "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toBe(line(e));
    expect(store.getEntryInfo(id, e.id)).toMatchObject({ line: 3, seq: 1 });
    expect((await store.importFile(file)).status).toBe("unchanged");
    // an agent appends too; our next append catches up first and keeps file order
    fs.appendFileSync(file, line(userEntry("agent1", e.id, "from the agent", 5)));
    const f = store.appendEntry(id, { type: "thinking_level_change", thinkingLevel: "low" });
    expect(f.parentId).toBe("agent1");
    expect(store.loadEntries(id).map((x) => x.id)).toEqual(["a", e.id, "agent1", f.id]);
    expect(parseSessionText(fs.readFileSync(file, "utf8")).entries.map((x) => x.id)).toEqual(["a", e.id, "agent1", f.id]);
  });

  it("a file without a final newline gets one before the appended line", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + JSON.stringify(userEntry("a", null, "no newline")));
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    expect(store.loadEntries(id)).toHaveLength(1);
    const e = store.appendEntry(id, { type: "thinking_level_change", thinkingLevel: "off" });
    const parsed = parseSessionText(fs.readFileSync(file, "utf8"));
    expect(parsed.issues).toEqual([]);
    expect(parsed.entries.map((x) => x.id)).toEqual(["a", e.id]);
  });

  it.skipIf(!HAVE_FIXTURES)("a v1 source is first rewritten in v3 form (atomically, with the stored ids), then appended to", async () => {
    const dir = tempDir();
    const file = copyInto(dir, BEFORE_COMPACTION);
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    const stored = store.loadEntries(id);
    expect(sha256File(file)).toBe(sha256File(BEFORE_COMPACTION)); // import never writes
    const e = store.appendEntry(id, { type: "message", message: { role: "user", content: "continue", timestamp: Date.now() } });
    const parsed = parseSessionText(fs.readFileSync(file, "utf8"));
    expect(parsed.header!.version).toBe(3);
    expect(parsed.issues).toEqual([]);
    expect(parsed.entries).toEqual([...stored, e]);
    expect(store.getSession(id)!.sourceVersion).toBe(3);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // the legacy original is kept next to it, once
    expect(sha256File(`${file}${BACKUP_SUFFIX}`)).toBe(sha256File(BEFORE_COMPACTION));
    store.appendEntry(id, { type: "thinking_level_change", thinkingLevel: "low" });
    expect(sha256File(`${file}${BACKUP_SUFFIX}`)).toBe(sha256File(BEFORE_COMPACTION));
    expect((await store.importFile(file)).status).toBe("unchanged");
  });
});

/** a prunable session imported from its own file in a temp dir */
async function importedPrunable(): Promise<{ dir: string; file: string; store: ReturnType<typeof newStore>; id: string }> {
  const dir = tempDir();
  const file = path.join(dir, "p.jsonl");
  writePrunable(file);
  const store = newStore(dir);
  const id = (await store.importFile(file)).sessionId as string;
  return { dir, file, store, id };
}

describe("pruning and restore", () => {
  it("replaces tool outputs in the store and the file, keeps the originals, and restores them", async () => {
    const dir = tempDir();
    const file = path.join(dir, "p.jsonl");
    writePrunable(file);
    const original = fs.readFileSync(file, "utf8");
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    const pathEntries = store.getPath(id);
    const plan = planPruning(pathEntries);
    expect(plan.prunedCount).toBeGreaterThan(0);
    const results = applyPruning(pathEntries, plan, 1_750_000_000_000);
    expect(store.applyPruning(id, results)).toBe(plan.prunedCount);

    // store: pruned form, originals kept
    const prunedIds = results.map((r) => r.entryId);
    for (const r of results) expect((store.getEntry(id, r.entryId) as SessionEntry & { message: unknown }).message).toEqual(r.message);
    expect(store.listPruned(id).map((p) => p.entryId).sort()).toEqual([...prunedIds].sort());
    const kept = store.listPruned(id)[0]!;
    expect(kept.original).toEqual(pathEntries.find((e) => e.id === kept.entryId));
    expect(store.getSkeleton(id).nodes.filter((n) => n.pruned).map((n) => n.id)).toEqual(prunedIds);
    expect(store.getSession(id)!.prunedCount).toBe(prunedIds.length);
    // protected tools are untouched
    expect(results.every((r) => r.message.toolName !== "read")).toBe(true);

    // file: rewritten with the pruned form, exactly what pi would write
    const onDisk = parseSessionText(fs.readFileSync(file, "utf8"));
    expect(onDisk.entries).toEqual(store.loadEntries(id));
    expect(fs.readFileSync(file, "utf8")).toBe(store.renderJsonl(id));
    const prunedEntry = onDisk.entries.find((e) => e.id === prunedIds[0]) as SessionEntry & { message: { content: unknown; prunedAt: number } };
    expect(prunedEntry.message.prunedAt).toBe(1_750_000_000_000);
    expect(prunedEntry.message.content).toEqual([{ type: "text", text: expect.stringMatching(/^\[Output truncated - \d+ tokens\]$/) }]);
    expect((await store.importFile(file)).status).toBe("unchanged");
    // search no longer finds the pruned text, but still the kept one
    expect(store.search("output1").length).toBe(0);
    expect(store.search("output11").length).toBe(1);

    // restore one, then all: back to the original bytes
    expect(store.restorePruned(id, [prunedIds[0]!])).toBe(1);
    expect(store.listPruned(id)).toHaveLength(prunedIds.length - 1);
    expect(store.restorePruned(id)).toBe(prunedIds.length - 1);
    expect(fs.readFileSync(file, "utf8")).toBe(original);
    expect(store.listPruned(id)).toEqual([]);
    expect(store.restorePruned(id)).toBe(0);
  });

  it("pruning keeps what the agent appended since the last read", async () => {
    const { file, store, id } = await importedPrunable();
    const p = store.getPath(id);
    const results = applyPruning(p, planPruning(p), 7);
    fs.appendFileSync(file, line(userEntry("late", "t11", "appended by the agent meanwhile", 99)));
    store.applyPruning(id, results);
    const onDisk = parseSessionText(fs.readFileSync(file, "utf8")).entries;
    expect(onDisk[onDisk.length - 1]!.id).toBe("late");
    expect(onDisk).toEqual(store.loadEntries(id));
  });

  it("pruned originals survive a whole re-import while the entry is still pruned", async () => {
    const { file, store, id } = await importedPrunable();
    const p = store.getPath(id);
    const results = applyPruning(p, planPruning(p), 1);
    store.applyPruning(id, results);
    // the agent rewrites the file (as omp does on a rename): same entries, new header title
    const text = fs.readFileSync(file, "utf8").replace('"cwd":"/tmp/project"', '"cwd":"/tmp/project","title":"renamed"');
    fs.writeFileSync(file, text);
    const report = await store.importFile(file);
    expect(report.status).toBe("reimported");
    expect(store.getSession(id)!.title).toBe("renamed");
    expect(store.listPruned(id)).toHaveLength(results.length);
    expect(store.restorePruned(id)).toBe(results.length);
    expect(parseSessionText(fs.readFileSync(file, "utf8")).entries).toEqual(p);
  });

  it("a store-only session prunes and restores without any file", () => {
    const store = newStore();
    const s = store.createSession();
    const u = store.appendEntry(s.id, { type: "message", message: { role: "user", content: "x", timestamp: 1 } });
    const t = store.appendEntry(s.id, {
      type: "message",
      message: { role: "toolResult", toolCallId: "c", toolName: "bash", content: [{ type: "text", text: "long" }], isError: false, timestamp: 2 },
    });
    const pruned = { role: "toolResult" as const, toolCallId: "c", toolName: "bash", content: [{ type: "text" as const, text: "[Output truncated - 1 tokens]" }], isError: false, timestamp: 2, prunedAt: 5 };
    expect(store.applyPruning(s.id, [{ entryId: t.id, message: pruned }])).toBe(1);
    expect(() => store.applyPruning(s.id, [{ entryId: "missing", message: pruned }])).toThrow(/cannot prune missing/);
    expect(store.listPruned(s.id)).toHaveLength(1); // the failed call changed nothing
    expect(store.restorePruned(s.id)).toBe(1);
    expect(store.getEntry(s.id, t.id)).toEqual(t);
    expect(u.parentId).toBeNull();
  });

  it("when the file cannot be replaced, the rewrite fails with a clear error and the store is left unchanged", async () => {
    const { file, store, id } = await importedPrunable();
    const before = fs.readFileSync(file, "utf8");
    // the disk refuses the rename (injected: root ignores read-only folders)
    const refuse = vi.spyOn(fs, "renameSync").mockImplementationOnce(() => {
      throw Object.assign(new Error("EROFS: read-only file system, rename"), { code: "EROFS" });
    });
    try {
      const p = store.getPath(id);
      expect(() => store.applyPruning(id, applyPruning(p, planPruning(p), 1))).toThrow(/could not write .*read-only file system.*store was left unchanged/);
    } finally {
      refuse.mockRestore();
    }
    expect(store.listPruned(id)).toEqual([]);
    expect(store.getSkeleton(id).nodes.some((n) => n.pruned)).toBe(false);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("skeleton", () => {
  it("stays current across appends, leaf moves, pruning and writes by another connection", async () => {
    const { file, store, id } = await importedPrunable();
    const first = store.getSkeleton(id);
    expect(first.nodes).toHaveLength(24);
    first.nodes.pop(); // callers get their own array
    expect(store.getSkeleton(id).nodes).toHaveLength(24);
    const e = store.appendEntry(id, { type: "thinking_level_change", thinkingLevel: "high" });
    expect(store.getSkeleton(id).nodes.map((n) => n.id).slice(-1)).toEqual([e.id]);
    store.setLeaf(id, "u3");
    expect(store.getSkeleton(id).leafId).toBe("u3");
    const p = store.getPath(id, "t11");
    store.applyPruning(id, applyPruning(p, planPruning(p), 3));
    expect(store.getSkeleton(id).nodes.some((n) => n.pruned)).toBe(true);
    // another process (the CLI, a worker) writes to the same database file
    const other = openStore({ path: store.db.name });
    try {
      fs.appendFileSync(file, line(userEntry("from-other", e.id, "hi", 50)));
      await other.importFile(file);
    } finally {
      other.close();
    }
    expect(store.getSkeleton(id).nodes.map((n) => n.id)).toContain("from-other");
  });
});
