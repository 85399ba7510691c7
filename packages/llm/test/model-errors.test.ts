/**
 * The typed failure of a model call (errors.ts), from what the loopback OpenAI-compatible server
 * answers: status, retry headers, the error body's code or type, a body-less answer, a lost
 * connection; and from the remote summarization endpoint's status. Never from the message's words.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useMockOpenAiServer, type ChatReply, type MockOpenAiServer } from "@bonsai/testkit";
import { modelFailureIn, OpenAiSummarizer, RemoteSummarizer, retryAfterMsOf, streamTurn, type ModelFailure } from "../src/index";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
let server: MockOpenAiServer;
beforeEach(() => {
  server = mock();
});

/** the failure the summarizer reports for one answer of the server */
async function failureFor(reply: ChatReply): Promise<ModelFailure | undefined> {
  server.enqueue(reply);
  const r = await new OpenAiSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-test" }, "m").complete("S", "P", { maxTokens: 10 });
  expect(r.stopReason).toBe("error");
  return r.failure;
}

describe("a model call's typed failure", () => {
  it("rate limits, timeouts, conflicts and server errors are transient; other client errors are not", async () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) expect(await failureFor({ kind: "error", status, message: "words" }), String(status)).toEqual({ status, contextOverflow: false, transient: true });
    for (const status of [400, 401, 403, 404, 422]) expect(await failureFor({ kind: "error", status, message: "rate limit reached, 503 overloaded" }), String(status)).toEqual({ status, contextOverflow: false, transient: false });
  });

  it("a retry header makes any status worth retrying, after the wait it asks for", async () => {
    expect(await failureFor({ kind: "error", status: 400, message: "x", headers: { "retry-after": "2" } })).toEqual({ status: 400, retryAfterMs: 2000, contextOverflow: false, transient: true });
    expect(await failureFor({ kind: "error", status: 429, message: "x", headers: { "retry-after-ms": "150", "retry-after": "9" } })).toMatchObject({ retryAfterMs: 150 });
  });

  it("an overflow: the body's code or type, a 413, or a 400 or 413 with no body at all", async () => {
    expect(await failureFor({ kind: "overflow", message: "no words about size here" })).toEqual({ status: 400, contextOverflow: true, transient: false });
    expect(await failureFor({ kind: "error", status: 400, message: "x", code: "context_length_exceeded" })).toMatchObject({ contextOverflow: true });
    expect(await failureFor({ kind: "raw", status: 400, body: JSON.stringify({ error: { message: "x", type: "exceed_context_size_error" } }) })).toMatchObject({ contextOverflow: true });
    expect(await failureFor({ kind: "raw", status: 413, body: JSON.stringify({ error: { message: "x", type: "request_too_large" } }) })).toMatchObject({ status: 413, contextOverflow: true });
    expect(await failureFor({ kind: "raw", status: 400, body: "", contentType: "text/plain" })).toEqual({ status: 400, contextOverflow: true, transient: false });
    // words alone never make one
    expect(await failureFor({ kind: "error", status: 400, message: "prompt is too long: 213462 tokens > 200000 maximum" })).toMatchObject({ contextOverflow: false });
  });

  it("an error inside a stream (no status): its code or type decides", async () => {
    const streamed = async (error: object) => {
      server.enqueue({ kind: "raw", contentType: "text/event-stream", body: `data: ${JSON.stringify({ error })}\n\n` });
      return (await streamTurn([{ role: "user", content: "q", timestamp: 1 }], { endpoint: { baseUrl: server.baseUrl, apiKey: "k" }, model: "m" })).failure;
    };
    expect(await streamed({ message: "anything", type: "overloaded_error" })).toEqual({ contextOverflow: false, transient: true });
    expect(await streamed({ message: "anything", code: "context_length_exceeded" })).toEqual({ contextOverflow: true, transient: false });
    expect(await streamed({ message: "Rate limit reached; overloaded", type: "invalid_request_error" })).toEqual({ contextOverflow: false, transient: false });
  });

  it("a lost connection is transient", async () => {
    const r = await new OpenAiSummarizer({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "k" }, "m").complete("S", "P", { maxTokens: 1 });
    expect(r.failure).toEqual({ contextOverflow: false, transient: true });
  });

  it("the remote endpoint: its status decides (5xx transient, 4xx not, 413 an overflow)", async () => {
    const thrown = async (status: number) => {
      server.enqueueRemote({ kind: "error", status });
      return modelFailureIn(await new RemoteSummarizer(server.remoteUrl).complete("S", "P", { maxTokens: 1 }).catch((e: unknown) => e));
    };
    expect(await thrown(503)).toEqual({ status: 503, contextOverflow: false, transient: true });
    expect(await thrown(400)).toEqual({ status: 400, contextOverflow: false, transient: false });
    expect(await thrown(413)).toEqual({ status: 413, contextOverflow: true, transient: false });
  });

  it("retry headers: the first present wins (ms, seconds, an HTTP date, reset times), clamped at 0", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    const wait = (headers: Record<string, string>) => retryAfterMsOf(new Headers(headers), now);
    expect(wait({ "retry-after-ms": "1500", "retry-after": "9" })).toBe(1500);
    expect(wait({ "retry-after": "7" })).toBe(7000);
    expect(wait({ "retry-after": "2.5" })).toBe(2500);
    expect(wait({ "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" })).toBe(30000);
    expect(wait({ "retry-after": "Tue, 31 Dec 2024 23:59:00 GMT" })).toBe(0);
    expect(wait({ "x-ratelimit-reset-ms": "800" })).toBe(800);
    expect(wait({ "x-ratelimit-reset-ms": String(now + 4000) })).toBe(4000);
    expect(wait({ "x-ratelimit-reset": "3" })).toBe(3000);
    expect(wait({ "x-ratelimit-reset": String(now / 1000 + 12) })).toBe(12000);
    expect(wait({})).toBeUndefined();
    expect(retryAfterMsOf(undefined, now)).toBeUndefined();
  });
});
