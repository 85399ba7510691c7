import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessage, CompactionEntry, MessageEntry, SessionEntry, UserMessage } from "@bonsai/core";
import { useMockOpenAiServer, type ChatReply, type ChatRequestBody, type MockOpenAiServer } from "@bonsai/testkit";
import { AUTO_CONTINUE_TEXT, CancelledError, RefusedByHookError, SessionBusyError, StaleCompactionError, type HookHandlers } from "../src/index";
import { eventsOf, harness, modelSettings, type Harness } from "./harness";
import { assistant, N, P, userPrompt, usageOf, xs } from "./support";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
let server: MockOpenAiServer;
let h: Harness | undefined;
beforeEach(() => {
  server = mock();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** turns (streamed) answer `turn`; summarization calls answer by kind */
function replies(turn: (b: ChatRequestBody) => ChatReply, summary: (b: ChatRequestBody) => ChatReply = () => ({ kind: "text", text: "SUMMARY" })) {
  server.setChatFallback((b) => (b.stream ? turn(b) : summary(b)));
}
const reply = (text: string, total = 150, extra: Partial<Extract<ChatReply, { kind: "text" }>> = {}): ChatReply => ({
  kind: "text",
  text,
  usage: { prompt_tokens: total - 10, completion_tokens: 10 },
  ...extra,
});
/** an assistant message of the configured model, as prompt() would have stored it */
const ours = (extra: Parameters<typeof assistant>[1]) => ({ type: "message", message: assistant([{ type: "text", text: "earlier" }], { provider: "openai", model: "mock-model", timestamp: Date.now(), ...extra }) });

function hookLog(h: Harness, log: string[], handlers: Partial<HookHandlers> = {}) {
  h.engine.registerHooks({
    session_before_compact: (e, c) => (log.push("hook:session_before_compact"), handlers.session_before_compact?.(e, c)),
    "session.compacting": (e, c) => (log.push("hook:session.compacting"), handlers["session.compacting"]?.(e, c)),
    session_compact: (e, c) => (log.push("hook:session_compact"), handlers.session_compact?.(e, c)),
  });
  h.engine.onAny((name) => log.push(name));
}

const userMessages = (h: Harness) =>
  h.store.loadEntries(h.sessionId).filter((e): e is MessageEntry => e.type === "message" && e.message.role === "user").map((e) => e.message as UserMessage);

describe("N. threshold trigger", () => {
  it("case 121: 183616 tokens do not compact; 183617 run the whole sequence and the synthetic continue prompt", async () => {
    h = await harness({ settings: modelSettings(server) });
    replies(() => reply("fine", 183616));
    await h.engine.prompt(h.sessionId, "hello");
    expect(h.names()).not.toContain("auto_compaction_start");

    const log: string[] = [];
    hookLog(h, log);
    let turns = 0;
    replies(() => reply(turns++ === 0 ? "big" : "continued", turns === 1 ? 183617 : 200));
    await h.engine.prompt(h.sessionId, "more");
    const seq = log.filter((n) => n.startsWith("hook:") || ["auto_compaction_start", "auto_compaction_end", "turn_start"].includes(n));
    expect(seq).toEqual([
      "turn_start",
      "auto_compaction_start",
      "hook:session_before_compact",
      "hook:session.compacting",
      "hook:session_compact",
      "auto_compaction_end",
      "turn_start",
    ]);
    expect(eventsOf(h, "auto_compaction_start")).toEqual([{ sessionId: h.sessionId, reason: "threshold" }]);
    const end = eventsOf(h, "auto_compaction_end")[0];
    expect(end).toMatchObject({ reason: "threshold", aborted: false, willRetry: false });
    expect(end?.result?.summary).toBeTruthy();
    const last = userMessages(h).at(-1);
    expect(last).toMatchObject({ content: [{ type: "text", text: AUTO_CONTINUE_TEXT }], synthetic: true });
    // case 139 (Bonsai deviation 2): the continue prompt does not trigger a second compaction
    expect(eventsOf(h, "auto_compaction_start")).toHaveLength(1);
  });

  it("case 122: autoContinue false with a hook compaction: no continue prompt", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { autoContinue: false } }) });
    h.engine.registerHooks({ session_before_compact: (e) => ({ compaction: { summary: "compacted", firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: e.preparation.tokensBefore, details: {} } }) });
    replies(() => reply("big", 191000));
    await h.engine.prompt(h.sessionId, "hello");
    expect(eventsOf(h, "auto_compaction_end")[0]?.result?.summary).toBe("compacted");
    expect(userMessages(h).map((m) => m.content)).toEqual([[{ type: "text", text: "hello" }]]);
  });

  it("case 123: pruning lowers the threshold input (200000 - 24991 = 175009: no compaction; pruned in place)", async () => {
    h = await harness({ settings: modelSettings(server) });
    h.add(N.U("q"), N.T(100000, "bash"), N.T(100000, "read"), N.T(100000, "skill"), N.T(160000, "bash"), N.T(80000, "bash"));
    replies(() => reply("ok", 200000));
    await h.engine.prompt(h.sessionId, "go on");
    expect(eventsOf(h, "pruning_done")[0]).toMatchObject({ prunedCount: 1, tokensSaved: 24991, dryRun: false });
    expect(h.names()).not.toContain("auto_compaction_start");
    expect(h.store.listPruned(h.sessionId)).toHaveLength(1);
  });

  it("Bonsai deviation 10: savings outside the live context do not lower the threshold input", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { autoContinue: false } }) });
    const [first] = h.add(N.U("q"), N.T(100000, "bash"), N.T(160000, "bash"), N.T(80000, "bash"));
    const kept = h.add(N.U("after"));
    h.add(N.C("old summary", (kept[0] as SessionEntry).id));
    void first;
    replies(() => reply("ok", 200000));
    await h.engine.prompt(h.sessionId, "go on");
    expect(eventsOf(h, "pruning_done")[0]).toMatchObject({ prunedCount: 1, tokensSaved: 24991 });
    expect(eventsOf(h, "auto_compaction_start")).toEqual([{ sessionId: h.sessionId, reason: "threshold" }]);
  });

  it("case 127: an aborted turn runs no compaction; the pre-prompt check does evaluate an aborted message", async () => {
    h = await harness({ settings: modelSettings(server) });
    server.enqueue({ kind: "stream-then-hang", chunks: ["par"] });
    const stop = h.engine.on("turn_delta", () => h?.engine.abortTurn(h.sessionId));
    const r = await h.engine.prompt(h.sessionId, "hello");
    stop();
    expect(r.message.stopReason).toBe("aborted");
    expect(h.names()).not.toContain("auto_compaction_start");

    h.add(ours({ stopReason: "aborted", usage: usageOf(190000) }));
    replies(() => reply("ok"));
    await h.engine.prompt(h.sessionId, "again");
    expect(eventsOf(h, "auto_compaction_start")).toEqual([{ sessionId: h.sessionId, reason: "threshold" }]);
    expect(userMessages(h).some((m) => m.synthetic)).toBe(false); // B-E2: no continue prompt before the user's
  });

  it("Bonsai settings: thresholdTokens replaces window − reserve; thresholdPercent is of the window", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { autoContinue: false, thresholdTokens: 100000 } }) });
    replies(() => reply("fine", 100000));
    await h.engine.prompt(h.sessionId, "hello");
    expect(h.names()).not.toContain("auto_compaction_start");
    replies(() => reply("big", 100001));
    await h.engine.prompt(h.sessionId, "more");
    expect(eventsOf(h, "auto_compaction_start")).toEqual([{ sessionId: h.sessionId, reason: "threshold" }]);
    await h.close();
    h = await harness({ settings: modelSettings(server, { compaction: { autoContinue: false, thresholdPercent: 40 } }) });
    replies(() => reply("big", 80001));
    await h.engine.prompt(h.sessionId, "hello");
    expect(eventsOf(h, "auto_compaction_start")).toHaveLength(1);
  });

  it("Bonsai settings: pruning off prunes nothing; its protect and minimum values are the policy", async () => {
    const big = [N.U("q"), N.T(100000, "bash"), N.T(100000, "bash"), N.T(160000, "bash"), N.T(80000, "bash")];
    h = await harness({ settings: modelSettings(server, { pruning: { enabled: false } }) });
    h.add(...big);
    replies(() => reply("ok", 1000));
    await h.engine.prompt(h.sessionId, "go on");
    expect(h.names()).not.toContain("pruning_done");
    await h.close();
    // protect 10,000: the 40,000- and 20,000-token results become prunable as well
    h = await harness({ settings: modelSettings(server, { pruning: { protectTokens: 10000, minimumSavings: 1000 } }) });
    h.add(...big);
    await h.engine.prompt(h.sessionId, "go on");
    expect(eventsOf(h, "pruning_done")[0]).toMatchObject({ prunedCount: 3, dryRun: false });
  });

  it("compaction.enabled false: no pruning and no automatic compaction (manual still works)", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { enabled: false, keepRecentTokens: 1000 } }) });
    h.add(N.U("q"), N.T(100000, "bash"), N.T(160000, "bash"), N.T(80000, "bash"), N.A(400));
    replies(() => reply("big", 199000));
    await h.engine.prompt(h.sessionId, "go");
    expect(h.names().filter((n) => n === "pruning_done" || n === "auto_compaction_start")).toEqual([]);
    expect((await h.engine.compact(h.sessionId)).entry?.type).toBe("compaction");
  });

  it("case 139 (Bonsai deviation 2): a stale usage before the latest compaction triggers nothing", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { autoContinue: false } }) });
    replies(() => reply("big", 190000));
    await h.engine.prompt(h.sessionId, "hello");
    expect(eventsOf(h, "auto_compaction_start")).toHaveLength(1);
    expect(h.store.getPath(h.sessionId).at(-1)?.type).toBe("compaction");
    replies(() => reply("small", 300));
    await h.engine.prompt(h.sessionId, "next");
    expect(eventsOf(h, "auto_compaction_start")).toHaveLength(1);
    expect(eventsOf(h, "auto_compaction_end").filter((e) => !e.result)).toHaveLength(0);
  });
});

