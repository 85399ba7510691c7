import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, type SqliteSessionStore } from "../src/index";
import { HEADER, line, tempDir, userEntry } from "./support";

/** the stores a test opened on one database (two connections, as the follower's worker and a commit have) */
function twoStores(dir: string, onBeforeStore: () => void): { follower: SqliteSessionStore; committer: SqliteSessionStore; close(): void } {
  const dbPath = path.join(dir, "bonsai.db");
  const committer = openStore({ path: dbPath, sessionLockWaitMs: 50 });
  let armed = false;
  const follower = openStore({
    path: dbPath,
    fault: (point) => {
      if (point !== "sync:before-store" || !armed) return;
      armed = false;
      onBeforeStore();
    },
  });
  return {
    follower: Object.assign(follower, { arm: () => (armed = true) }),
    committer,
    close() {
      follower.close();
      committer.close();
    },
  };
}

function storedLines(store: SqliteSessionStore, sessionId: string): number {
  return store.loadEntries(sessionId).length;
}

describe("the follower and a commit on another connection", () => {
  it("store an agent's appended lines once when the commit reads them between the follower's read and its store", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "hello")));
    let sessionId = "";
    let refused: unknown = null;
    const stores = twoStores(dir, () => {
      // the commit lands in the follower's window. The follower holds the session's lock there, so
      // the commit is refused (another writer); were it let through, it would absorb the agent's
      // lines and append a label, and the follower's check would find the file state moved.
      try {
        stores.committer.appendLabel(sessionId, "a", "mark");
      } catch (err) {
        refused = err;
      }
    });
    try {
      sessionId = (await stores.committer.importFile(file)).sessionId!;
      await stores.follower.importFile(file);
      fs.appendFileSync(file, line(userEntry("b", "a", "agent line", 1)) + line(userEntry("c", "b", "another", 2)));
      (stores.follower as unknown as { arm(): void }).arm();
      stores.follower.followFile({ sessionId, file });
      const fileEntries = fs.readFileSync(file, "utf8").trimEnd().split("\n").length - 1;
      if (refused) expect(String(refused)).toMatch(/another Bonsai process is writing this session/);
      expect(fileEntries).toBe(refused ? 3 : 4); // a, b, c (and the label when it was let through)
      expect(storedLines(stores.follower, sessionId)).toBe(fileEntries);
      const ids = stores.follower.loadEntries(sessionId).map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      const exported = path.join(dir, "out.jsonl");
      await stores.follower.exportJsonl(sessionId, exported);
      expect(fs.readFileSync(exported, "utf8").trimEnd().split("\n").length).toBe(fileEntries + 1);
    } finally {
      stores.close();
    }
  });
});

describe("duplicate rows a past version left", () => {
  it("are removed at the next open (the session is read again from its file), so an export writes exactly the file's lines", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "hello")) + line(userEntry("b", "a", "agent line", 1)));
    const dbPath = path.join(dir, "bonsai.db");
    const old = openStore({ path: dbPath });
    const sessionId = (await old.importFile(file)).sessionId!;
    // what the race of a past version stored: the line of "b" a second time, as a new row
    old.db.exec(`
      INSERT INTO entries (session_id, seq, line, id, parent_id, parent_seq, type, timestamp, role, tokens, preview, flags)
        SELECT session_id, seq + 1, line, id, parent_id, parent_seq, type, timestamp, role, tokens, preview, flags FROM entries WHERE id = 'b';
      INSERT INTO entry_json (pk, json) SELECT (SELECT max(pk) FROM entries), json FROM entry_json WHERE pk = (SELECT pk FROM entries WHERE id = 'b' ORDER BY seq LIMIT 1);
      DROP TABLE line_repairs;
      DROP INDEX entries_by_line;
      PRAGMA user_version = 14;
    `);
    expect(old.loadEntries(sessionId)).toHaveLength(3);
    old.close();

    const store = openStore({ path: dbPath });
    try {
      expect(store.loadEntries(sessionId).map((e) => e.id)).toEqual(["a", "b"]);
      expect(store.db.prepare("SELECT count(*) AS n FROM line_repairs").get()).toEqual({ n: 0 });
      const exported = path.join(dir, "out.jsonl");
      await store.exportJsonl(sessionId, exported);
      expect(fs.readFileSync(exported, "utf8")).toBe(fs.readFileSync(file, "utf8"));
    } finally {
      store.close();
    }
  });
});
