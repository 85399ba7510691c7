import { describe, expect, it } from "vitest";
import { buildIndex, buildSessionContext, type AgentMessage, type SessionEntry } from "../src/index";
import { SessionBuilder, assistant, user } from "./builders";

/** A short description of each message: its text for user/assistant, the summary for summaries. */
function describeMessage(m: AgentMessage): string {
  switch (m.role) {
    case "compactionSummary":
    case "branchSummary":
      return `${m.role}:${m.summary}`;
    case "user":
    case "custom":
      return typeof m.content === "string" ? m.content : (m.content[0] as { text: string }).text;
    case "assistant":
      return (m.content[0] as { text: string }).text;
    default:
      return m.role;
  }
}

const texts = (entries: SessionEntry[], leaf?: string | null) => buildSessionContext(entries, leaf).messages.map(describeMessage);

const EMPTY = { messages: [], entryIds: [], thinkingLevel: "off", models: {}, injectedTtsrRules: [], mode: "none" };

describe("C. buildSessionContext", () => {
  it("case 19: empty session", () => {
    const ctx = buildSessionContext([]);
    expect(ctx).toStrictEqual(EMPTY);
    expect("modeData" in ctx).toBe(false);
  });

  it("case 20: explicit null leaf", () => {
    const s = new SessionBuilder().msg(user("u")).msg(assistant("a"));
    expect(buildSessionContext(s.entries, null)).toStrictEqual(EMPTY);
  });

  it("case 21: unknown leaf falls back to the last entry", () => {
    const s = new SessionBuilder().msg(user("hello")).msg(assistant("hi"));
    expect(buildSessionContext(s.entries, "nonexistent").messages).toHaveLength(2);
  });

  it("case 22: simple conversation; the assistant sets models.default", () => {
    const s = new SessionBuilder().msg(user("hello")).msg(assistant("hi there")).msg(user("how are you")).msg(assistant("great"));
    const ctx = buildSessionContext(s.entries);
    expect(ctx.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(ctx.models.default).toBe("anthropic/m");
    expect(ctx.entryIds).toEqual(["e0", "e1", "e2", "e3"]);
    expect(ctx.messages[0]).toBe((s.entries[0] as { message: AgentMessage }).message);
  });

  it("case 23: thinking level", () => {
    const s = new SessionBuilder().msg(user("u")).entry({ type: "thinking_level_change", thinkingLevel: "high" }).msg(assistant("a"));
    const ctx = buildSessionContext(s.entries);
    expect(ctx.thinkingLevel).toBe("high");
    expect(ctx.messages).toHaveLength(2);
  });

  it("case 24: models map by role; pi-mono model_change ignored; later entries override", () => {
    const s = new SessionBuilder()
      .msg(user("u"))
      .entry({ type: "model_change", model: "openai/gpt-4", role: "smol" })
      .entry({ type: "model_change", provider: "openai", modelId: "legacy" })
      .entry({ type: "thinking_level_change", thinkingLevel: "high" })
      .msg(assistant("a"))
      .entry({ type: "model_change", model: "x/y" });
    const ctx = buildSessionContext(s.entries);
    expect(ctx.models).toEqual({ smol: "openai/gpt-4", default: "x/y" });
    expect(ctx.thinkingLevel).toBe("high");

    const t = new SessionBuilder().msg(user("u")).entry({ type: "model_change", model: "openai/gpt-4" }).msg(assistant("a"));
    expect(buildSessionContext(t.entries).models.default).toBe("anthropic/m");
  });

  it("case 25: single compaction", () => {
    const s = new SessionBuilder()
      .msg(user("first"))
      .msg(assistant("response1"))
      .msg(user("second"))
      .msg(assistant("response2"))
      .compaction("Summary of first two turns", "e2")
      .msg(user("third"))
      .msg(assistant("response3"));
    const ctx = buildSessionContext(s.entries);
    expect(ctx.messages.map(describeMessage)).toEqual(["compactionSummary:Summary of first two turns", "second", "response2", "third", "response3"]);
    expect(ctx.entryIds).toEqual(["e4", "e2", "e3", "e5", "e6"]);
  });

  it("case 26: keep from the first entry", () => {
    const s = new SessionBuilder().msg(user("1")).msg(assistant("2")).compaction("Empty summary", "e0").msg(user("4"));
    expect(texts(s.entries)).toEqual(["compactionSummary:Empty summary", "1", "2", "4"]);
  });

  it("case 27: the latest compaction wins", () => {
    const s = new SessionBuilder()
      .msg(user("1"))
      .msg(assistant("2"))
      .compaction("First summary", "e0")
      .msg(user("4"))
      .msg(assistant("5"))
      .compaction("Second summary", "e3")
      .msg(user("7"));
    expect(texts(s.entries)).toEqual(["compactionSummary:Second summary", "4", "5", "7"]);
  });

  it("case 28: branch following", () => {
    const s = new SessionBuilder().msg(user("start")).msg(assistant("a")).msg(user("branch A")).msg(user("branch B"), { parentId: "e1" });
    expect(texts(s.entries, "e2")).toEqual(["start", "a", "branch A"]);
    expect(texts(s.entries, "e3")).toEqual(["start", "a", "branch B"]);
  });

  it("case 29: branch summary on the path", () => {
    const s = new SessionBuilder()
      .msg(user("1"))
      .msg(assistant("2"))
      .msg(user("abandoned path"))
      .branchSummary("Summary of abandoned work", "e1", { parentId: "e1" })
      .msg(user("new direction"));
    const ctx = buildSessionContext(s.entries, "e4");
    expect(ctx.messages).toHaveLength(4);
    expect(ctx.messages[2]).toEqual({ role: "branchSummary", summary: "Summary of abandoned work", fromId: "e1", timestamp: Date.parse(s.entries[3]?.timestamp as string) });
    expect(ctx.entryIds).toEqual(["e0", "e1", "e3", "e4"]);
  });

  it("case 30: complex tree", () => {
    const s = new SessionBuilder()
      .msg(user("start"))
      .msg(assistant("r1"))
      .msg(user("q2"))
      .msg(assistant("r2"))
      .compaction("Compacted history", "e2")
      .msg(user("q3"))
      .msg(assistant("r3"))
      .msg(user("wrong path"), { parentId: "e2" })
      .msg(assistant("wrong response"))
      .branchSummary("Tried wrong approach", "e2", { parentId: "e2" })
      .msg(user("better approach"));
    expect(texts(s.entries, "e6")).toEqual(["compactionSummary:Compacted history", "q2", "r2", "q3", "r3"]);
    expect(texts(s.entries, "e10")).toEqual(["start", "r1", "q2", "branchSummary:Tried wrong approach", "better approach"]);
  });

  it("case 31: firstKeptEntryId not on the path", () => {
    const s = new SessionBuilder().msg(user("1")).msg(assistant("a")).compaction("S", "nope").msg(user("2"));
    expect(texts(s.entries)).toEqual(["compactionSummary:S", "2"]);
  });

  it("case 32: an empty branch summary is skipped", () => {
    const s = new SessionBuilder().msg(user("1")).branchSummary("", "e0").msg(user("2"));
    expect(texts(s.entries)).toEqual(["1", "2"]);
  });

  it("case 33: custom messages", () => {
    const s = new SessionBuilder()
      .msg(user("1"))
      .entry({ type: "custom_message", customType: "t", content: "hidden", display: false })
      .entry({ type: "custom_message", customType: "t", content: [{ type: "text", text: "arr" }], display: true })
      .msg(user("2"));
    const ctx = buildSessionContext(s.entries);
    expect(ctx.messages.map((m) => m.role)).toEqual(["user", "custom", "custom", "user"]);
    expect(ctx.messages[1]).toStrictEqual({
      role: "custom",
      customType: "t",
      content: "hidden",
      display: false,
      details: undefined,
      timestamp: Date.parse(s.entries[1]?.timestamp as string),
    });
    expect("details" in (ctx.messages[1] as object)).toBe(true);
    expect((ctx.messages[2] as { content: unknown }).content).toEqual([{ type: "text", text: "arr" }]);
  });

  it("case 34: TTSR rules and mode", () => {
    const s = new SessionBuilder()
      .msg(user("u"))
      .msg(assistant("a"))
      .entry({ type: "ttsr_injection", injectedRules: ["r1", "r2"] })
      .entry({ type: "ttsr_injection", injectedRules: ["r2", "r3"] })
      .entry({ type: "mode_change", mode: "plan", data: { f: 1 } })
      .entry({ type: "session_init", systemPrompt: "p", task: "t", tools: [] })
      .entry({ type: "custom", customType: "c", data: {} });
    const ctx = buildSessionContext(s.entries);
    expect(ctx.messages).toHaveLength(2);
    expect(ctx.injectedTtsrRules).toEqual(["r1", "r2", "r3"]);
    expect(ctx.mode).toBe("plan");
    expect(ctx.modeData).toEqual({ f: 1 });
  });

  const case35 = () =>
    new SessionBuilder()
      .msg(user("1"))
      .msg(assistant("a"))
      .entry({ type: "model_change", model: "p/q" })
      .branchSummary("BS", "e1")
      .entry({ type: "custom_message", customType: "t", content: "cm", display: true })
      .msg(user("2"))
      .msg(assistant("b"))
      .compaction("S", "e2")
      .msg(user("3"));

  it("case 35: kept region with non-message entries", () => {
    const s = case35();
    const ctx = buildSessionContext(s.entries);
    expect(ctx.messages.map(describeMessage)).toEqual(["compactionSummary:S", "branchSummary:BS", "cm", "2", "b", "3"]);
    expect(ctx.entryIds).toEqual(["e7", "e3", "e4", "e5", "e6", "e8"]);
    expect(ctx.models.default).toBe("anthropic/m");
  });

  it("case 36: compaction summary message fields", () => {
    const s = case35();
    const first = buildSessionContext(s.entries).messages[0];
    expect(first).toEqual({ role: "compactionSummary", summary: "S", tokensBefore: 1000, timestamp: Date.parse(s.entries[7]?.timestamp as string) });
    expect((first as { shortSummary?: string }).shortSummary).toBeUndefined();
  });

  it("an index or id map can be passed instead of being rebuilt", () => {
    const s = case35();
    const index = buildIndex(s.entries);
    expect(buildSessionContext(s.entries, "e5", index).entryIds).toEqual(["e0", "e1", "e3", "e4", "e5"]);
    expect(buildSessionContext(s.entries, "e5", index.byId).entryIds).toEqual(["e0", "e1", "e3", "e4", "e5"]);
  });
});
