import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildSessionContext, type BranchSummaryEntry, type SessionEntry } from "@bonsai/core";
import { OpenAiSummarizer } from "@bonsai/llm";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { generateBranchSummary, NO_CONTENT_TO_SUMMARIZE, type SessionTreeEvent } from "../src/index";
import { eventsOf, harness, modelSettings, type Harness } from "./harness";
import { FILES, N, P, userPrompt } from "./support";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
let server: MockOpenAiServer;
beforeEach(() => {
  server = mock();
});
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const model = () => new OpenAiSummarizer({ baseUrl: server.baseUrl, apiKey: "k" }, "mock-model");

/** A:U"A" -> B:A"B"[read r.ts] -> C:U"C" -> D:A"D"[write w.ts], and A -> E:A"E" -> F:U"F" */
function tree97(h: Harness) {
  const [a, b, c, d] = h.add(
    N.U("A"),
    { type: "message", message: { ...(N.A("B").message as object), content: [{ type: "text", text: "B" }, { type: "toolCall", id: "t1", name: "read", arguments: { path: "r.ts" } }] } },
    N.U("C"),
    { type: "message", message: { ...(N.A("D").message as object), content: [{ type: "text", text: "D" }, { type: "toolCall", id: "t2", name: "write", arguments: { path: "w.ts", content: "z" } }] } },
  ) as [SessionEntry, SessionEntry, SessionEntry, SessionEntry];
  const [e, f] = h.add({ ...N.A("E"), parentId: a.id }, N.U("F")) as [SessionEntry, SessionEntry];
  h.store.setLeaf(h.sessionId, d.id);
  return { a, b, c, d, e, f };
}

describe("M. branch summaries (generateBranchSummary)", () => {
  it("case 107: one call without reasoning, maxTokens 2048, P_SYSTEM, exact prompt; preamble + blank line + text + file tags", async () => {
    h = await harness();
    const t = tree97(h);
    server.enqueue({ kind: "text", text: "## Goal\nG1" });
    const r = await generateBranchSummary([t.b, t.c, t.d], { summarizer: model(), reserveTokens: 16384, contextWindow: 200000 });
    const [body] = server.chatRequests();
    expect(server.chatRequests()).toHaveLength(1);
    expect(body?.max_completion_tokens).toBe(2048);
    expect(body?.reasoning_effort).toBeUndefined();
    expect(body?.messages[0]).toEqual({ role: "system", content: P.SYSTEM });
    expect(userPrompt(body)).toBe(
      '<conversation>\n[Assistant]: B\n\n[Assistant tool calls]: read(path="r.ts")\n\n[User]: C\n\n[Assistant]: D\n\n[Assistant tool calls]: write(path="w.ts", content="z")\n</conversation>\n\n' + P.BRANCH,
    );
    expect(r).toEqual({ summary: P.PREAMBLE + "\n\n## Goal\nG1" + FILES(["r.ts"], ["w.ts"]), readFiles: ["r.ts"], modifiedFiles: ["w.ts"], offline: false });
  });

  it("case 108: custom instructions replace the prompt", async () => {
    h = await harness();
    const t = tree97(h);
    server.enqueue({ kind: "text", text: "x" });
    await generateBranchSummary([t.b, t.c, t.d], { summarizer: model(), reserveTokens: 16384, contextWindow: 200000, customInstructions: "Only 3 words" });
    expect(userPrompt(server.chatRequests()[0]).endsWith("</conversation>\n\nOnly 3 words")).toBe(true);
  });

  it("case 109: outcomes (aborted, error, error without message, no content, empty output)", async () => {
    h = await harness();
    const t = tree97(h);
    const opts = { reserveTokens: 16384, contextWindow: 200000 };
    const fixed = (r: { text: string; stopReason: "stop" | "error" | "aborted"; errorMessage?: string }) => ({ kind: "openai" as const, label: "m", complete: async () => r });
    expect(await generateBranchSummary([t.b], { ...opts, summarizer: fixed({ text: "", stopReason: "aborted" }) })).toEqual({ aborted: true });
    expect(await generateBranchSummary([t.b], { ...opts, summarizer: fixed({ text: "", stopReason: "error", errorMessage: "boom" }) })).toEqual({ error: "boom" });
    expect(await generateBranchSummary([t.b], { ...opts, summarizer: fixed({ text: "", stopReason: "error" }) })).toEqual({ error: "Summarization failed" });
    expect(await generateBranchSummary([], { ...opts, summarizer: model() })).toEqual({ summary: NO_CONTENT_TO_SUMMARIZE, readFiles: [], modifiedFiles: [], offline: false });
    expect(server.requests).toHaveLength(0);
    const empty = await generateBranchSummary([t.b, t.c, t.d], { ...opts, summarizer: fixed({ text: "", stopReason: "stop" }) });
    expect(empty.summary).toBe(P.PREAMBLE + "\n\n" + FILES(["r.ts"], ["w.ts"]));
  });

  it("case 110: the budget is contextWindow - branchSummary.reserveTokens (128000 when the window is unknown)", async () => {
    h = await harness();
    // a message of 150000 estimated tokens fits 183616 but not 111616
    const [big, small] = h.add(N.U(600000), N.A("tail"));
    const fits = await generateBranchSummary([big as SessionEntry, small as SessionEntry], { summarizer: { kind: "offline", label: "x", complete: async (_s, p) => ({ text: String(p.length), stopReason: "stop" }) }, reserveTokens: 16384, contextWindow: 200000 });
    const cut = await generateBranchSummary([big as SessionEntry, small as SessionEntry], { summarizer: { kind: "offline", label: "x", complete: async (_s, p) => ({ text: String(p.length), stopReason: "stop" }) }, reserveTokens: 16384, contextWindow: 0 });
    expect(Number(fits.summary?.split("\n\n")[1])).toBeGreaterThan(600000);
    expect(Number(cut.summary?.split("\n\n")[1])).toBeLessThan(1000);
  });
});

