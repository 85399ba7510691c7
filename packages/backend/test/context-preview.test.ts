import { describe, expect, it } from "vitest";
import { CONTEXT_LIST_HEAD, CONTEXT_LIST_TAIL, contract, type ContextPreview } from "@bonsai/ipc";
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

describe("a long context's messages are listed folded (the first CONTEXT_LIST_HEAD and the newest CONTEXT_LIST_TAIL), its figures whole", () => {
  const backend = useBackend();
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  /** `count` messages, user and assistant in turn; only the assistant replies among the first `withUsage` report a usage */
  function session(id: string, count: number, withUsage: number): object[] {
    const messages = Array.from({ length: count }, (_, i) => {
      const role = i % 2 === 0 ? "user" : "assistant";
      const text = `${role} ${i} ${"word ".repeat(1 + ((i * 37) % 90))}`;
      const message =
        role === "user"
          ? { role, content: text, timestamp: Date.parse(at(i)) }
          : {
              role,
              content: [{ type: "text", text }],
              api: "openai-completions",
              provider: "p",
              model: "m",
              ...(i < withUsage ? { usage: { input: 1000 + i, output: 10, cacheRead: 0, cacheWrite: 0 } } : {}),
              stopReason: "stop",
              timestamp: Date.parse(at(i)),
            };
      return { type: "message", id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: at(i), message };
    });
    return [{ type: "session", version: 3, id, timestamp: at(0), cwd: "/tmp/p" }, ...messages];
  }
  async function previews(lines: readonly object[]) {
    const sessionId = await importLines(backend(), lines);
    const get = async (allMessages: boolean) => {
      const r = await backend().dispatch("getContextPreview", { sessionId, ...(allMessages ? { allMessages } : {}) });
      if (!r.ok) throw new Error(r.error.message);
      return contract.getContextPreview.output.parse(r.value);
    };
    return { folded: await get(false), all: await get(true) };
  }
  function expectFolded(folded: ContextPreview, all: ContextPreview): void {
    const n = all.messages.length;
    expect(all.unlisted).toBeNull();
    expect(folded.messages).toEqual([...all.messages.slice(0, CONTEXT_LIST_HEAD), ...all.messages.slice(n - CONTEXT_LIST_TAIL)]);
    const between = all.messages.slice(CONTEXT_LIST_HEAD, n - CONTEXT_LIST_TAIL).map((m) => m.tokens);
    expect(folded.unlisted).toEqual({
      at: CONTEXT_LIST_HEAD,
      count: n - CONTEXT_LIST_HEAD - CONTEXT_LIST_TAIL,
      tokens: between.reduce((a, b) => a + b, 0),
      largestTokens: Math.max(...all.messages.map((m) => m.tokens)),
    });
    const { messages: _m, unlisted: _u, ...figures } = folded;
    const { messages: _am, unlisted: _au, ...allFigures } = all;
    expect(figures).toEqual(allFigures);
  }

  it("a stored session's: the rows of only the listed messages are read; the totals and the usage's trailing estimate count every message", async () => {
    // the newest usage lies among the messages not listed: what follows it is summed over all of them
    const { folded, all } = await previews(session("s-long", 1201, 401));
    expect(all.messages).toHaveLength(1201);
    expect(all.usage).toMatchObject({ entryId: "m399", age: "no-compaction" });
    expect(all.usage!.trailingTokens).toBeGreaterThan(0);
    expectFolded(folded, all);
  });

  it("the same where the usage is among the newest messages listed", async () => {
    const { folded, all } = await previews(session("s-long-tail", 1201, 1201));
    expect(all.usage).toMatchObject({ entryId: "m1199" });
    expectFolded(folded, all);
  });

  it("an irregular session's (its context built from its entries) is folded the same way", async () => {
    const lines = session("s-long-irregular", 900, 900);
    // a parent written after its child: the session is irregular
    const [header, first, second, ...rest] = lines;
    const { folded, all } = await previews([header!, second!, first!, ...rest]);
    expect(all.messages).toHaveLength(900);
    expectFolded(folded, all);
  });

  it("a context that fits is listed whole", async () => {
    const { folded, all } = await previews(session("s-fits", CONTEXT_LIST_HEAD + CONTEXT_LIST_TAIL, 100));
    expect(folded).toEqual(all);
    expect(folded.unlisted).toBeNull();
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