describe("N. overflow recovery", () => {
  it("case 124: an overflow error compacts with reason overflow, willRetry true, and the turn is retried", async () => {
    h = await harness({ settings: modelSettings(server) });
    h.add(N.U(8000), ours({ usage: usageOf(5000) }));
    server.enqueue({ kind: "overflow" });
    replies(() => reply("RETRIED", 400));
    const r = await h.engine.prompt(h.sessionId, "question");
    expect(eventsOf(h, "auto_compaction_start")).toEqual([{ sessionId: h.sessionId, reason: "overflow" }]);
    expect(eventsOf(h, "auto_compaction_end")[0]).toMatchObject({ aborted: false, willRetry: true });
    expect(r.message.content).toEqual([{ type: "text", text: "RETRIED" }]);
    // the failed reply stays in the session; no continue prompt
    const stored = h.store.loadEntries(h.sessionId).filter((e): e is MessageEntry => e.type === "message" && e.message.role === "assistant").map((e) => (e.message as AssistantMessage).stopReason);
    expect(stored).toEqual(["stop", "error", "stop"]);
    expect(userMessages(h).some((m) => m.synthetic)).toBe(false);
    // the retried request starts with the compaction summary and does not repeat the failed reply
    const retried = server.chatRequests().filter((b) => b.stream).at(-1);
    expect(String(retried?.messages[1]?.content)).toContain("<summary>");
  });

  it("Bonsai deviation 7: a silent overflow compacts without retrying the successful reply", async () => {
    h = await harness({ settings: modelSettings(server) });
    replies(() => reply("ok", 10, { usage: { prompt_tokens: 210000, completion_tokens: 10 } }));
    const r = await h.engine.prompt(h.sessionId, "question");
    expect(eventsOf(h, "auto_compaction_end")[0]).toMatchObject({ reason: "overflow", willRetry: true });
    expect(r.message.stopReason).toBe("stop");
    expect(server.chatRequests().filter((b) => b.stream)).toHaveLength(1);
  });

  it("case 125: an overflow of another model compacts nothing", async () => {
    h = await harness({ settings: modelSettings(server) });
    h.add(N.U("x"), { type: "message", message: assistant([], { stopReason: "error", errorMessage: "prompt is too long: 213462 tokens > 200000 maximum", timestamp: Date.now() }) });
    replies(() => reply("ok"));
    await h.engine.prompt(h.sessionId, "next");
    expect(h.names()).not.toContain("auto_compaction_start");
  });

  it("case 126: an overflow error older than the compaction compacts nothing", async () => {
    h = await harness({ settings: modelSettings(server) });
    const [u] = h.add(N.U("a"), N.A("b"));
    h.add(N.C("S", (u as SessionEntry).id), N.U("c"), ours({ stopReason: "error", errorMessage: "prompt is too long", timestamp: Date.now() - 60_000 }));
    replies(() => reply("ok"));
    await h.engine.prompt(h.sessionId, "next");
    expect(h.names()).not.toContain("auto_compaction_start");
  });

  it("Bonsai deviation 3: an overflow error older than the latest (not the oldest) compaction compacts nothing", async () => {
    h = await harness({ settings: modelSettings(server) });
    const [a] = h.add(N.U("a"), N.A("b"));
    h.add(N.C("C1", (a as SessionEntry).id));
    await new Promise((r) => setTimeout(r, 5));
    const [c] = h.add(N.U("c"), ours({ stopReason: "error", errorMessage: "prompt is too long: 213462 tokens > 200000 maximum", timestamp: Date.now() }));
    await new Promise((r) => setTimeout(r, 5));
    h.add(N.C("C2", (c as SessionEntry).id));
    replies(() => reply("ok"));
    await h.engine.prompt(h.sessionId, "next");
    expect(h.names()).not.toContain("auto_compaction_start");
  });

  it("case 128: a retryable error retries the turn (auto_retry_start) without a compaction check", async () => {
    h = await harness({ settings: modelSettings(server) });
    server.enqueue({ kind: "error", status: 503, message: "service unavailable" });
    replies(() => reply("ok"));
    const r = await h.engine.prompt(h.sessionId, "hello");
    expect(eventsOf(h, "auto_retry_start")).toEqual([{ sessionId: h.sessionId, scope: "turn", attempt: 1, maxAttempts: 3, delayMs: 1, errorMessage: "503 service unavailable" }]);
    expect(eventsOf(h, "auto_retry_end")[0]).toMatchObject({ success: true, attempt: 1 });
    expect(r.message.stopReason).toBe("stop");
    expect(h.names()).not.toContain("auto_compaction_start");
  });
});

