import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { MIGRATIONS, migrate, openStore } from "../src/index";
import { newStore, tempDir } from "./support";

const line = (v: object) => `${JSON.stringify(v)}\n`;
const msg = (id: string, parentId: string | null, role = "user") => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-01-01T00:00:01.000Z",
  message: { role, content: role === "user" ? id : [{ type: "text", text: id }], timestamp: 1 },
});

function sessionFile(dir: string): string {
  // a - b - c (compaction) - d      and a second branch b - x
  const file = path.join(dir, "s.jsonl");
  fs.writeFileSync(
    file,
    [
      line({ type: "session", version: 3, id: "s-meta", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/meta", title: "From the file" }),
      line(msg("a", null)),
      line(msg("b", "a", "assistant")),
      line({ type: "compaction", id: "c", parentId: "b", timestamp: "2026-01-01T00:00:02.000Z", summary: "s", firstKeptEntryId: "b", tokensBefore: 10 }),
      line(msg("d", "c")),
      line(msg("x", "b")),
    ].join(""),
  );
  return file;
}

describe("session titles and counts (migration 008)", () => {
  it("a title set in Bonsai is kept apart from the file's, cleared with null, and removed with the session", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    const file = sessionFile(dir);
    const before = fs.readFileSync(file, "utf8");
    const { sessionId } = await store.importFile(file);
    store.setSessionTitle(sessionId!, "  My name for it  ");
    expect(store.getSessionTitles().get(sessionId!)).toBe("My name for it");
    expect(store.getSession(sessionId!)?.title).toBe("From the file");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    store.setSessionTitle(sessionId!, null);
    expect(store.getSessionTitles().has(sessionId!)).toBe(false);
    store.setSessionTitle(sessionId!, "again");
    store.deleteSession(sessionId!);
    expect(store.getSessionTitles().size).toBe(0);
    expect(fs.existsSync(file)).toBe(true);
    expect(() => store.setSessionTitle("nope", "x")).toThrow();
  });

  it("counts compactions and branch tips", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    const { sessionId } = await store.importFile(sessionFile(dir));
    expect(store.countSessionShape(sessionId!)).toEqual({ compactions: 1, branches: 2 });
  });

  it("a database of schema 3 gains the table and keeps its sessions", async () => {
    const dir = tempDir();
    const file = path.join(dir, "old.db");
    const raw = new Database(file);
    migrate(raw, MIGRATIONS.filter((m) => m.version <= 3));
    expect(raw.pragma("user_version", { simple: true })).toBe(3);
    raw.close();
    const store = openStore({ path: file });
    try {
      const { sessionId } = await store.importFile(sessionFile(dir));
      store.setSessionTitle(sessionId!, "t");
      expect(store.getSessionTitles().get(sessionId!)).toBe("t");
    } finally {
      store.close();
    }
  });
});
