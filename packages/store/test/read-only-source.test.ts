import fs from "node:fs";
import path from "node:path";
import { applyPruning, planPruning } from "@bonsai/core";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, writeThroughFromEnv, type SqliteSessionStore, type StoreEvents } from "../src/index";
import { HEADER, line, newStore, tempDir, toolResultEntry, userEntry } from "./support";

// We run as root in CI and here: access(W_OK) would say yes to these files, the mode bits do not.

const restoreModes: { target: string; mode: number }[] = [];
afterEach(() => {
  for (const { target, mode } of restoreModes.splice(0).reverse()) fs.chmodSync(target, mode);
});
function chmod(target: string, mode: number): void {
  restoreModes.push({ target, mode: fs.statSync(target).mode & 0o7777 });
  fs.chmodSync(target, mode);
}

/** a v3 session with large tool outputs (pruning has something to do) */
function v3Text(): string {
  let text = line(HEADER);
  let parent: string | null = null;
  for (let i = 0; i < 8; i++) {
    text += line(userEntry(`u${i}`, parent, `step ${i}`, i * 2));
    text += line(toolResultEntry(`t${i}`, `u${i}`, "bash", `output${i} `.repeat(8_000), i * 2 + 1));
    parent = `t${i}`;
  }
  return text;
}

