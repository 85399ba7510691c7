import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isContextOverflow, isOverflowErrorMessage, type LlmMessage } from "@bonsai/core";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import {
  OfflineSummarizer,
  OpenAiSummarizer,
  RemoteSummarizer,
  parseConversation,
  prompt,
  runWithCandidates,
  MAX_RETRY_AFTER_MS,
  ModelCallError,
  streamTurn,
  summarizeOffline,
  toChatMessages,
  type ModelFailure,
  type RetryNotice,
} from "../src/index";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
let server: MockOpenAiServer;
beforeEach(() => {
  server = mock();
});

const endpoint = () => ({ baseUrl: server.baseUrl, apiKey: "sk-test" });

describe("OpenAiSummarizer against the loopback server", () => {
  it("sends system + user prompt, max_completion_tokens and reasoning_effort, and joins text parts with \\n", async () => {
    server.enqueue({ kind: "text", text: ["Z", "W"] });
    const s = new OpenAiSummarizer(endpoint(), "model-a");
    const r = await s.complete("SYS", "PROMPT", { maxTokens: 13107, reasoning: "high" });
    expect(r).toEqual({ text: "Z\nW", stopReason: "stop", model: "model-a" });
    const [body] = server.chatRequests();
    expect(body?.model).toBe("model-a");
    expect(body?.messages).toEqual([
      { role: "system", content: "SYS" },
      { role: "user", content: "PROMPT" },
    ]);
    expect(body?.max_completion_tokens).toBe(13107);
    expect(body?.reasoning_effort).toBe("high");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });

  it("omits reasoning when not asked (branch summaries) and reports finish_reason length", async () => {
    server.enqueue({ kind: "text", text: "cut", finishReason: "length" });
    const r = await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 2048 });
    expect(r.stopReason).toBe("length");
    expect(server.chatRequests()[0]?.reasoning_effort).toBeUndefined();
  });

  it("retries once without reasoning_effort when the server rejects the parameter", async () => {
    server.enqueue({ kind: "error", status: 400, message: "Unrecognized request argument supplied: reasoning_effort" }, { kind: "text", text: "ok" });
    const s = new OpenAiSummarizer(endpoint(), "m");
    expect((await s.complete("S", "P", { maxTokens: 10, reasoning: "high" })).text).toBe("ok");
    const bodies = server.chatRequests();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]?.reasoning_effort).toBeUndefined();
  });

  it("maps HTTP failures to stopReason error with status, message and retry hints", async () => {
    server.enqueue({ kind: "error", status: 429, message: "Rate limit reached", headers: { "retry-after": "2" } });
    const r = await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 10 });
    expect(r.stopReason).toBe("error");
    expect(r.errorMessage).toBe("429 Rate limit reached, retry-after: 2");
    expect(r.failure).toEqual({ status: 429, retryAfterMs: 2000, contextOverflow: false, transient: true });
    server.enqueue({ kind: "error", status: 500, message: "boom" });
    expect((await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 10 })).errorMessage).toBe("500 boom");
  });

  it("a context-overflow answer is typed as one (and its text, once stored, recognised by core's overflow detection)", async () => {
    server.enqueue({ kind: "overflow" });
    const r = await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 10 });
    expect(r.stopReason).toBe("error");
    expect(r.failure).toEqual({ status: 400, contextOverflow: true, transient: false });
    expect(isOverflowErrorMessage(r.errorMessage ?? "")).toBe(true);
  });

  it("malformed bodies become errors, not crashes", async () => {
    server.enqueue({ kind: "raw", body: "{not json" });
    const a = await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 10 });
    expect(a.stopReason).toBe("error");
    server.enqueue({ kind: "raw", body: JSON.stringify({ id: "x", object: "chat.completion", choices: [] }) });
    const b = await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 10 });
    expect(b).toMatchObject({ stopReason: "error", errorMessage: "Malformed response from m: no choices" });
  });

  it("abort cancels the in-flight HTTP request and returns stopReason aborted", async () => {
    server.enqueue({ kind: "hang" });
    const controller = new AbortController();
    const pending = new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 10, signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort();
    expect(await pending).toEqual({ text: "", stopReason: "aborted" });
    // the server sees the request's connection close when it does (not within a set time)
    await expect.poll(() => server.requests[0]?.aborted, { timeout: 10_000 }).toBe(true);
  });

  it("an already aborted signal makes no request", async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 1, signal: controller.signal })).stopReason).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });
});

