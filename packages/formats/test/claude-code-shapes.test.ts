/** The Claude Code reader on small hand-written transcripts: branches, odd lines, sub-agent files. */
import { buildIndex, buildSessionContext, getPath, type MessageEntry } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { agentEventOf, claudeCodeReader, originalText } from "../src/index";
import { branchPoints } from "./support/tree-checks";

let clock = 0;
function ts(): string {
  return new Date(Date.UTC(2026, 0, 1) + 1000 * clock++).toISOString();
}
const base = { sessionId: "s1", cwd: "/w", version: "2.1.0", isSidechain: false };
const user = (uuid: string, parentUuid: string | null, content: unknown, extra: object = {}) => ({ ...base, type: "user", uuid, parentUuid, timestamp: ts(), message: { role: "user", content }, ...extra });
const assistant = (uuid: string, parentUuid: string | null, id: string, content: unknown[], extra: object = {}) => ({
  ...base,
  type: "assistant",
  uuid,
  parentUuid,
  timestamp: ts(),
  message: { id, role: "assistant", model: "claude-x", content, stop_reason: null, usage: { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 } },
  ...extra,
});
const result = (uuid: string, parentUuid: string, toolUseId: string, text: string) => user(uuid, parentUuid, [{ type: "tool_result", tool_use_id: toolUseId, content: text }]);
const jsonl = (lines: object[]): string => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