describe("N. candidates, failures, manual compaction", () => {
  it("case 129: the first candidate fails 4 times (delays 1, 2, 4 ms), the second succeeds", async () => {
    h = await harness({ settings: modelSettings(server, { model: { fallbackModels: ["model-b"] }, compaction: { autoContinue: false } }) });
    h.add(N.U("hello"), ours({ usage: usageOf(190000) }));
    for (let i = 0; i < 4; i++) server.enqueue({ kind: "error", status: 503, message: "service unavailable", model: "mock-model" });
    replies(() => reply("ok"));
    await h.engine.prompt(h.sessionId, "next");
    expect(eventsOf(h, "auto_retry_start").map((e) => [e.scope, e.candidate, e.delayMs])).toEqual([
      ["compaction", "mock-model", 1],
      ["compaction", "mock-model", 2],
      ["compaction", "mock-model", 4],
    ]);
    const models = server.chatRequests().filter((b) => !b.stream).map((b) => b.model);
    expect(models.slice(0, 4)).toEqual(["mock-model", "mock-model", "mock-model", "mock-model"]);
    expect(new Set(models.slice(4))).toEqual(new Set(["model-b"]));
    expect(eventsOf(h, "auto_compaction_end")[0]?.result).toBeDefined();
  });

  it("case 130: failure messages for threshold and overflow; no available model", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { autoContinue: false, keepRecentTokens: 1000 } }) });
    h.add(N.U(8000), N.A(800), N.U(8000), N.A(800));
    const failAllButPrefix = (b: ChatRequestBody): ChatReply => (userPrompt(b).endsWith(P.TURN_PREFIX) ? { kind: "text", text: "prefix" } : { kind: "error", status: 400, message: "boom" });
    replies(() => reply(xs(400), 190000), failAllButPrefix);
    await h.engine.prompt(h.sessionId, "hello");
    expect(eventsOf(h, "auto_compaction_end")[0]).toEqual({ sessionId: h.sessionId, reason: "threshold", result: undefined, aborted: false, willRetry: false, errorMessage: "Auto-compaction failed: Summarization failed: 400 boom" });
    await h.close();

    h = await harness({ settings: modelSettings(server, { compaction: { keepRecentTokens: 1000 } }) });
    h.add(N.U(8000), N.A(800), N.U(8000), N.A(800));
    replies(() => ({ kind: "overflow" }), failAllButPrefix);
    const r = await h.engine.prompt(h.sessionId, "hello");
    expect(eventsOf(h, "auto_compaction_end")[0]?.errorMessage).toBe("Context overflow recovery failed: Summarization failed: 400 boom");
    expect(r.message.stopReason).toBe("error");
    await h.close();

    h = await harness({ settings: modelSettings(server, { model: { baseUrl: "https://models.example.invalid/v1" } }), env: {} });
    h.add(N.U("hello"), ours({ usage: usageOf(190000) }));
    const before = h.store.loadEntries(h.sessionId).length;
    await expect(h.engine.prompt(h.sessionId, "next")).rejects.toThrow("No API key for mock-model");
    expect(h.store.loadEntries(h.sessionId)).toHaveLength(before); // nothing appended
    expect(eventsOf(h, "auto_compaction_end")[0]?.errorMessage).toBe("Auto-compaction failed: Compaction failed: no available model");
  });

  it("case 131: manual errors: Already compacted, Nothing to compact, Compaction cancelled (no session_compact)", async () => {
    h = await harness({ settings: modelSettings(server) });
    await expect(h.engine.compact(h.sessionId)).rejects.toThrow("Nothing to compact (session too small)");
    const [u] = h.add(N.U("a"), N.A("b"));
    h.add(N.C("S", (u as SessionEntry).id));
    await expect(h.engine.compact(h.sessionId)).rejects.toThrow("Already compacted");
    h.add(N.U("c"), N.A("d"));
    let after = 0;
    h.engine.registerHooks({ session_before_compact: () => ({ cancel: true }), session_compact: () => void after++ });
    await expect(h.engine.compact(h.sessionId)).rejects.toThrow("Compaction cancelled");
    expect(after).toBe(0);
    expect(h.store.getPath(h.sessionId).at(-1)?.type).toBe("message");
  });

  it("case 137: manual compaction emits no auto events and returns the whole result", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { keepRecentTokens: 1000 } }) });
    h.add(N.U(4000), N.A(400), N.U(4000), N.A(400));
    replies(() => reply("x"), (b) => ({ kind: "text", text: userPrompt(b).endsWith(P.SHORT) ? "SHORT" : "LONG" }));
    const r = await h.engine.compact(h.sessionId, { instructions: "  keep it brief " });
    expect(h.names().filter((n) => n.startsWith("auto_"))).toEqual([]);
    expect(r.result).toMatchObject({ summary: "LONG", shortSummary: "SHORT", tokensBefore: 0, details: { readFiles: [], modifiedFiles: [] } });
    expect(r.entry).toMatchObject({ type: "compaction", summary: "LONG", fromExtension: false, firstKeptEntryId: r.result.firstKeptEntryId });
    expect(userPrompt(server.chatRequests()[0]).endsWith("\n\nAdditional focus: keep it brief")).toBe(true);
    expect(eventsOf(h, "compaction_end")[0]).toMatchObject({ reason: "manual", aborted: false, dryRun: false });
  });
});

