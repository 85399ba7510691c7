/**
 * Model errors are handled by what the model's server answered (status, retry headers, the error
 * body's code), never by how its message is worded: a 429 with retry-after, a 500 and a context
 * overflow from the real loopback OpenAI-compatible server, each with its usual words, with other
 * words, and with words that name another kind of error, get the same handling in a prompt's turn
 * (retry, its wait, overflow recovery) and in a compaction's summarizer calls.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessage, MessageEntry } from "@bonsai/core";
import { useMockOpenAiServer, OVERFLOW_MESSAGE, type ChatReply, type MockOpenAiServer } from "@bonsai/testkit";
import { eventsOf, harness, modelSettings, type Harness } from "./harness";
import { assistant, N, usageOf } from "./support";

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

/** the same error in three wordings: the provider's usual one, other words, and words of another kind of error */
const RATE_LIMITED = ["Rate limit reached for requests", "Please come back a little later", "prompt is too long: 213462 tokens > 200000 maximum"];
const SERVER_ERROR = ["Internal server error", "Something unexpected happened", "Your input exceeds the context window of this model"];
const OVERFLOWED = [OVERFLOW_MESSAGE, "Please send a shorter conversation", "Rate limit reached; service unavailable, try again (500)"];

const rateLimited = (message: string): ChatReply => ({ kind: "error", status: 429, message, headers: { "retry-after-ms": "30" } });
const serverError = (message: string): ChatReply => ({ kind: "error", status: 500, message });
const overflowed = (message: string): ChatReply => ({ kind: "overflow", message });
const ok = (text: string): ChatReply => ({ kind: "text", text, usage: { prompt_tokens: 390, completion_tokens: 10 } });

/** an earlier reply of the configured model, so that the session has something to compact */
const earlier = { type: "message", message: assistant([{ type: "text", text: "earlier" }], { provider: "openai", model: "mock-model", timestamp: Date.now(), usage: usageOf(5000) }) };

/** What the engine did with a prompt whose first turn failed with `failure`: its events and what the session keeps. */
async function promptAfter(failure: ChatReply) {
  h = await harness({ settings: modelSettings(server) });
  h.add(N.U(8000), earlier);
  server.enqueue(failure);
  server.setChatFallback((b) => (b.stream ? ok("ANSWER") : { kind: "text", text: "SUMMARY" }));
  const outcome = await h.engine.prompt(h.sessionId, "question");
  const stored = h.store
    .loadEntries(h.sessionId)
    .filter((e): e is MessageEntry => e.type === "message" && e.message.role === "assistant")
    .map((e) => (e.message as AssistantMessage).stopReason);
  const handled = {
    retries: eventsOf(h, "auto_retry_start").map((e) => ({ scope: e.scope, attempt: e.attempt, delayMs: e.delayMs })),
    compactions: eventsOf(h, "auto_compaction_start").map((e) => e.reason),
    answer: outcome.message.content,
    stored,
  };
  await h.close();
  h = undefined;
  return handled;
}

/** What a manual compaction did when its first summarizer call failed with `failure`. */
async function compactionAfter(failure: ChatReply) {
  h = await harness({ settings: modelSettings(server, { compaction: { keepRecentTokens: 1000 } }) });
  h.add(N.U(8000), N.A(800), N.U(8000), N.A(800));
  server.enqueue(failure);
  server.setChatFallback(() => ({ kind: "text", text: "SUMMARY" }));
  const outcome = await h.engine.compact(h.sessionId).then(
    (out) => (out.entry?.summary.includes("SUMMARY") ? "compacted" : "no summary"),
    (error: unknown) => `failed: ${error instanceof Error ? error.name : "?"}`,
  );
  const handled = { outcome, retries: eventsOf(h, "auto_retry_start").map((e) => ({ scope: e.scope, attempt: e.attempt, delayMs: e.delayMs })) };
  await h.close();
  h = undefined;
  return handled;
}

describe("a turn's model error, however it is worded", () => {
  it("429 with retry-after: retried once after the wait the header asks for, then answered", async () => {
    for (const words of RATE_LIMITED) {
      expect(await promptAfter(rateLimited(words)), words).toEqual({ retries: [{ scope: "turn", attempt: 1, delayMs: 30 }], compactions: [], answer: [{ type: "text", text: "ANSWER" }], stored: ["stop", "stop"] });
    }
  });

  it("500: retried once after the base delay, then answered", async () => {
    for (const words of SERVER_ERROR) {
      expect(await promptAfter(serverError(words)), words).toEqual({ retries: [{ scope: "turn", attempt: 1, delayMs: 1 }], compactions: [], answer: [{ type: "text", text: "ANSWER" }], stored: ["stop", "stop"] });
    }
  });

  it("context overflow (400, code context_length_exceeded): not retried; compacted, then the turn sent once more", async () => {
    for (const words of OVERFLOWED) {
      expect(await promptAfter(overflowed(words)), words).toEqual({ retries: [], compactions: ["overflow"], answer: [{ type: "text", text: "ANSWER" }], stored: ["stop", "error", "stop"] });
    }
  });
});

describe("a summarizer call's model error, however it is worded", () => {
  it("429 with retry-after and 500 are retried; an overflow is not", async () => {
    for (const words of RATE_LIMITED) {
      expect(await compactionAfter(rateLimited(words)), words).toEqual({ outcome: "compacted", retries: [{ scope: "compaction", attempt: 1, delayMs: 30 }] });
    }
    for (const words of SERVER_ERROR) {
      expect(await compactionAfter(serverError(words)), words).toEqual({ outcome: "compacted", retries: [{ scope: "compaction", attempt: 1, delayMs: 1 }] });
    }
    for (const words of OVERFLOWED) {
      expect(await compactionAfter(overflowed(words)), words).toEqual({ outcome: "failed: ModelError", retries: [] });
    }
  });
});