/** a v1 session (no ids): a write-through would first rewrite it in v3 form */
function v1Text(): string {
  let text = line({ type: "session", id: "sess-v1-ro", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/tmp/p" });
  for (let i = 0; i < 4; i++) {
    text += line({ type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: `q${i}`, timestamp: 1 } });
    text += line({
      type: "message",
      timestamp: "2025-01-01T00:00:02.000Z",
      message: { role: "toolResult", toolCallId: `c${i}`, toolName: "bash", content: [{ type: "text", text: `out${i} `.repeat(8_000) }], isError: false, timestamp: 2 },
    });
  }
  return text;
}

interface DiskState {
  bytes: Buffer;
  mtimeMs: number;
  listing: string[];
}
function diskState(file: string): DiskState {
  return { bytes: fs.readFileSync(file), mtimeMs: fs.statSync(file).mtimeMs, listing: fs.readdirSync(path.dirname(file)).sort() };
}
function expectUntouched(file: string, before: DiskState): void {
  const after = diskState(file);
  expect(after.bytes.equals(before.bytes)).toBe(true);
  expect(after.mtimeMs).toBe(before.mtimeMs);
  // no backup (<name>.jsonl.bonsai-original), no temp file of an atomic rewrite
  expect(after.listing).toEqual(before.listing);
}

/** a source file in a fresh temp dir, with the file (or the folder) made read-only */
function readOnlySource(name: string, text: string, readOnly: "file" | "folder"): { file: string; before: DiskState } {
  const dir = tempDir();
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  if (readOnly === "file") chmod(file, 0o444);
  else chmod(dir, 0o555);
  return { file, before: diskState(file) };
}

/** append, label, prune, restore, prune again: every kind of write-through */
async function writeEverything(store: SqliteSessionStore, file: string): Promise<{ id: string; events: StoreEvents["session-updated"][] }> {
  const id = (await store.importFile(file)).sessionId as string;
  const events: StoreEvents["session-updated"][] = [];
  store.on("session-updated", (e) => events.push(e));
  const entryCount = store.getSession(id)!.entryCount;
  const appended = store.appendEntry(id, { type: "message", message: { role: "user", content: "kept in the store", timestamp: 9 } });
  const label = store.appendLabel(id, appended.id, "mine");
  const pathEntries = store.getPath(id);
  const plan = planPruning(pathEntries, { protectTokens: 1_000, minimumSavings: 0, protectedTools: [] });
  expect(plan.prunedCount).toBeGreaterThan(0);
  expect(store.applyPruning(id, applyPruning(pathEntries, plan, 1_750_000_000_000))).toBe(plan.prunedCount);
  expect(store.restorePruned(id)).toBe(plan.prunedCount);
  expect(store.applyPruning(id, applyPruning(store.getPath(id), plan, 1_750_000_000_001))).toBe(plan.prunedCount);
  // the changes are in the store
  expect(store.getSession(id)!.entryCount).toBe(entryCount + 2);
  expect(store.getLeaf(id)).toBe(label.id);
  expect(store.getSkeleton(id).nodes.find((n) => n.id === appended.id)!.label).toBe("mine");
  expect(store.getSession(id)!.prunedCount).toBe(plan.prunedCount);
  expect(store.renderJsonl(id)).toContain("kept in the store");
  return { id, events };
}

describe("a read-only source is never written", () => {
  it("file mode 0444: appends, labels and pruning stay in the store; the session says it is detached", async () => {
    const { file, before } = readOnlySource("ro.jsonl", v3Text(), "file");
    const store = newStore(tempDir());
    const { id, events } = await writeEverything(store, file);
    expectUntouched(file, before);
    const summary = store.getSession(id)!;
    expect(summary.detached).toMatch(/source file is read-only; export/);
    expect(store.listSessions().find((s) => s.id === id)!.detached).toBe(summary.detached);
    expect(events[0]).toEqual({ sessionId: id, reason: "detached" });
    // a re-import or a follow does not take the file's older state back
    const report = await store.importFile(file);
    expect(report.status).toBe("unchanged");
    expect(report.message).toContain("detached");
    expect(store.getSession(id)!.entryCount).toBe(summary.entryCount);
    // export still writes the whole session elsewhere
    const out = path.join(tempDir(), "exported.jsonl");
    await store.exportJsonl(id, out);
    expect(fs.readFileSync(out, "utf8")).toContain("kept in the store");
  });

  it("folder mode 0555: a v1 source is neither upgraded nor backed up, and nothing is appended", async () => {
    const { file, before } = readOnlySource("legacy.jsonl", v1Text(), "folder");
    const store = newStore(tempDir());
    const { id } = await writeEverything(store, file);
    expectUntouched(file, before);
    expect(store.getSession(id)!.detached).toMatch(/folder of the source file is read-only/);
    expect(store.getSession(id)!.sourceVersion).toBe(1);
  });

  it("the detached state survives reopening the database", async () => {
    const { file, before } = readOnlySource("ro.jsonl", v3Text(), "file");
    const dbDir = tempDir();
    const store = newStore(dbDir);
    const id = (await store.importFile(file)).sessionId as string;
    store.appendEntry(id, { type: "mode_change", mode: "plan" });
    store.close();
    chmod(file, 0o644); // writable again: the session stays detached (the store holds changes the file lacks)
    const again = openStore({ path: path.join(dbDir, "bonsai.db") });
    try {
      expect(again.getSession(id)!.detached).toMatch(/read-only/);
      again.appendEntry(id, { type: "mode_change", mode: "default" });
      expect(fs.readFileSync(file).equals(before.bytes)).toBe(true);
      expect(again.getSession(id)!.entryCount).toBe(18);
    } finally {
      again.close();
    }
  });
});

describe("write-through turned off", () => {
  it("writeThrough: false keeps a writable source untouched", async () => {
    const dir = tempDir();
    const file = path.join(dir, "w.jsonl");
    fs.writeFileSync(file, v3Text());
    const before = diskState(file);
    const store = openStore({ path: path.join(tempDir(), "bonsai.db"), writeThrough: false });
    try {
      const { id } = await writeEverything(store, file);
      expectUntouched(file, before);
      expect(store.getSession(id)!.detached).toMatch(/write-through is turned off/);
    } finally {
      store.close();
    }
  });

  it("BONSAI_NO_WRITE_THROUGH=1 turns it off; a writable source is written through by default", async () => {
    expect(writeThroughFromEnv({ BONSAI_NO_WRITE_THROUGH: "1" })).toBe(false);
    expect(writeThroughFromEnv({ BONSAI_NO_WRITE_THROUGH: "true" })).toBe(false);
    expect(writeThroughFromEnv({ BONSAI_NO_WRITE_THROUGH: "0" })).toBe(true);
    expect(writeThroughFromEnv({})).toBe(true);
    const dir = tempDir();
    const file = path.join(dir, "w.jsonl");
    fs.writeFileSync(file, v3Text());
    const store = newStore(tempDir());
    const id = (await store.importFile(file)).sessionId as string;
    store.appendEntry(id, { type: "mode_change", mode: "plan" });
    expect(store.getSession(id)!.detached).toBeNull();
    expect(fs.readFileSync(file, "utf8")).toContain('"mode":"plan"');
  });
});