describe("Claude Code transcripts (hand-written)", () => {
  it("a rewind to an earlier prompt is a real branch; the leaf follows the new prompt", () => {
    const text = jsonl([
      user("u1", null, "first"),
      assistant("a1", "u1", "m1", [{ type: "text", text: "one" }]),
      user("u2", "a1", "second"),
      assistant("a2", "u2", "m2", [{ type: "text", text: "two" }]),
      user("u2b", "a1", "second, again"),
      assistant("a2b", "u2b", "m3", [{ type: "text", text: "two again" }]),
    ]);
    const session = claudeCodeReader.read(text);
    expect(branchPoints(session.entries)).toEqual(["a1"]);
    expect(session.leafId).toBe("a2b");
    const context = buildSessionContext(session.entries, session.leafId);
    expect(context.entryIds).toEqual(["u1", "a1", "u2b", "a2b"]);
  });

  it("parallel tool calls and their results, hanging off different lines, are one chain", () => {
    const text = jsonl([
      user("u1", null, "go"),
      assistant("a1", "u1", "m1", [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "a" } }]),
      assistant("a2", "a1", "m1", [{ type: "tool_use", id: "t2", name: "Read", input: { file_path: "b" } }]),
      { ...base, type: "progress", uuid: "p1", parentUuid: "a1", timestamp: ts(), data: { type: "hook_progress", hookName: "PostToolUse" } },
      result("r2", "a2", "t2", "B"),
      result("r1", "a1", "t1", "A"),
      assistant("a3", "r1", "m2", [{ type: "text", text: "done" }]),
    ]);
    const session = claudeCodeReader.read(text);
    expect(branchPoints(session.entries)).toEqual([]);
    const context = buildSessionContext(session.entries, session.leafId);
    expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant", "assistant", "toolResult", "toolResult", "assistant"]);
    expect(context.messages[3]).toMatchObject({ toolCallId: "t2", toolName: "Read" });
    expect(session.entries.find((e) => e.id === "p1")).toMatchObject({ type: "agent_event", event: "progress" });
  });

  it("a rewind whose first line is metadata still branches", () => {
    const text = jsonl([
      user("u1", null, "first"),
      assistant("a1", "u1", "m1", [{ type: "text", text: "one" }]),
      user("u2", "a1", "second"),
      assistant("a2", "u2", "m2", [{ type: "text", text: "two" }]),
      { ...base, type: "attachment", uuid: "x1", parentUuid: "a1", timestamp: ts(), attachment: { type: "hook_success" } },
      user("u3", "x1", "instead"),
    ]);
    const session = claudeCodeReader.read(text);
    expect(session.leafId).toBe("u3");
    expect(buildSessionContext(session.entries, session.leafId).entryIds).toEqual(["u1", "a1", "u3"]);
  });

  it("keeps blank, CRLF, byte-order-mark and broken lines: the file comes back byte for byte", () => {
    const lines = [user("u1", null, "hi"), assistant("a1", "u1", "m1", [{ type: "text", text: "yo" }])].map((l) => JSON.stringify(l));
    const text = `\ufeff${lines[0]}\r\n\n   \n{not json\n${lines[1]}\n\n{"cut": `;
    const session = claudeCodeReader.read(text);
    expect(originalText(session)).toBe(text);
    expect(session.issues.map((i) => [i.line, i.kind])).toEqual([
      [4, "invalid-json"],
      [7, "truncated-line"],
    ]);
    const broken = session.entries.filter((e) => agentEventOf(e)?.event === "unreadable-line");
    expect(broken).toHaveLength(2);
    expect(buildSessionContext(session.entries, session.leafId).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("a boundary without its summary line right after it is a compaction with an empty summary", () => {
    const text = jsonl([
      user("u1", null, "hi"),
      assistant("a1", "u1", "m1", [{ type: "text", text: "yo" }]),
      { ...base, type: "system", subtype: "compact_boundary", uuid: "c1", parentUuid: null, logicalParentUuid: "a1", timestamp: ts(), compactMetadata: { trigger: "manual", preTokens: 1234 } },
      { ...base, type: "progress", uuid: "p1", parentUuid: "c1", timestamp: ts(), data: { type: "hook_progress" } },
      user("s1", "p1", "Summary of the earlier part", { isCompactSummary: true }),
    ]);
    const session = claudeCodeReader.read(text);
    expect(session.entries.find((e) => e.id === "c1")).toMatchObject({ type: "compaction", parentId: "a1", summary: "", tokensBefore: 1234, details: { summaryMissing: true, trigger: "manual" } });
    const context = buildSessionContext(session.entries, session.leafId);
    expect(context.messages.map((m) => m.role)).toEqual(["compactionSummary", "user"]);
    expect(originalText(session)).toBe(text);
  });

  it("a compaction whose logical parent is not in the file continues the main chain (a real 2.1.42 file does this)", () => {
    const text = jsonl([
      user("u1", null, "implement the plan"),
      assistant("a1", "u1", "m1", [{ type: "text", text: "on it" }]),
      user("u2", "a1", "and the tests"),
      assistant("a2", "u2", "m2", [{ type: "text", text: "done" }]),
      { ...base, type: "system", subtype: "compact_boundary", uuid: "c1", parentUuid: null, logicalParentUuid: "never-written", timestamp: ts(), compactMetadata: { trigger: "auto", preTokens: 167_717 } },
      user("s1", "c1", "This session is being continued from a previous conversation", { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
      user("u3", "s1", "next"),
      assistant("a3", "u3", "m3", [{ type: "text", text: "ok" }]),
    ]);
    const session = claudeCodeReader.read(text);
    expect(session.entries.find((e) => e.id === "c1")).toMatchObject({ type: "compaction", parentId: "a2", tokensBefore: 167_717 });
    // one root, no marker for the missing parent: the leaf's path holds what the compaction summarized
    expect(session.entries.filter((e) => e.parentId === null).map((e) => e.id)).toEqual(["u1"]);
    expect(session.entries.some((e) => (e as { event?: string }).event === "missing-parent")).toBe(false);
    expect(getPath(buildIndex(session.entries), session.leafId).map((e) => e.id)).toEqual(["u1", "a1", "u2", "a2", "c1", "u3", "a3"]);
    const context = buildSessionContext(session.entries, session.leafId);
    expect(context.messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);
    expect(originalText(session)).toBe(text);
  });

  it("a sub-agent transcript (agent-<id>.jsonl) is its own session, linked to the parent session", () => {
    const side = { isSidechain: true, agentId: "ab12" };
    const text = jsonl([user("u1", null, "do the thing", side), assistant("a1", "u1", "m1", [{ type: "text", text: "done" }], side)]);
    const session = claudeCodeReader.read(text);
    expect(session.header).toMatchObject({ id: "agent-ab12", parentSession: "s1", agent: "claude-code" });
    expect(session.links.parent).toEqual({ sessionId: "s1", agentId: "ab12" });
    expect(session.leafId).toBe("a1");
    const index = buildIndex(session.entries);
    expect(getPath(index, session.leafId).map((e) => e.id)).toEqual(["u1", "a1"]);
  });

  it("maps thinking, tool use, images and errors to pi's message shapes", () => {
    const text = jsonl([
      user("u1", null, [{ type: "text", text: "look" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } }], { thinkingMetadata: { level: "high", disabled: false } }),
      assistant("a1", "u1", "m1", [{ type: "thinking", thinking: "hmm", signature: "sig" }, { type: "redacted_thinking", data: "opaque" }]),
      assistant("a2", "a1", "m1", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }]),
      assistant("a3", "a2", "m2", [{ type: "text", text: "API Error: 529" }], { isApiErrorMessage: true }),
    ]);
    const session = claudeCodeReader.read(text);
    const byId = new Map(session.entries.map((e) => [e.id, e as MessageEntry]));
    expect(byId.get("u1")).toMatchObject({ thinkingLevel: "high", message: { role: "user", content: [{ type: "text", text: "look" }, { type: "image", mimeType: "image/png", data: "iVBOR" }] } });
    expect(byId.get("a1")?.message).toMatchObject({
      role: "assistant",
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-x",
      responseId: "m1",
      content: [{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" }, { type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true }],
      usage: { input: 5, output: 1, cacheRead: 100, cacheWrite: 0, totalTokens: 106 },
      stopReason: "stop",
    });
    expect(byId.get("a3")?.message).toMatchObject({ stopReason: "error", errorMessage: "API Error: 529" });
  });
});
