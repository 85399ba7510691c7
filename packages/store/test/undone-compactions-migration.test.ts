/**
 * Migration 020 on a real SQLite file: a store written by an earlier version counted a compaction
 * that Bonsai's Undo had undone (its "bonsai-undo" entry, the same entry written now); opened now,
 * the count leaves it out, and a redo entry counts it again.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SCHEMA_VERSION, openStore } from "../src/index";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const t = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();

function sessionFile(dir: string, name: string, redo: boolean): string {
  const lines: object[] = [
    { type: "session", version: 3, id: name, timestamp: t(0), cwd: "/work" },
    { type: "message", id: "u1", parentId: null, timestamp: t(1), message: { role: "user", content: "fix the parser", timestamp: 1 } },
    { type: "compaction", id: "c1", parentId: "u1", timestamp: t(2), summary: "s", firstKeptEntryId: "u1", tokensBefore: 100 },
    { type: "custom", id: "m1", parentId: "u1", timestamp: t(3), customType: "bonsai-undo", data: { undid: "compaction", entryId: "c1" } },
    ...(redo ? [{ type: "custom", id: "m2", parentId: "c1", timestamp: t(4), customType: "bonsai-redo", data: { redid: "compaction", entryId: "c1" } }] : []),
  ];
  const file = path.join(dir, `${name}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

describe("migration 020: undone compactions are not counted", () => {
  it("recounts a store whose count still held an undone compaction", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-m020-"));
    dirs.push(dir);
    const dbPath = path.join(dir, "bonsai.db");
    let store = openStore({ path: dbPath });
    const undone = (await store.importFile(sessionFile(dir, "undone", false))).sessionId as string;
    const redone = (await store.importFile(sessionFile(dir, "redone", true))).sessionId as string;
    // what this version counts on import
    expect(store.getSession(undone)?.compactionCount).toBe(0);
    expect(store.getSession(redone)?.compactionCount).toBe(1);
    // as an earlier version left it: every compaction entry counted, schema 19
    store.db.prepare("UPDATE session_agents SET compactions = 1").run();
    store.db.pragma("user_version = 19");
    store.close();

    store = openStore({ path: dbPath });
    try {
      expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      expect(store.getSession(undone)?.compactionCount).toBe(0);
      expect(store.getSession(redone)?.compactionCount).toBe(1);
      expect(store.countSessionShape(undone).compactions).toBe(0);
      expect(store.countSessionShape(redone).compactions).toBe(1);
    } finally {
      store.close();
    }
  });
});
