/** A session's title is the agent's or the user's: never a compaction's or a branch summary's text. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../src/index";
import { newStore, tempDir } from "./support";

const SHORT = "## Goal Mock summary 3 ## Next Steps 1. Continue";
const line = (v: object) => `${JSON.stringify(v)}\n`;
const at = "2026-01-01T00:00:01.000Z";
const msg = (id: string, parentId: string | null, role = "user") => ({
  type: "message",
  id,
  parentId,
  timestamp: at,
  message: { role, content: role === "user" ? `question ${id}` : [{ type: "text", text: `answer ${id}` }], timestamp: 1 },
});
const compaction = (id: string, parentId: string) => ({ type: "compaction", id, parentId, timestamp: at, summary: `${SHORT}\n\nmore`, shortSummary: SHORT, firstKeptEntryId: parentId, tokensBefore: 10 });

function writeSession(dir: string, lines: object[]): string {
  const file = path.join(dir, "s.jsonl");
  fs.writeFileSync(file, [{ type: "session", version: 3, id: "s-title", timestamp: at, cwd: "/tmp/title" }, ...lines].map(line).join(""));
  return file;
}

describe("session titles", () => {
  it("a compaction read from the file does not name the session", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    const { sessionId } = await store.importFile(writeSession(dir, [msg("a", null), msg("b", "a", "assistant"), compaction("c", "b"), msg("d", "c")]));
    expect(store.getSession(sessionId!)?.title).toBeNull();
    expect(store.getSession(sessionId!)?.firstMessage).toBe("question a");
  });

  it("compactions and branch summaries appended later leave the title as it was", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    const { sessionId } = await store.importFile(writeSession(dir, [msg("a", null), msg("b", "a", "assistant")]));
    const id = sessionId!;
    store.appendEntry(id, { type: "compaction", summary: SHORT, shortSummary: SHORT, firstKeptEntryId: "b", tokensBefore: 10 } as never);
    expect(store.getSession(id)?.title).toBeNull();
    store.appendEntry(id, { type: "session_info", name: "Refactor the parser" } as never);
    expect(store.getSession(id)?.title).toBe("Refactor the parser");
    store.appendEntry(id, { type: "compaction", summary: SHORT, shortSummary: SHORT, firstKeptEntryId: "b", tokensBefore: 10 } as never);
    store.appendEntry(id, { type: "branch_summary", summary: SHORT, fromId: "b" } as never);
    expect(store.getSession(id)?.title).toBe("Refactor the parser");
    expect(store.listSessions().find((s) => s.id === id)?.title).toBe("Refactor the parser");
  });

  it("migration 17: a title a past version took from a compaction's short summary is dropped (a session_info name takes its place)", async () => {
    const dir = tempDir();
    const db = path.join(dir, "m.db");
    const store = openStore({ path: db });
    const plain = writeSession(dir, [msg("a", null), msg("b", "a", "assistant"), compaction("c", "b")]);
    const named = path.join(dir, "named.jsonl");
    fs.writeFileSync(named, fs.readFileSync(plain, "utf8").replace('"s-title"', '"s-named"') + line({ type: "session_info", id: "i", parentId: "c", timestamp: at, name: "Mine" }));
    const titled = path.join(dir, "titled.jsonl");
    fs.writeFileSync(titled, fs.readFileSync(plain, "utf8").replace('"s-title"', '"s-titled"').replace('"cwd":"/tmp/title"', `"cwd":"/tmp/title","title":${JSON.stringify(SHORT)}`));
    for (const f of [plain, named, titled]) await store.importFile(f);
    // the database as a past version left it: every one titled by the compaction
    store.db.prepare("UPDATE sessions SET title = ?").run(SHORT);
    store.db.pragma("user_version = 16");
    store.close();
    const again = openStore({ path: db });
    const titles = Object.fromEntries(again.listSessions().map((s) => [s.id, s.title]));
    again.close();
    // the header's title is the agent's (even when it reads like a summary)
    expect(titles).toEqual({ "s-title": null, "s-named": "Mine", "s-titled": SHORT });
  });
});
