import { describe, expect, it } from "vitest";
import {
  buildIndex,
  buildSessionContext,
  migrateSession,
  parseSessionText,
  seededRandomSource,
  serializeSession,
  type CompactionEntry,
  type MessageEntry,
  type SessionHeader,
} from "../src/index";
import { jsonl } from "./builders";

const HEADER_LINE = `{"type":"session","id":"abc","timestamp":"2025-01-01T00:00:00Z","cwd":"/p"}`;
const MESSAGE_LINE = `{"type":"message","id":"m1","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"hi","timestamp":1}}`;

function parsed(text: string): { header: SessionHeader; entries: ReturnType<typeof parseSessionText>["entries"] } {
  const p = parseSessionText(text);
  if (!p.header) throw new Error(`not a session: ${JSON.stringify(p.issues)}`);
  return { header: p.header, entries: p.entries };
}

describe("A. parsing and migration", () => {
  it("case 1: lenient JSONL skips a corrupt line and reports its line number", () => {
    const p = parseSessionText(`${HEADER_LINE}\nnot valid json\n${MESSAGE_LINE}\n`);
    expect(p.header?.id).toBe("abc");
    expect(p.entries).toHaveLength(1);
    expect(p.entries[0]?.id).toBe("m1");
    expect(p.issues).toHaveLength(1);
    expect(p.issues[0]).toMatchObject({ line: 2, kind: "invalid-json" });
  });

  it("case 1: blank lines, CRLF and a truncated last line", () => {
    const p = parseSessionText(`${HEADER_LINE}\r\n\n   \n${MESSAGE_LINE}\r\n{"type":"message","id":"m2"`);
    expect(p.entries.map((e) => e.id)).toEqual(["m1"]);
    expect(p.issues).toEqual([expect.objectContaining({ line: 5, kind: "truncated-line" })]);
  });

  it("case 1: non-object lines and a second header are reported and skipped", () => {
    const p = parseSessionText(`${HEADER_LINE}\n42\n[1]\n${HEADER_LINE}\n${MESSAGE_LINE}\n`);
    expect(p.entries).toHaveLength(1);
    expect(p.issues.map((i) => [i.line, i.kind])).toEqual([
      [2, "not-an-object"],
      [3, "not-an-object"],
      [4, "extra-header"],
    ]);
  });

  it("case 2: header validation (entry first, not json, empty, numeric id)", () => {
    const a = parseSessionText(`{"type":"message","id":"1"}\n`);
    expect(a.header).toBeNull();
    expect(a.entries).toEqual([]);
    expect(a.issues[0]).toMatchObject({ line: 1, kind: "missing-header" });

    const b = parseSessionText("not json\n");
    expect(b.header).toBeNull();
    expect(b.entries).toEqual([]);
    expect(b.issues.map((i) => i.kind)).toEqual(["invalid-json", "empty"]);

    const c = parseSessionText("");
    expect(c.header).toBeNull();
    expect(c.issues).toEqual([expect.objectContaining({ line: 0, kind: "empty" })]);

    const e = parseSessionText(`{"type":"session","id":5,"timestamp":"t","cwd":"/"}\n${MESSAGE_LINE}\n`);
    expect(e.header).toBeNull();
    expect(e.entries).toEqual([]);
    expect(e.issues[0]).toMatchObject({ line: 1, kind: "invalid-header" });
  });

  it("case 2: a malformed first line makes a session-like file not a session", () => {
    const p = parseSessionText(`{"type":"session",\n${MESSAGE_LINE}\n`);
    expect(p.header).toBeNull();
    expect(p.entries).toEqual([]);
    expect(p.issues.map((i) => [i.line, i.kind])).toEqual([
      [1, "invalid-json"],
      [2, "missing-header"],
    ]);
  });

  it("case 3: v1 -> v3 basic", () => {
    const { header, entries } = parsed(
      jsonl([
        { type: "session", id: "s", timestamp: "2025-01-01T00:00:00Z", cwd: "/" },
        { type: "message", timestamp: "2025-01-01T00:00:01Z", message: { role: "user", content: "hi", timestamp: 1 } },
        { type: "message", timestamp: "2025-01-01T00:00:02Z", message: { role: "assistant", content: [{ type: "text", text: "hello" }], timestamp: 2 } },
      ]),
    );
    const result = migrateSession(header, entries);
    expect(result).toEqual({ migrated: true, fromVersion: 1, toVersion: 3 });
    expect(header.version).toBe(3);
    expect(Object.keys(header).slice(0, 2)).toEqual(["type", "version"]);
    const [e1, e2] = entries;
    expect(e1?.id).toMatch(/^[0-9a-f]{8}$/);
    expect(e1?.parentId).toBeNull();
    expect(e2?.id).toMatch(/^[0-9a-f]{8}$/);
    expect(e2?.parentId).toBe(e1?.id);
    expect(e2?.id).not.toBe(e1?.id);
    expect(Object.keys(e1 as object).slice(0, 3)).toEqual(["type", "id", "parentId"]);
  });

  it("case 3: migration ids come from the injected random source", () => {
    const make = () =>
      parsed(jsonl([{ type: "session", id: "s", timestamp: "t", cwd: "/" }, { type: "message", timestamp: "t", message: { role: "user", content: "a", timestamp: 1 } }]));
    const one = make();
    const two = make();
    migrateSession(one.header, one.entries, seededRandomSource(7));
    migrateSession(two.header, two.entries, seededRandomSource(7));
    expect(one.entries[0]?.id).toBe(two.entries[0]?.id);
  });

  it("case 4: already-tree files keep ids and parents", () => {
    const { header, entries } = parsed(
      jsonl([
        { type: "session", version: 2, id: "s", timestamp: "t", cwd: "/" },
        { type: "message", id: "abc12345", parentId: null, timestamp: "t", message: { role: "user", content: "a", timestamp: 1 } },
        { type: "message", id: "def67890", parentId: "abc12345", timestamp: "t", message: { role: "user", content: "b", timestamp: 1 } },
      ]),
    );
    expect(migrateSession(header, entries)).toEqual({ migrated: true, fromVersion: 2, toVersion: 3 });
    expect(header.version).toBe(3);
    expect(entries.map((e) => [e.id, e.parentId])).toEqual([
      ["abc12345", null],
      ["def67890", "abc12345"],
    ]);
  });

  const v1Values = (firstKeptEntryIndex: number) => [
    { type: "session", id: "s", timestamp: "2025-01-01T00:00:00Z", cwd: "/" },
    { type: "message", timestamp: "2025-01-01T00:00:01Z", message: { role: "user", content: "a", timestamp: 1 } },
    { type: "message", timestamp: "2025-01-01T00:00:02Z", message: { role: "assistant", content: [{ type: "text", text: "b" }], provider: "p", model: "m", usage: {}, stopReason: "stop", timestamp: 2 } },
    { type: "message", timestamp: "2025-01-01T00:00:03Z", message: { role: "user", content: "c", timestamp: 3 } },
    { type: "compaction", timestamp: "2025-01-01T00:00:04Z", summary: "S", firstKeptEntryIndex, tokensBefore: 5 },
  ];

  it("case 5: v1 compaction index becomes firstKeptEntryId", () => {
    const { header, entries } = parsed(jsonl(v1Values(3)));
    migrateSession(header, entries);
    const c = entries[3] as CompactionEntry;
    expect(c.firstKeptEntryId).toBe(entries[2]?.id);
    expect("firstKeptEntryIndex" in c).toBe(false);
    expect(c.parentId).toBe(entries[2]?.id);
  });

  it.each([0, 9])("case 6: v1 compaction index %i (header / out of range) leaves no firstKeptEntryId", (index) => {
    const { header, entries } = parsed(jsonl([...v1Values(index), { type: "message", timestamp: "2025-01-01T00:00:05Z", message: { role: "user", content: "after", timestamp: 5 } }]));
    migrateSession(header, entries);
    const c = entries[3] as CompactionEntry;
    expect("firstKeptEntryIndex" in c).toBe(false);
    expect("firstKeptEntryId" in c).toBe(false);
    const ctx = buildSessionContext(entries);
    expect(ctx.messages.map((m) => m.role)).toEqual(["compactionSummary", "user"]);
  });

  it("case 6: a forward v1 index (entry not yet migrated) leaves no firstKeptEntryId", () => {
    const values = v1Values(3);
    const compaction = values.pop() as Record<string, unknown>;
    compaction.firstKeptEntryIndex = 4;
    const { header, entries } = parsed(jsonl([values[0], values[1], compaction, values[2], values[3]]));
    migrateSession(header, entries);
    expect("firstKeptEntryId" in (entries[1] as object)).toBe(false);
  });

  it("case 7: hookMessage renamed in v2, untouched in v3, version 9 untouched", () => {
    const hook = { type: "message", id: "h", parentId: null, timestamp: "t", message: { role: "hookMessage", customType: "x", content: "c", display: true, timestamp: 1 } };
    const v2 = parsed(jsonl([{ type: "session", version: 2, id: "s", timestamp: "t", cwd: "/" }, hook]));
    migrateSession(v2.header, v2.entries);
    expect((v2.entries[0] as MessageEntry).message.role).toBe("custom");
    expect(v2.header.version).toBe(3);

    const v3 = parsed(jsonl([{ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" }, hook]));
    expect(migrateSession(v3.header, v3.entries)).toEqual({ migrated: false, fromVersion: 3, toVersion: 3 });
    expect((v3.entries[0] as MessageEntry).message.role).toBe("hookMessage");

    const v9 = parsed(jsonl([{ type: "session", version: 9, id: "s", timestamp: "t", cwd: "/" }, hook]));
    expect(migrateSession(v9.header, v9.entries)).toEqual({ migrated: false, fromVersion: 9, toVersion: 9 });
    expect(v9.header.version).toBe(9);
  });

  it("serialization round-trips byte for byte and keeps key order", () => {
    const text = jsonl([
      { type: "session", version: 3, id: "s", title: "T", timestamp: "t", cwd: "/" },
      { type: "custom", customType: "x", data: { b: 1, a: 2 }, id: "c1", parentId: null, timestamp: "t" },
      { type: "message", id: "m", parentId: "c1", timestamp: "t", message: { role: "user", content: "ü \u2028 \"q\"", timestamp: 1 } },
    ]);
    const p = parsed(text);
    expect(serializeSession(p.header, p.entries)).toBe(text);
  });

  it("a 100,000-entry session parses and indexes completely", () => {
    const lines = [HEADER_LINE];
    for (let i = 0; i < 100_000; i++) {
      lines.push(`{"type":"message","id":"${i}","parentId":${i === 0 ? "null" : `"${i - 1}"`},"timestamp":"t","message":{"role":"user","content":"x","timestamp":1}}`);
    }
    const p = parseSessionText(lines.join("\n"));
    expect(p.entries).toHaveLength(100_000);
    expect(buildIndex(p.entries).byId.size).toBe(100_000);
  });
});
