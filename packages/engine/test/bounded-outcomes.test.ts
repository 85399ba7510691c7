/**
 * Honest outcomes against the loopback model server: a prompt that fails after its retries leaves
 * one error entry (not one per attempt), and a summary reply over its limit is a clear ModelError
 * with nothing stored.
 */
import { describe, expect, it } from "vitest";
import { MAX_SHORT_SUMMARY_CHARS, MAX_SUMMARY_REPLY_CHARS, type AssistantMessage, type MessageEntry } from "@bonsai/core";
import type { ChatReply } from "@bonsai/testkit";
import { ModelError } from "../src/index";
import { eventsOf, harness, modelSettings, useLoopbackHarness, type Harness } from "./harness";
import { answerByKind, N } from "./support";

const t = useLoopbackHarness();

const assistantReplies = (h: Harness) =>
  h.store
    .loadEntries(h.sessionId)
    .filter((e): e is MessageEntry => e.type === "message" && e.message.role === "assistant")
    .map((e) => e.message as AssistantMessage);
const unavailable: ChatReply = { kind: "error", status: 503, message: "service unavailable" };

describe("a prompt whose model keeps failing", () => {
  it("appends one error entry after all its retries, not one per attempt", async () => {
    const server = t.server();
    const h = (t.h = await harness({ settings: modelSettings(server, { retry: { maxRetries: 3, baseDelayMs: 1 } }) }));
    server.setChatFallback(() => unavailable);
    const out = await h.engine.prompt(h.sessionId, "hello");
    expect(server.chatRequests()).toHaveLength(4);
    expect(eventsOf(h, "auto_retry_start")).toHaveLength(3);
    const replies = assistantReplies(h);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ stopReason: "error", errorMessage: "503 service unavailable" });
    expect(out.assistantEntryId).toBe(h.store.getLeaf(h.sessionId));
  });

  it("a retry that succeeds leaves no error entry at all", async () => {
    const server = t.server();
    const h = (t.h = await harness({ settings: modelSettings(server) }));
    server.enqueue(unavailable, unavailable, { kind: "text", text: "Back again." });
    await h.engine.prompt(h.sessionId, "hello");
    expect(assistantReplies(h).map((m) => m.stopReason)).toEqual(["stop"]);
    expect(h.store.loadEntries(h.sessionId).map((e) => e.type)).toEqual(["message", "message"]);
  });

  it("an abort during the retry delay keeps the failed reply as the one error entry", async () => {
    const server = t.server();
    const h = (t.h = await harness({ settings: modelSettings(server, { retry: { maxRetries: 3, baseDelayMs: 60_000 } }) }));
    server.setChatFallback(() => unavailable);
    const started = new Promise<void>((resolve) => h.engine.on("auto_retry_start", () => resolve()));
    const pending = h.engine.prompt(h.sessionId, "hello");
    await started;
    h.engine.abortTurn(h.sessionId);
    const out = await pending;
    expect(out.message.stopReason).toBe("error");
    expect(assistantReplies(h)).toHaveLength(1);
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe("a summary reply over its limit", () => {
  async function session(): Promise<Harness> {
    const x = await harness({ settings: modelSettings(t.server(), { compaction: { keepRecentTokens: 50 } }) });
    x.add(N.U(2000), N.A(2000), N.U(2000), N.A(2000), N.U(400), N.A(400));
    return x;
  }

  it("a history summary longer than the limit fails the compaction with a ModelError; nothing is appended", async () => {
    const server = t.server();
    const h = (t.h = await session());
    server.setChatFallback(answerByKind({ history: "s".repeat(MAX_SUMMARY_REPLY_CHARS + 1), short: "Short." }));
    const before = h.store.loadEntries(h.sessionId).length;
    const error = await h.engine.compact(h.sessionId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe(
      `Summarization failed: the model's reply is ${(MAX_SUMMARY_REPLY_CHARS + 1).toLocaleString("en")} characters long, more than the ${MAX_SUMMARY_REPLY_CHARS.toLocaleString("en")} Bonsai stores; nothing was saved`,
    );
    expect(h.store.loadEntries(h.sessionId)).toHaveLength(before);
  });

  it("a short summary longer than its limit fails the same way", async () => {
    const server = t.server();
    const h = (t.h = await session());
    server.setChatFallback(answerByKind({ history: "## Goal\nfine", short: "w".repeat(MAX_SHORT_SUMMARY_CHARS + 1) }));
    await expect(h.engine.compact(h.sessionId)).rejects.toThrow(/^Short summary failed: the model's reply is 4,001 characters long/);
    expect(h.store.loadEntries(h.sessionId).some((e) => e.type === "compaction")).toBe(false);
  });

  it("a 20 MB reply is refused while it is read, and nothing is appended", async () => {
    const server = t.server();
    const h = (t.h = await session());
    server.setChatFallback(() => ({ kind: "flood", bytes: 20 * 1024 * 1024 }));
    // the history and the turn prefix are summarized at once (as the reference does): the first to fail names the error
    await expect(h.engine.compact(h.sessionId)).rejects.toThrow(/^(Turn prefix summarization|Summarization) failed: the model server sent more than 8 MiB/);
    expect(h.store.loadEntries(h.sessionId).some((e) => e.type === "compaction")).toBe(false);
  });

  it("a branch summary longer than the limit refuses the navigation; the leaf stays", async () => {
    const server = t.server();
    const h = (t.h = await harness({ settings: modelSettings(server) }));
    const [, a1] = h.add(N.U("first"), N.A("answer"), N.U("second"), N.A("another answer"));
    const leaf = h.store.getLeaf(h.sessionId);
    server.setChatFallback(() => ({ kind: "text", text: "b".repeat(MAX_SUMMARY_REPLY_CHARS + 1) }));
    const error = await h.engine.navigateTree(h.sessionId, a1!.id, { summarize: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toMatch(/^the model's reply is 200,001 characters long/);
    expect(h.store.getLeaf(h.sessionId)).toBe(leaf);
    expect(h.store.loadEntries(h.sessionId).some((e) => e.type === "branch_summary")).toBe(false);
  });
});
