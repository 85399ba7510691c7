import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  KNOWN_ENTRY_TYPES,
  buildIndex,
  buildSessionContext,
  getPath,
  parseSessionText,
  type SessionEntry,
} from "@bonsai/core";
import { generateSession, sessionToJsonl, writeSessionJsonl } from "../src/generate-session";

const session = generateSession({ entries: 6000, seed: 42 });

describe("generateSession", () => {
  const dir = mkdtempSync(join(tmpdir(), "bonsai-generate-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is deterministic for a seed and differs across seeds", () => {
    const again = generateSession({ entries: 6000, seed: 42 });
    expect(sessionToJsonl(again)).toBe(sessionToJsonl(session));
    expect(sessionToJsonl(generateSession({ entries: 6000, seed: 43 }))).not.toBe(sessionToJsonl(session));
  });

  it("names the session as asked, and changes nothing else", () => {
    const named = generateSession({ entries: 6000, seed: 42, sessionId: "019ffa2f-5809-74e7-99ce-d479e5403701" });
    expect(named.header.id).toBe("019ffa2f-5809-74e7-99ce-d479e5403701");
    expect(session.header.id).toMatch(/^[0-9a-f]{16}$/);
    expect(named.entries).toEqual(session.entries);
  });

  it("produces exactly the requested number of entries with unique ids", () => {
    expect(session.entries).toHaveLength(6000);
    expect(new Set(session.entries.map((e) => e.id)).size).toBe(6000);
    expect(generateSession({ entries: 0 }).entries).toEqual([]);
    expect(generateSession({ entries: 7, seed: 3 }).entries).toHaveLength(7);
    expect(() => generateSession({ entries: -1 })).toThrow(/non-negative/);
  });

  it("holds every entry type and every persisted message role", () => {
    const types = new Set(session.entries.map((e) => e.type));
    for (const type of KNOWN_ENTRY_TYPES) expect(types, type).toContain(type);
    const roles = new Set(session.entries.flatMap((e) => (e.type === "message" ? [e.message.role] : [])));
    for (const role of ["user", "assistant", "toolResult", "bashExecution", "pythonExecution", "fileMention", "custom"]) {
      expect(roles, role).toContain(role);
    }
  });

  it("forms a tree with branches: parents come earlier, some entry has several children", () => {
    const seen = new Set<string>();
    const childCount = new Map<string, number>();
    for (const entry of session.entries) {
      if (entry.parentId !== null) {
        expect(seen.has(entry.parentId)).toBe(true);
        childCount.set(entry.parentId, (childCount.get(entry.parentId) ?? 0) + 1);
      }
      seen.add(entry.id);
    }
    expect([...childCount.values()].some((n) => n > 1)).toBe(true);
  });

  it("answers every tool call right after it and keeps compactions pointing into their own branch", () => {
    const index = buildIndex(session.entries);
    for (const entry of session.entries) {
      if (entry.type === "compaction") {
        const path = getPath(index, entry.id).map((e) => e.id);
        expect(path).toContain(entry.firstKeptEntryId);
        const kept = index.byId.get(entry.firstKeptEntryId as string) as SessionEntry;
        expect(kept.type === "message" && kept.message.role).toBe("user");
      }
      if (entry.type === "message" && entry.message.role === "toolResult") {
        const parent = index.byId.get(entry.parentId as string) as SessionEntry;
        const isCallOrSibling =
          parent.type === "message" && (parent.message.role === "assistant" || parent.message.role === "toolResult");
        expect(isCallOrSibling).toBe(true);
      }
    }
  });

  it("writes JSONL that parses without issues and builds a context", async () => {
    const file = join(dir, "s.jsonl");
    await writeSessionJsonl(file, session);
    const text = readFileSync(file, "utf8");
    expect(text).toBe(sessionToJsonl(session));
    const parsed = parseSessionText(text);
    expect(parsed.issues).toEqual([]);
    expect(parsed.header?.version).toBe(3);
    expect(parsed.entries).toHaveLength(6000);
    const context = buildSessionContext(parsed.entries);
    expect(context.messages.length).toBeGreaterThan(0);
  });
});
