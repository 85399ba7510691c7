import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareCompaction, type CompactionPreparation } from "@bonsai/core";
import { OfflineSummarizer, OpenAiSummarizer, RemoteSummarizer } from "@bonsai/llm";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { compact, stripFileTags } from "../src/index";
import { answerByKind, FILES, linear, N, P, S, userPrompt, xs } from "./support";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
let server: MockOpenAiServer;
beforeEach(() => {
  server = mock();
});

const model = () => new OpenAiSummarizer({ baseUrl: server.baseUrl, apiKey: "k" }, "mock-model");
const prep = (entries: ReturnType<typeof linear>, keep: number, reserve = 16384) => {
  const p = prepareCompaction(entries, S(keep, reserve));
  if (!p) throw new Error("no preparation");
  return p as CompactionPreparation;
};

const case80 = () =>
  linear(N.U("hello"), N.AT(["read", { path: "a.ts" }]), N.T("file a"), N.U(4000), N.AT(["edit", { path: "b.ts", oldText: "x", newText: "y" }]), N.T("done"), N.A(4000));

describe("J. compact() with the loopback model", () => {
  it("case 80: split turn, full pipeline (history and turn prefix concurrently, merged, short summary, file tags)", async () => {
    server.setChatFallback(answerByKind({ history: "R1", turnPrefix: "R2", short: "R3" }));
    const p = prep(case80(), 1000);
    expect([p.firstKeptEntryId, p.isSplitTurn, p.messagesToSummarize.length, p.turnPrefixMessages.length, p.recentMessages.length]).toEqual(["e6", true, 3, 3, 1]);
    const result = await compact(p, { model: model() }, { customInstructions: "focus on tests" });
    const bodies = server.chatRequests();
    expect(bodies).toHaveLength(3);
    const history = bodies.find((b) => userPrompt(b).endsWith("focus on tests"));
    expect(userPrompt(history)).toBe(
      '<conversation>\n[User]: hello\n\n[Assistant tool calls]: read(path="a.ts")\n\n[Tool result]: file a\n</conversation>\n\n' + P.SUMMARY + "\n\nAdditional focus: focus on tests",
    );
    expect(history?.max_completion_tokens).toBe(13107);
    expect(history?.reasoning_effort).toBe("high");
    expect(history?.messages[0]).toEqual({ role: "system", content: P.SYSTEM });
    const prefix = bodies.find((b) => userPrompt(b).endsWith(P.TURN_PREFIX));
    expect(userPrompt(prefix)).toBe(`<conversation>\n[User]: ${xs(4000)}\n\n[Assistant tool calls]: edit(path="b.ts", oldText="x", newText="y")\n\n[Tool result]: done\n</conversation>\n\n` + P.TURN_PREFIX);
    expect(prefix?.max_completion_tokens).toBe(8192);
    const short = bodies[2];
    expect(userPrompt(short)).toBe(`<conversation>\n[Assistant]: ${xs(4000)}\n</conversation>\n\n<previous-summary>\nR1\n\n---\n\n**Turn Context (split turn):**\n\nR2\n</previous-summary>\n\n` + P.SHORT);
    expect(short?.max_completion_tokens).toBe(512);
    expect(result).toEqual({
      summary: "R1\n\n---\n\n**Turn Context (split turn):**\n\nR2" + FILES(["a.ts"], ["b.ts"]),
      shortSummary: "R3",
      firstKeptEntryId: "e6",
      tokensBefore: 0,
      details: { readFiles: ["a.ts"], modifiedFiles: ["b.ts"] },
    });
  });

  it("case 81: iterative prompt with previous summary, additional context, override and instructions; two text blocks joined", async () => {
    server.setChatFallback(() => ({ kind: "text", text: ["Z", "W"] }));
    const p = prep(linear(N.U("a"), N.A("b"), N.C("PREV", "e0"), N.U(4000), N.A(400), N.U(4000), N.A(400)), 1000);
    expect([p.firstKeptEntryId, p.isSplitTurn]).toEqual(["e5", false]);
    const result = await compact(p, { model: model() }, { customInstructions: "instr", promptOverride: "OVERRIDE", extraContext: ["ctx one", "ctx two"] });
    const [history, short] = server.chatRequests();
    expect(userPrompt(history)).toBe(
      `<conversation>\n[User]: ${xs(4000)}\n\n[Assistant]: ${xs(400)}\n</conversation>\n\n<previous-summary>\nPREV\n</previous-summary>\n\n<additional-context>\n- ctx one\n- ctx two\n</additional-context>\n\nOVERRIDE\n\nAdditional focus: instr`,
    );
    expect(userPrompt(short)).toBe(
      `<conversation>\n[User]: ${xs(4000)}\n\n[Assistant]: ${xs(400)}\n</conversation>\n\n<previous-summary>\nZ\nW\n</previous-summary>\n\n<additional-context>\n- ctx one\n- ctx two\n</additional-context>\n\n` + P.SHORT,
    );
    expect(result).toMatchObject({ summary: "Z\nW", shortSummary: "Z\nW", details: { readFiles: [], modifiedFiles: [] } });
  });

  it("case 82 (Bonsai deviation 5): nothing new re-uses the previous summary without duplicating its tags; one call", async () => {
    server.setChatFallback(answerByKind({ short: "S" }));
    const prev = "PREV" + FILES(["old.ts"], []);
    const p = prep(linear(N.U("a"), N.A("b"), N.C(prev, "e0", { details: { readFiles: ["old.ts"], modifiedFiles: [] } }), N.U(4000), N.A(40)), 1000);
    expect([p.firstKeptEntryId, p.isSplitTurn, p.messagesToSummarize.length]).toEqual(["e3", false, 0]);
    const result = await compact(p, { model: model() });
    expect(server.chatRequests()).toHaveLength(1);
    expect(result.summary).toBe(prev);
    expect(stripFileTags(result.summary)).toBe("PREV");
  });

  it("case 83 (Bonsai deviation 4): a split with empty history keeps the previous summary (without tags) as its history part", async () => {
    server.setChatFallback(answerByKind({ turnPrefix: "R1", short: "R2" }));
    const prev = "P-TEXT" + FILES(["old.ts"], []);
    const p = prep(linear(N.U("a"), N.A("b"), N.C(prev, "e0", { details: { readFiles: ["old.ts"] } }), N.U(400), N.AT(["read", { path: "n.ts" }]), N.T("r"), N.A(4000)), 1000);
    expect([p.isSplitTurn, p.messagesToSummarize.length, p.turnPrefixMessages.length]).toEqual([true, 0, 3]);
    const result = await compact(p, { model: model() });
    expect(server.chatRequests()).toHaveLength(2);
    expect(result.summary).toBe("P-TEXT\n\n---\n\n**Turn Context (split turn):**\n\nR1" + FILES(["n.ts", "old.ts"], []));
    expect(result.shortSummary).toBe("R2");
  });

  it("case 84: first compaction with nothing to summarize: one short call, summary No prior history.", async () => {
    server.setChatFallback(answerByKind({ short: "SHORT1" }));
    const p = prep(linear(N.U("hello"), N.A("hi")), 20000);
    const result = await compact(p, { model: model() });
    const [short] = server.chatRequests();
    expect(server.chatRequests()).toHaveLength(1);
    expect(userPrompt(short)).toBe("<conversation>\n[User]: hello\n\n[Assistant]: hi\n</conversation>\n\n<previous-summary>\nNo prior history.\n</previous-summary>\n\n" + P.SHORT);
    expect(result).toEqual({ summary: "No prior history.", shortSummary: "SHORT1", firstKeptEntryId: "e0", tokensBefore: 0, details: { readFiles: [], modifiedFiles: [] } });
  });

  it("case 85: maxTokens scale with reserveTokens", async () => {
    const session = linear(N.U(4000), N.A(400), N.U(400), N.AT(["read", { path: "a" }]), N.T("r"), N.A(4000));
    for (const [reserve, expected] of [
      [1000, [800, 500, 200]],
      [5000, [4000, 2500, 512]],
    ] as const) {
      server.reset();
      server.setChatFallback(answerByKind({}));
      const p = prep(session, 1000, reserve);
      expect([p.firstKeptEntryId, p.isSplitTurn]).toEqual(["e5", true]);
      await compact(p, { model: model() });
      const bodies = server.chatRequests();
      const byKind = (end: string) => bodies.find((b) => userPrompt(b).endsWith(end))?.max_completion_tokens;
      const history = bodies.find((b) => !userPrompt(b).endsWith(P.TURN_PREFIX) && !userPrompt(b).endsWith(P.SHORT))?.max_completion_tokens;
      expect([history, byKind(P.TURN_PREFIX), byKind(P.SHORT)]).toEqual(expected);
    }
  });

  it("case 86: errors reject with Summarization failed: ...; aborted answers return the partial text", async () => {
    const session = linear(N.U(4000), N.A(400), N.U(4000), N.A(400));
    const p = prep(session, 1000);
    expect(p.firstKeptEntryId).toBe("e2");
    server.enqueue({ kind: "error", status: 429, message: "rate limit" });
    await expect(compact(p, { model: model() })).rejects.toThrow("Summarization failed: 429 rate limit");
    const failing = { kind: "offline" as const, label: "x", complete: async () => ({ text: "", stopReason: "error" as const }) };
    await expect(compact(p, { model: failing })).rejects.toThrow("Summarization failed: Unknown error");
    const partial = { kind: "offline" as const, label: "x", complete: async () => ({ text: "partial", stopReason: "aborted" as const }) };
    const r = await compact(p, { model: partial });
    expect([r.summary, r.shortSummary]).toEqual(["partial", "partial"]);
  });

  it("turn prefix and short summary failures are named", async () => {
    const p = prep(case80(), 1000);
    server.setChatFallback((b) => (userPrompt(b).endsWith(P.TURN_PREFIX) ? { kind: "error", status: 400, message: "bad" } : { kind: "text", text: "ok" }));
    await expect(compact(p, { model: model() })).rejects.toThrow("Turn prefix summarization failed: 400 bad");
    server.setChatFallback((b) => (userPrompt(b).endsWith(P.SHORT) ? { kind: "error", status: 400, message: "bad" } : { kind: "text", text: "ok" }));
    await expect(compact(p, { model: model() })).rejects.toThrow("Short summary failed: 400 bad");
  });
});