describe("M. navigateTree (cases 111-119)", () => {
  async function conversation(extra = false) {
    h = await harness({ settings: modelSettings(server) });
    const ids = h.add(N.U("First message"), N.A("a1"), N.U("u2"), N.A("a2"), ...(extra ? [N.U("u3"), N.A("a3")] : [])).map((e) => e.id);
    return ids;
  }

  it("case 111: navigate to the root user message without summary", async () => {
    const [u1] = await conversation();
    const before = h!.store.loadEntries(h!.sessionId).length;
    const r = await h!.engine.navigateTree(h!.sessionId, u1 as string, { summarize: false });
    expect(r).toEqual({ cancelled: false, editorText: "First message", leafId: null });
    expect(h!.store.getLeaf(h!.sessionId)).toBeNull();
    expect(h!.store.loadEntries(h!.sessionId)).toHaveLength(before);
    expect(buildSessionContext(h!.store.loadEntries(h!.sessionId), null).messages).toEqual([]);
  });

  it("case 112: navigate to an assistant message without summary", async () => {
    const [, a1] = await conversation();
    const r = await h!.engine.navigateTree(h!.sessionId, a1 as string, { summarize: false });
    expect(r.editorText).toBeUndefined();
    expect(h!.store.getLeaf(h!.sessionId)).toBe(a1);
    expect(h!.store.loadEntries(h!.sessionId)).toHaveLength(4);
  });

  it("case 113: root user with summary: entry at the root, fromId root, editor text; summarized [a1, u2, a2]", async () => {
    const [u1] = await conversation();
    server.enqueue({ kind: "text", text: "SUM" });
    const r = await h!.engine.navigateTree(h!.sessionId, u1 as string, { summarize: true });
    const s = r.summaryEntry as BranchSummaryEntry;
    expect(s).toMatchObject({ type: "branch_summary", parentId: null, fromId: "root", fromExtension: false, details: { readFiles: [], modifiedFiles: [] }, summary: P.PREAMBLE + "\n\nSUM" });
    expect(h!.store.getLeaf(h!.sessionId)).toBe(s.id);
    expect(r.editorText).toBe("First message");
    expect(userPrompt(server.chatRequests()[0])).toBe(`<conversation>\n[Assistant]: a1\n\n[User]: u2\n\n[Assistant]: a2\n</conversation>\n\n${P.BRANCH}`);
    expect(eventsOf(h!, "branch_summary_end")[0]).toMatchObject({ cancelled: false, aborted: false, summaryEntry: s });
  });

  it("case 114: nested user with summary: the summary becomes a sibling of the target", async () => {
    const [, a1, u2] = await conversation(true);
    server.enqueue({ kind: "text", text: "SUM" });
    const r = await h!.engine.navigateTree(h!.sessionId, u2 as string, { summarize: true });
    expect(r.summaryEntry?.parentId).toBe(a1);
    expect(r.editorText).toBe("u2");
    const children = h!.store.loadEntries(h!.sessionId).filter((e) => e.parentId === a1).map((e) => e.type);
    expect(children.sort()).toEqual(["branch_summary", "message"]);
  });

  it("case 115: assistant target with summary: attached under the target, no editor text", async () => {
    const [, a1] = await conversation();
    server.enqueue({ kind: "text", text: "SUM" });
    const r = await h!.engine.navigateTree(h!.sessionId, a1 as string, { summarize: true });
    expect(r.summaryEntry?.parentId).toBe(a1);
    expect(h!.store.getLeaf(h!.sessionId)).toBe(r.summaryEntry?.id);
    expect(r.editorText).toBeUndefined();
  });

  it("case 116: abortBranchSummary during the model call cancels; nothing changes; the HTTP request is aborted", async () => {
    const [, a1] = await conversation();
    const leaf = h!.store.getLeaf(h!.sessionId);
    server.enqueue({ kind: "hang" });
    const pending = h!.engine.navigateTree(h!.sessionId, a1 as string, { summarize: true });
    await server.waitForRequests(1);
    h!.engine.abortBranchSummary(h!.sessionId);
    expect(await pending).toEqual({ cancelled: true, aborted: true, leafId: leaf });
    expect(h!.store.loadEntries(h!.sessionId)).toHaveLength(4);
    expect(h!.store.getLeaf(h!.sessionId)).toBe(leaf);
    // the server sees the request's connection close when it does (not within a set time)
    await expect.poll(() => server.requests[0]?.aborted, { timeout: 10_000 }).toBe(true);
  });

  it("case 117: navigating to the current leaf changes nothing and fires no hooks", async () => {
    const ids = await conversation();
    let fired = 0;
    h!.engine.registerHooks({ session_before_tree: () => void fired++, session_tree: () => void fired++ });
    const r = await h!.engine.navigateTree(h!.sessionId, ids[3] as string, { summarize: true });
    expect(r).toEqual({ cancelled: false, leafId: ids[3] });
    expect(fired).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("case 118: session_before_tree cancel / custom summary (ignored without summarize) / session_tree payloads", async () => {
    const [, a1, , a2] = await conversation();
    const trees: SessionTreeEvent[] = [];
    const off = h!.engine.registerHooks({ session_before_tree: () => ({ cancel: true }) });
    expect(await h!.engine.navigateTree(h!.sessionId, a1 as string, { summarize: true })).toEqual({ cancelled: true, leafId: a2 });
    expect(h!.store.getLeaf(h!.sessionId)).toBe(a2);
    off();
    h!.engine.registerHooks({ session_before_tree: () => ({ summary: { summary: "H", details: { k: 1 } } }), session_tree: (e) => void trees.push(e) });
    // (b) ignored without summarize
    const plain = await h!.engine.navigateTree(h!.sessionId, a1 as string, { summarize: false });
    expect(plain.summaryEntry).toBeUndefined();
    expect(trees[0]).toEqual({ type: "session_tree", newLeafId: a1, oldLeafId: a2 });
    expect(trees[0]?.fromExtension).toBeUndefined(); // (d)
    // (c) used with summarize: no model call
    h!.store.setLeaf(h!.sessionId, a2 as string);
    const r = await h!.engine.navigateTree(h!.sessionId, a1 as string, { summarize: true });
    expect(server.requests).toHaveLength(0);
    expect(r.summaryEntry).toMatchObject({ summary: "H", details: { k: 1 }, fromExtension: true });
    expect(trees[1]).toEqual({ type: "session_tree", newLeafId: r.summaryEntry?.id, oldLeafId: a2, summaryEntry: r.summaryEntry, fromExtension: true });
  });

  it("case 119: summarize with nothing abandoned: no call, no entry, leaf moved to the descendant", async () => {
    const [, a1, , a2] = await conversation();
    h!.store.setLeaf(h!.sessionId, a1 as string);
    const r = await h!.engine.navigateTree(h!.sessionId, a2 as string, { summarize: true });
    expect(r).toEqual({ cancelled: false, leafId: a2 });
    expect(server.requests).toHaveLength(0);
    expect(h!.store.loadEntries(h!.sessionId)).toHaveLength(4);
  });

  it("cases 97/107 end to end: D -> F attaches the summary of [B, C, D] under E (F is a user message)", async () => {
    h = await harness({ settings: modelSettings(server) });
    const t = tree97(h);
    server.enqueue({ kind: "text", text: "## Goal\nG1" });
    const r = await h.engine.navigateTree(h.sessionId, t.f.id, { summarize: true });
    expect(r.summaryEntry).toMatchObject({ parentId: t.e.id, fromId: t.e.id, details: { readFiles: ["r.ts"], modifiedFiles: ["w.ts"] } });
    expect(r.editorText).toBe("F");
  });

  it("unknown target and offline summaries", async () => {
    h = await harness();
    const [u1] = h.add(N.U("First message"), N.A("a1"), N.U("u2"), N.AT(["edit", { path: "x.ts" }]));
    await expect(h.engine.navigateTree(h.sessionId, "nope", {})).rejects.toThrow("Entry nope not found");
    const r = await h.engine.navigateTree(h.sessionId, (u1 as SessionEntry).id, { summarize: true });
    expect(r.summaryEntry?.details).toEqual({ readFiles: [], modifiedFiles: ["x.ts"], summarizer: "offline" });
    expect(r.summaryEntry?.summary).toContain("## Goal");
  });
});
