/** The pi converter on small sessions: one message per response, compactions, what is left out. */
import type { CompactionEntry, MessageEntry } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { claudeCodeReader, codexReader, readSession, toPiSession } from "../src/index";

let clock = 0;
const ts = (): string => new Date(Date.UTC(2026, 0, 1) + 1000 * clock++).toISOString();
const base = { sessionId: "s1", cwd: "/w", isSidechain: false };
const cc = (type: string, uuid: string, parentUuid: string | null, message: object, extra: object = {}) => ({ ...base, type, uuid, parentUuid, timestamp: ts(), message, ...extra });
const asst = (uuid: string, parent: string, id: string, content: object[], usage = { input_tokens: 1, output_tokens: 1 }) => cc("assistant", uuid, parent, { id, role: "assistant", model: "claude-x", content, usage });
const result = (uuid: string, parent: string, toolUseId: string) => cc("user", uuid, parent, { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: `out ${toolUseId}` }] });
const jsonl = (lines: object[]): string => lines.map((l) => `${JSON.stringify(l)}\n`).join("");
const options = { sessionId: "new-session", now: "2026-02-01T00:00:00.000Z" };

describe("toPiSession", () => {
  it("writes one assistant message per Claude Code response, its results after it in call order", () => {
    const session = claudeCodeReader.read(
      jsonl([
        cc("user", "u1", null, { role: "user", content: "go" }),
        asst("a1", "u1", "m1", [{ type: "text", text: "reading" }]),
        asst("a2", "a1", "m1", [{ type: "tool_use", id: "t1", name: "Read", input: {} }]),
        result("r1", "a2", "t1"),
        asst("a3", "r1", "m1", [{ type: "tool_use", id: "t2", name: "Read", input: {} }], { input_tokens: 7, output_tokens: 9 }),
        result("r2", "a3", "t2"),
        asst("a4", "r2", "m2", [{ type: "text", text: "done" }]),
      ]),
    );
    const out = toPiSession(session, options);
    const messages = out.entries.filter((e): e is MessageEntry => e.type === "message").map((e) => e.message);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
    expect(messages[1]).toMatchObject({ content: [{ type: "text" }, { type: "toolCall", id: "t1" }, { type: "toolCall", id: "t2" }], stopReason: "toolUse", responseId: "m1", usage: { input: 7, output: 9, cost: { total: 0 } } });
    expect(out.entries.map((e) => e.type)).toEqual(["message", "model_change", "message", "message", "message", "message"]);
    expect(out.entries[1]).toMatchObject({ provider: "anthropic", modelId: "claude-x" });
    expect(out.entries.every((e, i) => e.parentId === (i === 0 ? null : out.entries[i - 1]?.id))).toBe(true);
    expect(out.header).toEqual({ type: "session", version: 3, id: "new-session", timestamp: options.now, cwd: "/w" });
  });

  it("leaves out tool results whose call is not on the path (a file that starts mid-session)", () => {
    const session = claudeCodeReader.read(jsonl([result("r0", "before-the-file", "t0"), cc("user", "u1", "r0", { role: "user", content: "next" })]));
    const out = toPiSession(session, options);
    expect(out.omitted.orphanToolResults).toBe(1);
    expect(out.entries.map((e) => (e as MessageEntry).message?.role)).toEqual(["user"]);
  });

  it("writes a Claude Code compaction as a pi compaction that keeps nothing before it", () => {
    const session = claudeCodeReader.read(
      jsonl([
        cc("user", "u1", null, { role: "user", content: "first" }),
        asst("a1", "u1", "m1", [{ type: "text", text: "ok" }]),
        { ...base, type: "system", subtype: "compact_boundary", uuid: "c1", parentUuid: null, logicalParentUuid: "a1", timestamp: ts(), compactMetadata: { trigger: "auto", preTokens: 999 } },
        cc("user", "s1", "c1", { role: "user", content: "The summary." }, { isCompactSummary: true }),
        cc("user", "u2", "s1", { role: "user", content: "go on" }),
      ]),
    );
    const out = toPiSession(session, options);
    const compaction = out.entries.find((e): e is CompactionEntry => e.type === "compaction") as CompactionEntry;
    expect(compaction).toMatchObject({ summary: "The summary.", tokensBefore: 999, details: { agent: "claude-code", trigger: "auto" } });
    const after = out.entries[out.entries.indexOf(compaction) + 1];
    expect(compaction.firstKeptEntryId).toBe(after?.id);
  });

  it("a Codex compaction is followed by its replacement history; developer instructions are left out", () => {
    const line = (type: string, payload: object) => ({ timestamp: ts(), type, payload });
    const session = codexReader.read(
      jsonl([
        line("session_meta", { id: "t", cwd: "/w", model_provider: "openai" }),
        line("turn_context", { model: "gpt-x", effort: "high" }),
        line("response_item", { type: "message", role: "developer", content: [{ type: "input_text", text: "sandbox rules" }] }),
        line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] }),
        line("response_item", { type: "function_call", name: "exec", arguments: '{"cmd":"ls"}', call_id: "c1" }),
        line("response_item", { type: "function_call_output", call_id: "c1", output: "a b" }),
        line("event_msg", { type: "token_count", info: { last_token_usage: { input_tokens: 50, cached_input_tokens: 0, output_tokens: 5, total_tokens: 55 } } }),
        line("compacted", { message: "", replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] }, { type: "compaction", encrypted_content: "xyz" }] }),
        line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "continuing" }] }),
      ]),
    );
    const out = toPiSession(session, options);
    expect(out.omitted.developerMessages).toBe(1);
    const types = out.entries.map((e) => (e.type === "message" ? (e as MessageEntry).message.role : e.type));
    expect(types).toEqual(["thinking_level_change", "user", "model_change", "assistant", "toolResult", "compaction", "user", "assistant"]);
    expect(out.entries[5]).toMatchObject({ tokensBefore: 55, summary: expect.stringMatching(/encrypted/) });
    expect(out.entries[3]).toMatchObject({ message: { content: [{ type: "toolCall", id: "c1", name: "exec", arguments: { cmd: "ls" } }], usage: { input: 50, output: 5 } } });
  });

  it("a pi session is written as its path under a new header", () => {
    const text = jsonl([
      { type: "session", version: 3, id: "old", timestamp: "t", cwd: "/p" },
      { type: "message", id: "a", parentId: null, timestamp: ts(), message: { role: "user", content: "x", timestamp: 1 } },
      { type: "message", id: "b", parentId: "a", timestamp: ts(), message: { role: "user", content: "y", timestamp: 2 } },
      { type: "message", id: "c", parentId: "a", timestamp: ts(), message: { role: "user", content: "z", timestamp: 3 } },
    ]);
    const out = toPiSession(readSession(text), { ...options, leafId: "b", parentSession: "/p/old.jsonl" });
    expect(out.entries.map((e) => e.id)).toEqual(["a", "b"]);
    expect(out.header).toMatchObject({ id: "new-session", cwd: "/p", parentSession: "/p/old.jsonl" });
  });
});