describe("K. remote endpoint", () => {
  it("case 87 (request shape): POST JSON with exactly systemPrompt and prompt; summary used, shortSummary ignored", async () => {
    server.enqueueRemote({ kind: "summary", summary: "REMOTE1", extra: { shortSummary: "IGNORED" } });
    const r = await new RemoteSummarizer(server.remoteUrl).complete("SYS", "PROMPT", { maxTokens: 100 });
    expect(r).toEqual({ text: "REMOTE1", stopReason: "stop" });
    const req = server.requests[0];
    expect(req?.method).toBe("POST");
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(Object.keys(req?.body as object).sort()).toEqual(["prompt", "systemPrompt"]);
    expect(req?.body).toEqual({ systemPrompt: "SYS", prompt: "PROMPT" });
  });

  it("case 88: a non-2xx answer rejects with Remote compaction failed (500 Internal Server Error)", async () => {
    server.enqueueRemote({ kind: "error", status: 500, statusText: "Internal Server Error" });
    await expect(new RemoteSummarizer(server.remoteUrl).complete("S", "P", { maxTokens: 1 })).rejects.toThrow("Remote compaction failed (500 Internal Server Error)");
  });

  it("case 89: a body without a string summary rejects with Remote compaction response missing summary", async () => {
    server.enqueueRemote({ kind: "json", body: { shortSummary: "x" } });
    await expect(new RemoteSummarizer(server.remoteUrl).complete("S", "P", { maxTokens: 1 })).rejects.toThrow("Remote compaction response missing summary");
    server.enqueueRemote({ kind: "raw", body: "<html>" });
    await expect(new RemoteSummarizer(server.remoteUrl).complete("S", "P", { maxTokens: 1 })).rejects.toThrow("Remote compaction response missing summary");
  });

  it("deviation 8: abort cancels the in-flight remote request", async () => {
    server.enqueueRemote({ kind: "hang" });
    const controller = new AbortController();
    const pending = new RemoteSummarizer(server.remoteUrl).complete("S", "P", { maxTokens: 1, signal: controller.signal });
    await server.waitForRequests(1, "/remote/summarize");
    controller.abort();
    expect(await pending).toEqual({ text: "", stopReason: "aborted" });
  });
});

describe("runWithCandidates (triggers-and-hooks.md §2.2)", () => {
  const policy = { enabled: true, maxRetries: 3, baseDelayMs: 1 };
  /** a failed model call as the model clients throw it: a message and its typed failure */
  const failed = (message: string, failure: Partial<ModelFailure>) => Promise.reject(new ModelCallError(message, { contextOverflow: false, transient: false, ...failure }));

  it("case 129: retries a failing candidate 3 times with doubling delays, then succeeds on the next", async () => {
    const notices: RetryNotice[] = [];
    const calls: string[] = [];
    const result = await runWithCandidates(
      [
        { label: "a", available: true, run: async () => (calls.push("a"), failed("503 service unavailable", { status: 503, transient: true })) },
        { label: "b", available: true, run: async () => (calls.push("b"), "ok") },
      ],
      policy,
      undefined,
      (n) => notices.push(n),
    );
    expect(result).toBe("ok");
    expect(calls).toEqual(["a", "a", "a", "a", "b"]);
    expect(notices.map((n) => n.delayMs)).toEqual([1, 2, 4]);
    expect(notices.map((n) => n.attempt)).toEqual([1, 2, 3]);
  });

  it("case 129: a retry-after above 30 s abandons the candidate when another follows; the last one waits", async () => {
    const calls: string[] = [];
    const err = () => failed("rate limited, retry-after-ms: 45000", { status: 429, transient: true, retryAfterMs: 45000 });
    expect(
      await runWithCandidates(
        [
          { label: "a", available: true, run: () => (calls.push("a"), err()) },
          { label: "b", available: true, run: async () => (calls.push("b"), "ok") },
        ],
        policy,
      ),
    ).toBe("ok");
    expect(calls).toEqual(["a", "b"]);
    const controller = new AbortController();
    const notices: RetryNotice[] = [];
    const only = runWithCandidates([{ label: "a", available: true, run: err }], policy, controller.signal, (n) => {
      notices.push(n);
      controller.abort();
    });
    await expect(only).rejects.toThrow("Aborted");
    expect(notices[0]?.delayMs).toBe(45000);
  });

  it("a retry hint above MAX_RETRY_AFTER_MS (Retry-After: 3600) is not waited for: the candidate fails at once with a sentence that says so", async () => {
    let n = 0;
    const notices: RetryNotice[] = [];
    const only = runWithCandidates([{ label: "a", available: true, run: () => (n++, failed("429 rate limited, retry-after: 3600", { status: 429, transient: true, retryAfterMs: 3_600_000 })) }], policy, undefined, (x) => notices.push(x));
    await expect(only).rejects.toThrow("429 rate limited, retry-after: 3600 (the server asks to wait 3600 s before a retry; Bonsai waits at most 60 s)");
    expect(n).toBe(1);
    expect(notices).toEqual([]);
    expect(MAX_RETRY_AFTER_MS).toBe(60_000);
  });

  it("never retries a context overflow, skips candidates without a key, reports no available model", async () => {
    let n = 0;
    await expect(
      runWithCandidates([{ label: "a", available: true, run: () => (n++, failed("500 prompt is too long: 213462 tokens > 200000 maximum", { status: 500, transient: true, contextOverflow: true })) }], policy),
    ).rejects.toThrow("prompt is too long");
    expect(n).toBe(1);
    await expect(runWithCandidates([{ label: "a", available: false, run: async () => "x" }], policy)).rejects.toThrow("Compaction failed: no available model");
  });

  it("non-retryable errors and retry.enabled=false move on without waiting", async () => {
    let n = 0;
    await expect(runWithCandidates([{ label: "a", available: true, run: () => (n++, failed("Summarization failed: boom", { status: 400 })) }], policy)).rejects.toThrow("boom");
    expect(n).toBe(1);
    // an error without a typed failure (not from a model call) is not retried, whatever it says
    n = 0;
    await expect(runWithCandidates([{ label: "a", available: true, run: () => (n++, Promise.reject(new Error("503 service unavailable, retry-after: 1"))) }], policy)).rejects.toThrow("503");
    expect(n).toBe(1);
    n = 0;
    await expect(runWithCandidates([{ label: "a", available: true, run: () => (n++, failed("503", { status: 503, transient: true })) }], { ...policy, enabled: false })).rejects.toThrow("503");
    expect(n).toBe(1);
  });
});