describe("K. remote endpoint inside compact()", () => {
  it("case 87: history and short summary go to the endpoint, the turn prefix to the model", async () => {
    server.setChatFallback(() => ({ kind: "text", text: "LLM" }));
    server.setRemoteFallback((_b, n) => ({ kind: "summary", summary: `REMOTE${n}`, extra: { shortSummary: "IGNORED" } }));
    const p = prep(linear(N.U(4000), N.A(400), N.U(400), N.AT(["read", { path: "a" }]), N.T("r"), N.A(4000)), 1000);
    const result = await compact(p, { model: model(), remote: new RemoteSummarizer(server.remoteUrl) });
    const remote = server.remoteRequests();
    expect(remote).toHaveLength(2);
    for (const r of remote) {
      expect(Object.keys(r).sort()).toEqual(["prompt", "systemPrompt"]);
      expect(r.systemPrompt).toBe(P.SYSTEM);
    }
    expect(server.chatRequests()).toHaveLength(1);
    expect(userPrompt(server.chatRequests()[0])).toMatch(new RegExp(`${P.TURN_PREFIX.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    expect(result.summary).toBe("REMOTE1\n\n---\n\n**Turn Context (split turn):**\n\nLLM" + FILES(["a"], []));
    expect(result.shortSummary).toBe("REMOTE2");
    expect(String(remote[1]?.prompt)).toContain("<previous-summary>\nREMOTE1\n\n---\n\n**Turn Context (split turn):**\n\nLLM\n</previous-summary>");
  });

  it("cases 88/89 inside compact(): endpoint failures abort the compaction", async () => {
    const p = prep(linear(N.U(4000), N.A(400), N.U(4000), N.A(400)), 1000);
    server.enqueueRemote({ kind: "error", status: 500, statusText: "Internal Server Error" });
    await expect(compact(p, { model: model(), remote: new RemoteSummarizer(server.remoteUrl) })).rejects.toThrow("Remote compaction failed (500 Internal Server Error)");
    server.enqueueRemote({ kind: "json", body: { shortSummary: "x" } });
    await expect(compact(p, { model: model(), remote: new RemoteSummarizer(server.remoteUrl) })).rejects.toThrow("Remote compaction response missing summary");
  });
});

describe("offline summarizer in compact()", () => {
  it("flags details with summarizer: offline and keeps the file tags", async () => {
    const result = await compact(prep(case80(), 1000), { model: new OfflineSummarizer() });
    expect(result.details).toEqual({ readFiles: ["a.ts"], modifiedFiles: ["b.ts"], summarizer: "offline" });
    expect(result.summary).toContain("**Turn Context (split turn):**\n\n## Original Request");
    expect(result.summary.endsWith(FILES(["a.ts"], ["b.ts"]))).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