describe("N. hooks", () => {
  async function compactable() {
    h = await harness({ settings: modelSettings(server, { compaction: { keepRecentTokens: 1000 } }) });
    h.add(N.U(4000), N.AT(["read", { path: "a.ts" }]), N.T("r"), N.U(4000), N.A(400));
    replies(() => reply("x"));
    return h;
  }

  it("case 132: a hook-supplied compaction is used as-is, no model call, no session.compacting", async () => {
    await compactable();
    const compacting: unknown[] = [];
    const saved: { fromExtension: boolean; compactionEntry: CompactionEntry }[] = [];
    h!.engine.registerHooks({
      session_before_compact: (e) => ({ compaction: { summary: "Custom summary from hook", firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: 999 } }),
      "session.compacting": (e) => void compacting.push(e),
      session_compact: (e) => void saved.push(e),
    });
    const r = await h!.engine.compact(h!.sessionId);
    expect(r.result).toEqual({ summary: "Custom summary from hook", firstKeptEntryId: r.result.firstKeptEntryId, tokensBefore: 999 });
    expect(r.entry).toMatchObject({ summary: "Custom summary from hook", tokensBefore: 999, fromExtension: true });
    expect(saved[0]?.fromExtension).toBe(true);
    expect(compacting).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("case 133: a throwing hook is reported; the default compaction runs with fromExtension false", async () => {
    await compactable();
    const saved: boolean[] = [];
    h!.engine.registerHooks({ session_before_compact: () => { throw new Error("hook broke"); }, session_compact: (e) => void saved.push(e.fromExtension) }, "my-hook");
    const r = await h!.engine.compact(h!.sessionId);
    expect(eventsOf(h!, "hook_error")).toEqual([{ source: "my-hook", event: "session_before_compact", error: "hook broke" }]);
    expect(r.entry?.fromExtension).toBe(false);
    expect(saved).toEqual([false]);
  });

  it("case 134: handlers run in registration order", async () => {
    await compactable();
    const order: string[] = [];
    h!.engine.registerHooks({ session_before_compact: () => void order.push("hook1-before"), session_compact: () => void order.push("hook1-after") });
    h!.engine.registerHooks({ session_before_compact: () => void order.push("hook2-before"), session_compact: () => void order.push("hook2-after") });
    await h!.engine.compact(h!.sessionId);
    expect(order).toEqual(["hook1-before", "hook2-before", "hook1-after", "hook2-after"]);
  });

  it("case 135: the last truthy result wins; cancel stops at once", async () => {
    await compactable();
    let second = 0;
    const off1 = h!.engine.registerHooks({ session_before_compact: (e) => ({ compaction: { summary: "X", firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: 1 } }) });
    const off2 = h!.engine.registerHooks({ session_before_compact: () => ({}) });
    const r = await h!.engine.compact(h!.sessionId);
    expect(r.fromExtension).toBe(false);
    expect(r.result.summary).not.toBe("X");
    off1();
    off2();
    h!.add(N.U("more"), N.A("text"));
    h!.engine.registerHooks({ session_before_compact: () => ({ cancel: true }) });
    h!.engine.registerHooks({ session_before_compact: () => void second++ });
    const refused = h!.engine.compact(h!.sessionId);
    await expect(refused).rejects.toThrow("Compaction cancelled");
    await expect(refused).rejects.toBeInstanceOf(RefusedByHookError);
    expect(second).toBe(0);
  });

  it("case 136: session.compacting prompt / context / preserveData", async () => {
    await compactable();
    let messages = 0;
    h!.engine.registerHooks({ "session.compacting": (e) => ((messages = e.messages.length), { prompt: "OVR", context: ["c1"], preserveData: { k: 1 } }) });
    const r = await h!.engine.compact(h!.sessionId);
    const [history, short] = server.chatRequests();
    expect(userPrompt(history).endsWith("<additional-context>\n- c1\n</additional-context>\n\nOVR")).toBe(true);
    expect(userPrompt(short)).toContain("<additional-context>\n- c1\n</additional-context>\n\n" + P.SHORT);
    expect(r.entry?.preserveData).toEqual({ k: 1 });
    expect(r.result.preserveData).toEqual({ k: 1 });
    expect(messages).toBeGreaterThan(0);
  });

  it("case 138 (Bonsai deviation 6): session_compact gets the entry just appended, even with an identical older summary", async () => {
    h = await harness();
    h.add(N.U("hello"), N.A("hi"));
    const first = await h.engine.compact(h.sessionId);
    h.add(N.U("again"), N.A("yes"));
    const seen: string[] = [];
    h.engine.registerHooks({ session_before_compact: (e) => ({ compaction: { summary: first.result.summary, firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: 1 } }), session_compact: (e) => void seen.push(e.compactionEntry.id) });
    const second = await h.engine.compact(h.sessionId);
    expect(second.entry?.id).not.toBe(first.entry?.id);
    expect(seen).toEqual([second.entry?.id]);
  });

  it("user hook modules from <data dir>/hooks; a broken module is reported", async () => {
    h = await harness();
    fs.mkdirSync(path.join(h.dir, "hooks"));
    fs.writeFileSync(path.join(h.dir, "hooks", "a-summary.mjs"), `export default (bonsai) => bonsai.on("session_before_compact", (e) => ({ compaction: { summary: "from a module", firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: 5 } }));\n`);
    fs.writeFileSync(path.join(h.dir, "hooks", "b-broken.mjs"), `export default 42;\n`);
    const loaded = await h.engine.loadUserHooks();
    expect(loaded.map((f) => path.basename(f))).toEqual(["a-summary.mjs"]);
    expect(eventsOf(h, "hook_error")[0]).toMatchObject({ event: "load", source: path.join(h.dir, "hooks", "b-broken.mjs") });
    h.add(N.U("hello"), N.A("hi"));
    expect((await h.engine.compact(h.sessionId)).entry).toMatchObject({ summary: "from a module", fromExtension: true });
  });
});

describe("case 96: pruning persistence", () => {
  it("a pruning that prunes rewrites the source file (originals kept, restorable); one that prunes nothing writes nothing", async () => {
    h = await harness();
    const file = path.join(h.dir, "s.jsonl");
    const t = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
    const lines = [
      { type: "session", version: 3, id: "sess-1", timestamp: t(0), cwd: "/p" },
      { type: "message", id: "a1", parentId: null, timestamp: t(1), message: { role: "user", content: "q", timestamp: 1 } },
      { type: "message", id: "a2", parentId: "a1", timestamp: t(2), message: { role: "toolResult", toolCallId: "c", toolName: "bash", content: [{ type: "text", text: xs(100000) }], isError: false, timestamp: 2 } },
      { type: "message", id: "a3", parentId: "a2", timestamp: t(3), message: { role: "toolResult", toolCallId: "c", toolName: "bash", content: [{ type: "text", text: xs(160000) }], isError: false, timestamp: 3 } },
    ];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const report = await h.store.importFile(file);
    const sid = report.sessionId as string;
    const none = await h.engine.pruneToolOutputs(sid, { dryRun: true });
    expect(none).toMatchObject({ prunedCount: 1, tokensSaved: 24991, dryRun: true });
    expect(fs.readFileSync(file, "utf8")).not.toContain("[Output truncated");
    const done = await h.engine.pruneToolOutputs(sid);
    expect(done).toMatchObject({ prunedCount: 1, tokensSaved: 24991, entryIds: ["a2"] });
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("[Output truncated - 25000 tokens]");
    const before = fs.statSync(file).mtimeMs;
    const again = await h.engine.pruneToolOutputs(sid);
    expect(again.prunedCount).toBe(0);
    expect(fs.statSync(file).mtimeMs).toBe(before);
    expect(h.store.listPruned(sid)).toHaveLength(1);
    expect(h.store.restorePruned(sid)).toBe(1);
    expect(fs.readFileSync(file, "utf8")).not.toContain("[Output truncated");
  });
});

describe("abort at every stage", () => {
  async function session() {
    h = await harness({ settings: modelSettings(server) });
    h.add(N.U(4000), N.A(400), N.U(4000), N.A(400));
    return h;
  }
  const unchanged = (h: Harness, n: number) => expect(h.store.loadEntries(h.sessionId)).toHaveLength(n);

  it("before the model call (in a session_before_compact hook)", async () => {
    await session();
    h!.engine.registerHooks({ session_before_compact: () => void h!.engine.abortCompaction(h!.sessionId) });
    await expect(h!.engine.compact(h!.sessionId)).rejects.toThrow("Compaction cancelled");
    expect(server.requests).toHaveLength(0);
    unchanged(h!, 4);
  });

  it("during the model call (the HTTP request is cancelled)", async () => {
    await session();
    server.enqueue({ kind: "hang" });
    const pending = h!.engine.compact(h!.sessionId);
    await server.waitForRequests(1);
    h!.engine.abortCompaction();
    await expect(pending).rejects.toThrow("Compaction cancelled");
    unchanged(h!, 4);
    // the server sees the request's connection close when it does (not within a set time)
    await expect.poll(() => server.requests[0]?.aborted, { timeout: 10_000 }).toBe(true);
    expect(eventsOf(h!, "compaction_end")[0]).toMatchObject({ aborted: true, errorMessage: "Compaction cancelled" });
  });

  it("during the remote request", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { remoteEndpoint: server.remoteUrl } }) });
    h.add(N.U(4000), N.A(400), N.U(4000), N.A(400));
    server.enqueueRemote({ kind: "hang" });
    const pending = h.engine.compact(h.sessionId);
    await server.waitForRequests(1, "/remote/summarize");
    h.engine.abortCompaction(h.sessionId);
    await expect(pending).rejects.toThrow("Compaction cancelled");
    unchanged(h, 4);
  });

  it("an automatic compaction: aborted end event, session unchanged", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { autoContinue: false } }) });
    let summaryCalls = 0;
    replies(() => reply("big", 190000), () => (summaryCalls++, { kind: "hang" }));
    const pending = h.engine.prompt(h.sessionId, "hello");
    await new Promise<void>((resolve) => {
      const t = setInterval(() => summaryCalls > 0 && (clearInterval(t), resolve()), 5);
    });
    h.engine.abortCompaction();
    await pending;
    expect(eventsOf(h, "auto_compaction_end")[0]).toMatchObject({ result: undefined, aborted: true, willRetry: false });
    expect(h.store.getPath(h.sessionId).some((e) => e.type === "compaction")).toBe(false);
  });

  it("a manual compaction aborts the running turn first; its partial reply is not persisted", async () => {
    await session();
    server.enqueue({ kind: "stream-then-hang", chunks: ["partial"] });
    const turn = h!.engine.prompt(h!.sessionId, "question");
    await new Promise<void>((resolve) => h!.engine.on("turn_delta", () => resolve()));
    replies(() => reply("x"));
    const compaction = h!.engine.compact(h!.sessionId);
    const t = await turn;
    expect(t.message.stopReason).toBe("aborted");
    expect(t.assistantEntryId).toBeUndefined();
    await compaction;
    const types = h!.store.getPath(h!.sessionId).map((e) => (e.type === "message" ? e.message.role : e.type));
    expect(types).toEqual(["user", "assistant", "user", "assistant", "user", "compaction"]);
  });
});