describe("streamTurn", () => {
  const history: LlmMessage[] = [{ role: "user", content: "hello", timestamp: 1 }];

  it("streams deltas, maps usage and records provider/model", async () => {
    server.enqueue({ kind: "text", text: "Hello there, friend", usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 200 } });
    const deltas: string[] = [];
    const { message: m } = await streamTurn(history, { endpoint: endpoint(), model: "chat-m", systemPrompt: "SYS", onDelta: (d) => deltas.push(d) });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Hello there, friend");
    expect(m).toMatchObject({ role: "assistant", provider: "openai", model: "chat-m", stopReason: "stop", content: [{ type: "text", text: "Hello there, friend" }] });
    expect(m.usage).toEqual({ input: 1000, output: 30, cacheRead: 200, cacheWrite: 0, totalTokens: 1230 });
    const body = server.chatRequests()[0];
    expect(body?.stream).toBe(true);
    expect(body?.messages[0]).toEqual({ role: "system", content: "SYS" });
  });

  it("an overflow error is an assistant error typed as an overflow (and, stored, recognised by its text)", async () => {
    server.enqueue({ kind: "overflow" });
    const { message: m, failure } = await streamTurn(history, { endpoint: endpoint(), model: "chat-m" });
    expect(m.stopReason).toBe("error");
    expect(failure).toMatchObject({ status: 400, contextOverflow: true, transient: false });
    expect(isContextOverflow(m, 200000)).toBe(true);
  });

  it("abort mid-stream keeps the partial text with stopReason aborted", async () => {
    server.enqueue({ kind: "stream-then-hang", chunks: ["par", "tial"] });
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = streamTurn(history, {
      endpoint: endpoint(),
      model: "chat-m",
      signal: controller.signal,
      onDelta: (d) => {
        deltas.push(d);
        if (deltas.join("") === "partial") controller.abort();
      },
    });
    const { message: m } = await pending;
    expect(m.stopReason).toBe("aborted");
    expect(m.content).toEqual([{ type: "text", text: "partial" }]);
  });

  it("a truncated stream is an error; a malformed answer too", async () => {
    server.enqueue({ kind: "raw", contentType: "text/event-stream", body: 'data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n\n' });
    const { message: m, failure } = await streamTurn(history, { endpoint: endpoint(), model: "chat-m" });
    expect(m.stopReason).toBe("error");
    expect(m.errorMessage).toMatch(/stream ended/);
    expect(failure).toEqual({ contextOverflow: false, transient: true });
  });

  it("toChatMessages pairs tool calls with results and drops failed replies", () => {
    const msgs = toChatMessages([
      { role: "user", content: "q", timestamp: 1 },
      { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts" } }, { type: "toolCall", id: "c2", name: "bash", arguments: {} }], api: "x", provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, stopReason: "toolUse", timestamp: 2 },
      { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "file" }], isError: false, timestamp: 3 },
      { role: "assistant", content: [{ type: "text", text: "partial" }], api: "x", provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, stopReason: "error", timestamp: 4 },
      { role: "user", content: "next", timestamp: 5 },
    ]);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(msgs[3]).toEqual({ role: "tool", tool_call_id: "c2", content: "(no result recorded)" });
  });
});

