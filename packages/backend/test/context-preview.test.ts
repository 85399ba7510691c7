import { describe, expect, it } from "vitest";
import { contract } from "@bonsai/ipc";
import { oneLine } from "../src/context-preview";
import { importLines, useBackend } from "./support";

describe("the estimate and the reported usage after a compaction (compaction.md §2.6, deviation 2)", () => {
  const backend = useBackend();

  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const user = (id: string, parentId: string | null, s: number, text: string) => ({
    type: "message",
    id,
    parentId,
    timestamp: at(s),
    message: { role: "user", content: text, timestamp: Date.parse(at(s)) },
  });
  const assistant = (id: string, parentId: string, s: number, text: string, input: number) => ({
    type: "message",
    id,
    parentId,
    timestamp: at(s),
    message: {
      role: "assistant",
      content: [{ type: "text", text }],
      api: "openai-completions",
      provider: "p",
      model: "m",
      usage: { input, output: 16, cacheRead: 0, cacheWrite: 0 },
      stopReason: "stop",
      timestamp: Date.parse(at(s)),
    },
  });
  const big = "x".repeat(4000);
  // u1 a1 u2 a2(usage 35,984) | compaction keeping from u2 | u3 (no usage yet)
  const lines = [
    { type: "session", version: 3, id: "s-preview", timestamp: at(0), cwd: "/tmp/p" },
    user("u1", null, 1, big),
    assistant("a1", "u1", 2, big, 20000),
    user("u2", "a1", 3, "second question"),
    assistant("a2", "u2", 4, "second answer", 35968),
    { type: "compaction", id: "c1", parentId: "a2", timestamp: at(5), summary: "## Goal\nshort summary", firstKeptEntryId: "u2", tokensBefore: 35984 },
    user("u3", "c1", 6, "third question"),
  ];
  async function preview(sessionLines: readonly object[]) {
    const sessionId = await importLines(backend(), sessionLines);
    const r = await backend().dispatch("getContextPreview", { sessionId });
    if (!r.ok) throw new Error(r.error.message);
    return contract.getContextPreview.output.parse(r.value);
  }

  it("the estimate is the messages' sum; the kept messages' usage from before the compaction is reported as stale and not used", async () => {
    const p = await preview(lines);
    expect(p.messages.map((m) => m.entryId)).toEqual(["c1", "u2", "a2", "u3"]);
    const sum = p.messages.reduce((n, m) => n + m.tokens, 0);
    expect(p.tokens).toBe(sum);
    expect(p.tokens).toBeLessThan(1000);
    expect(p.usage).toMatchObject({ entryId: "a2", tokens: 35984, age: "before-compaction" });
    expect(p.agentTokens).toBe(sum);
  });

  it("uses the first usage reported after the compaction, plus the estimates of the messages after it", async () => {
    const p = await preview([...lines, assistant("a3", "u3", 7, "third answer", 7000), user("u4", "a3", 8, "fourth question")]);
    expect(p.messages.map((m) => m.entryId)).toEqual(["c1", "u2", "a2", "u3", "a3", "u4"]);
    expect(p.usage).toMatchObject({ entryId: "a3", tokens: 7016, age: "after-compaction", trailingTokens: p.messages.at(-1)!.tokens });
    expect(p.agentTokens).toBe(7016 + p.messages.at(-1)!.tokens);
    expect(p.tokens).toBe(p.messages.reduce((n, m) => n + m.tokens, 0));
  });

  it("without a compaction, the last usage counts as before", async () => {
    const p = await preview(lines.slice(0, 5));
    expect(p.usage).toMatchObject({ entryId: "a2", tokens: 35984, age: "no-compaction", trailingTokens: 0 });
    expect(p.agentTokens).toBe(35984);
  });
});

describe("the one-line preview of a context message", () => {
  const whole = (text: string) => {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
  };

  it("flattens only the start it shows, with the same result as flattening all of it", () => {
    const cases = [
      "",
      "short",
      "  a \n\n b  ",
      "x".repeat(159),
      "x".repeat(160),
      "x".repeat(161),
      `${" ".repeat(5000)}late start ${"word ".repeat(100)}`,
      `${"a".repeat(319)}${" ".repeat(3000)}b`,
      `${"a ".repeat(80)}${"\n".repeat(10_000)}${"b".repeat(50)}`,
      "lorem ipsum dolor ".repeat(100_000),
    ];
    for (const text of cases) expect(oneLine(text)).toBe(whole(text));
  });
});