describe("dry run, commit, concurrency, settings", () => {
  it("dry run returns the result without appending; commitCompaction appends the edited result", async () => {
    h = await harness();
    h.add(N.U(4000), N.A(400), N.U(4000), N.A(400));
    const preview = await h.engine.compact(h.sessionId, { dryRun: true });
    expect(preview.entry).toBeUndefined();
    expect(h.store.loadEntries(h.sessionId)).toHaveLength(4);
    const committed = await h.engine.commitCompaction(h.sessionId, { ...preview.result, summary: "edited by the user" }, preview.leafId);
    expect(committed.entry).toMatchObject({ type: "compaction", summary: "edited by the user", fromExtension: false });
    await expect(h.engine.commitCompaction(h.sessionId, preview.result, preview.leafId)).rejects.toThrow("The session changed since the preview");
    await expect(h.engine.commitCompaction(h.sessionId, preview.result, preview.leafId)).rejects.toBeInstanceOf(StaleCompactionError);
    await expect(h.engine.commitCompaction(h.sessionId, { ...preview.result, summary: " " })).rejects.toThrow("The compaction summary is empty");
  });

  it("one compaction per session at a time; other sessions run in parallel", async () => {
    h = await harness({ settings: modelSettings(server) });
    h.add(N.U(4000), N.A(400), N.U(4000), N.A(400));
    const other = h.store.createSession({ cwd: "/q" }).id;
    for (const body of [N.U(4000), N.A(400), N.U(4000), N.A(400)]) h.store.appendEntry(other, body);
    server.enqueue({ kind: "hang" });
    const first = h.engine.compact(h.sessionId);
    await server.waitForRequests(1);
    await expect(h.engine.compact(h.sessionId)).rejects.toThrow("A compaction is already running for this session");
    await expect(h.engine.compact(h.sessionId)).rejects.toBeInstanceOf(SessionBusyError);
    replies(() => reply("x"));
    const parallel = await h.engine.compact(other);
    expect(parallel.entry?.type).toBe("compaction");
    expect(h.engine.isCompacting(h.sessionId)).toBe(true);
    h.engine.abortCompaction(h.sessionId);
    await expect(first).rejects.toThrow("Compaction cancelled");
    await expect(first).rejects.toSatisfy((e) => e instanceof CancelledError && !(e instanceof RefusedByHookError));
  });

  it("invalid stored settings: the valid fields are kept, the others fall back to defaults and are reported", async () => {
    h = await harness();
    h.store.saveSettingsJson({ compaction: { reserveTokens: "lots", keepRecentTokens: 1234 }, theme: "neon" });
    const { createEngine } = await import("../src/index");
    const engine = createEngine({ store: h.store });
    expect(engine.getSettings().compaction.keepRecentTokens).toBe(1234);
    expect(engine.getSettings().compaction.reserveTokens).toBe(16384);
    expect(engine.getSettings().theme).toBe("system");
    expect(engine.settingsLoadErrors.map((e) => e.field).sort()).toEqual(["compaction.reserveTokens", "theme"]);
    await engine.close();
  });

  it("settings: defaults, invalid values refused naming the field, persisted and changed at run time", async () => {
    h = await harness();
    expect(h.engine.getSettings().compaction).toEqual({ enabled: true, reserveTokens: 16384, keepRecentTokens: 20000, autoContinue: true, remoteEndpoint: "", thresholdTokens: 0, thresholdPercent: 0 });
    expect(h.engine.getSettings().pruning).toEqual({ enabled: true, protectTokens: 40000, minimumSavings: 20000 });
    expect(h.engine.getSettings().branchSummary).toEqual({ enabled: false, reserveTokens: 16384 });
    expect(() => h!.engine.updateSettings({ compaction: { reserveTokens: -1 } })).toThrow(/compaction\.reserveTokens/);
    expect(() => h!.engine.updateSettings({ compaction: { remoteEndpoint: "ftp://x" } })).toThrow(/compaction\.remoteEndpoint/);
    h.engine.updateSettings({ compaction: { keepRecentTokens: 1000 } });
    expect(eventsOf(h, "settings_changed")).toHaveLength(1);
    expect((h.store.getSettingsJson() as { compaction: { keepRecentTokens: number } }).compaction.keepRecentTokens).toBe(1000);
    h.add(N.U(4000), N.A(400), N.U(4000), N.A(400));
    const r = await h.engine.compact(h.sessionId, { dryRun: true });
    expect(r.result.details).toMatchObject({ summarizer: "offline" });
  });
});