describe("offline summarizer", () => {
  const conversation = [
    "[User]: Please fix the login bug in src/auth.ts. Do not change the public API.",
    "[Assistant]: I'll start by reading the file.",
    '[Assistant tool calls]: read(path="src/auth.ts"); bash(command="npm test")',
    "[Tool result]: Error: expected 200, got 401",
    "[Assistant]: I decided to compare the token expiry in UTC instead of local time.",
    '[Assistant tool calls]: edit(path="src/auth.ts", oldText="a", newText="b")',
    "[Tool result]: done",
    "[User]: Should we also handle refresh tokens?",
  ].join("\n\n");
  const historyPrompt = `<conversation>\n${conversation}\n</conversation>\n\n${prompt("summary")}`;

  it("extracts goals, constraints, decisions, errors, files and the open question in the prompt's layout", async () => {
    const r = await new OfflineSummarizer().complete(prompt("system"), historyPrompt, { maxTokens: 100, purpose: "history" });
    expect(r.stopReason).toBe("stop");
    const t = r.text;
    expect(t).toMatch(/^## Goal\nPlease fix the login bug in src\/auth\.ts/);
    expect(t).toContain("## Constraints & Preferences\n- Do not change the public API.");
    expect(t).toContain("- [x] Edited `src/auth.ts`");
    expect(t).toContain("- [x] Ran `npm test`");
    expect(t).toContain("## Key Decisions\n- **Stated**: I'll start by reading the file.");
    expect(t).toContain("I decided to compare the token expiry in UTC instead of local time.");
    expect(t).toContain("Error seen: Error: expected 200, got 401");
    expect(t).toContain("Open question: Should we also handle refresh tokens?");
    expect(t).toContain("Files read: src/auth.ts");
    expect(t).toContain("Files modified: src/auth.ts");
    // deterministic
    expect(summarizeOffline(historyPrompt, "history")).toBe(t);
  });

  it("turn prefix, short and branch layouts", () => {
    const c = `<conversation>\n${conversation}\n</conversation>\n\n`;
    const prefix = summarizeOffline(c + prompt("turnPrefix"), "turnPrefix");
    expect(prefix).toMatch(/^## Original Request\n\nPlease fix the login bug/);
    expect(prefix).toContain("## Early Progress");
    expect(prefix).toContain("## Context for Suffix");
    const short = summarizeOffline(c + prompt("short"), "short");
    expect(short).toBe("I changed `src/auth.ts`. I ran 1 command, the last being `npm test`.");
    expect(short).not.toContain("?");
    const branch = summarizeOffline(c + prompt("branch"), "branch");
    expect(branch).toMatch(/^## Goal\n\n/);
    expect(branch).toContain("## Constraints & Preferences\n- Do not change the public API.");
    expect(branch).toContain("### Blocked\n- Error: expected 200, got 401");
  });

  it("an update keeps what the previous summary recorded", () => {
    const previous = "## Goal\nShip v2\n\n## Progress\n\n### Done\n- [x] Wrote `README.md`\n\n## Critical Context\n- The CI runs on Node 20";
    const p = `<conversation>\n[User]: now the changelog\n</conversation>\n\n<previous-summary>\n${previous}\n</previous-summary>\n\n${prompt("update")}`;
    const t = summarizeOffline(p, "update");
    expect(t).toMatch(/^## Goal\nShip v2/);
    expect(t).toContain("- [x] Wrote `README.md`");
    expect(t).toContain("- The CI runs on Node 20");
    expect(t).toContain("Open question: now the changelog");
  });

  it("keeps statements, not questions or lead-ins; bullets stripped; the assistant's own errors only when something broke", () => {
    const c = [
      "[User]: - please avoid global state in the parser\nshould we stream, right?",
      "[Assistant]: Now let's check if it compiles:",
      "[Assistant]: I'll keep the cache in the session object. The error handling stays as it is. The build fails on Node 18 because of fetch.",
    ].join("\n\n");
    const t = summarizeOffline(`<conversation>\n${c}\n</conversation>\n\n${prompt("summary")}`, "history");
    expect(t).toContain("## Constraints & Preferences\n- please avoid global state in the parser\n\n");
    expect(t).not.toContain("compiles");
    expect(t).toContain("**Stated**: I'll keep the cache in the session object.");
    expect(t).toContain("Error seen: The build fails on Node 18 because of fetch.");
    expect(t).not.toContain("Error seen: The error handling");
  });

  it("parses serialized parts back, multi-line texts included", () => {
    const parts = parseConversation("[User]: a\nb\n\n[Assistant]: c\n\n[Tool result]: x\n[User]: not a part");
    expect(parts).toEqual([
      { kind: "user", text: "a\nb" },
      { kind: "assistant", text: "c" },
      { kind: "toolResult", text: "x\n[User]: not a part" },
    ]);
  });
});
