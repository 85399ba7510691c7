import { describe, expect, it } from "vitest";
import { buildSessionContext, convertToLlm, parseSessionText, prepareCompaction } from "../src/index";

const ts = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
const user = (id: string, parentId: string | null, text: string, i: number) => ({ type: "message", id, parentId, timestamp: ts(i), message: { role: "user", content: text, timestamp: i } });

/** a session whose compaction (or branch summary) carries `summary: null`, as a hostile or broken file may */
function session(summary: unknown): string {
  const lines = [
    { type: "session", version: 3, id: "s", timestamp: ts(0), cwd: "/p" },
    user("u1", null, "first", 1),
    { type: "compaction", id: "c1", parentId: "u1", timestamp: ts(2), summary, firstKeptEntryId: "u1", tokensBefore: 10 },
    { type: "branch_summary", id: "b1", parentId: "c1", timestamp: ts(3), fromId: "u1", summary },
    user("u2", "b1", "second", 4),
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

describe("a summary the file gives another type", () => {
  it.each([null, 42, { text: "x" }])("summary %j: the context is built and converted (no 'no value for placeholder {{summary}}')", (summary) => {
    const { entries } = parseSessionText(session(summary));
    const context = buildSessionContext(entries, "u2");
    const llm = convertToLlm(context.messages);
    expect(llm.map((m) => m.role)).toEqual(["user", "user", "user"]);
    expect(JSON.stringify(llm[0])).not.toContain("null");
    expect(() => prepareCompaction(entries, { enabled: true, reserveTokens: 16384, keepRecentTokens: 1 })).not.toThrow();
  });
});
