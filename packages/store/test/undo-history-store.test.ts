/**
 * Migration 021 and the store's undo history on a real SQLite file: a database of schema 20 gains
 * the table; a history is saved and read back typed; a row that is not a history reads as none; it
 * goes with the session, and with its entries when the file is read again whole.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EMPTY_UNDO_HISTORY, type UndoHistory } from "@bonsai/core";
import { openStore } from "../src/index";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function sessionText(id: string, ids: string[]): string {
  const header = { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" };
  const entries = ids.map((e, i) => ({ type: "message", id: e, parentId: i === 0 ? null : ids[i - 1], timestamp: `2026-01-01T00:00:0${i}.000Z`, message: { role: "user", content: `line ${i}`, timestamp: i } }));
  return `${[header, ...entries].map((x) => JSON.stringify(x)).join("\n")}\n`;
}

const history: UndoHistory = {
  done: [{ kind: "label", entryId: "c", before: "b", after: "c", label: { targetId: "a", previous: "old", next: "new" } }],
  undone: [{ record: { kind: "prune", entryId: null, before: "c", after: "c", prunedEntryIds: ["b"] }, at: "c" }],
};

describe("the store's undo history (migration 021)", () => {
  it("a schema-20 database gains it; saved, read back, removed with the session or a whole re-read", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-m021-"));
    dirs.push(dir);
    const dbPath = path.join(dir, "bonsai.db");
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionText("s1", ["a", "b", "c"]));
    let store = openStore({ path: dbPath, writeThrough: false });
    const sessionId = (await store.importFile(file)).sessionId!;
    // as schema 20 left it: no table
    store.db.exec("DROP TABLE undo_history");
    store.db.pragma("user_version = 20");
    store.close();

    store = openStore({ path: dbPath, writeThrough: false });
    try {
      expect(store.getUndoHistory(sessionId)).toEqual(EMPTY_UNDO_HISTORY);
      store.saveUndoHistory(sessionId, history);
      expect(JSON.parse(store.db.prepare("SELECT history_json FROM undo_history WHERE session_id = ?").pluck().get(sessionId) as string)).toEqual(history);
      expect(store.getUndoHistory(sessionId)).toEqual(history);
      // a row that is not a history (damaged, or another build's): none, so nothing wrong is undone
      store.db.prepare("UPDATE undo_history SET history_json = ? WHERE session_id = ?").run('{"done":[{"kind":"label"}],"undone":[]}', sessionId);
      expect(store.getUndoHistory(sessionId)).toEqual(EMPTY_UNDO_HISTORY);
      store.db.prepare("UPDATE undo_history SET history_json = ? WHERE session_id = ?").run("not json", sessionId);
      expect(store.getUndoHistory(sessionId)).toEqual(EMPTY_UNDO_HISTORY);
      // an empty history keeps no row
      store.saveUndoHistory(sessionId, EMPTY_UNDO_HISTORY);
      expect(store.db.prepare("SELECT count(*) FROM undo_history").pluck().get()).toBe(0);

      // appended lines keep it; a file rewritten (read again whole) drops it
      store.saveUndoHistory(sessionId, history);
      fs.appendFileSync(file, `${JSON.stringify({ type: "message", id: "d", parentId: "c", timestamp: "2026-01-01T00:00:09.000Z", message: { role: "user", content: "more", timestamp: 9 } })}\n`);
      await store.importFile(file);
      expect(store.getUndoHistory(sessionId)).toEqual(history);
      fs.writeFileSync(file, sessionText("s1", ["x", "y"]));
      await store.importFile(file);
      expect(store.getSession(sessionId)?.entryCount).toBe(2);
      expect(store.getUndoHistory(sessionId)).toEqual(EMPTY_UNDO_HISTORY);

      store.saveUndoHistory(sessionId, history);
      store.deleteSession(sessionId);
      expect(store.db.prepare("SELECT count(*) FROM undo_history").pluck().get()).toBe(0);
      expect(() => store.saveUndoHistory(sessionId, history)).toThrow();
    } finally {
      store.close();
    }
  });
});
