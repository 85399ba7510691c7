/**
 * A model server that sends far more than a reply can be: the request ends with a clear error as
 * soon as it is noticed and the connection is closed (the loopback server counts how many bytes
 * it managed to write), never a 20 MB body read whole.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { boundedFetch, OpenAiSummarizer, RemoteSummarizer, SUMMARY_RESPONSE_LIMITS, streamTurn } from "../src/index";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
let server: MockOpenAiServer;
beforeEach(() => {
  server = mock();
});

const MB20 = 20 * 1024 * 1024;
const endpoint = () => ({ baseUrl: server.baseUrl, apiKey: "sk-test" });
const ask = [{ role: "user" as const, content: "hi", timestamp: 1 }];

/** bytes the server wrote of its last answer, once the connection is over */
async function bytesSent(): Promise<number> {
  const last = server.requests.at(-1)!;
  await expect.poll(() => last.aborted || last.bytesSent === MB20).toBe(true);
  return last.bytesSent ?? 0;
}

describe("a streamed turn", () => {
  it("a 20 MB body that is not server-sent events ends with a clear error, not read", async () => {
    server.enqueue({ kind: "flood", bytes: MB20, contentType: "application/json" });
    const { message: reply } = await streamTurn(ask, { endpoint: endpoint(), model: "m" });
    expect(reply.stopReason).toBe("error");
    expect(reply.errorMessage).toBe("the model server answered with application/json, not a stream of server-sent events");
    expect(reply.content).toEqual([]);
    expect(await bytesSent()).toBeLessThan(MB20);
  });

  it("an event stream without line ends stops at the line limit", async () => {
    server.enqueue({ kind: "flood", bytes: MB20, contentType: "text/event-stream" });
    const { message: reply } = await streamTurn(ask, { endpoint: endpoint(), model: "m" });
    expect(reply.stopReason).toBe("error");
    expect(reply.errorMessage).toContain("not a stream of server-sent events (a line longer than 4 MiB)");
    expect(await bytesSent()).toBeLessThan(MB20);
  });

  it("an event stream that never ends stops at the size limit", async () => {
    server.enqueue({ kind: "flood", bytes: MB20, contentType: "text/event-stream", filler: ": keep-alive\n" });
    const limited = boundedFetch({ maxBytes: 2 * 1024 * 1024, maxLineBytes: 1024, eventStream: true });
    const response = await limited(`${server.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages: [], stream: true }) });
    await expect(response.text()).rejects.toThrow("the model server sent more than 2 MiB; Bonsai stopped reading (a reply is never that long)");
    expect(await bytesSent()).toBeLessThan(MB20);
  });

  it("an ordinary streamed reply is untouched", async () => {
    server.enqueue({ kind: "text", text: "All fine." });
    const { message: reply } = await streamTurn(ask, { endpoint: endpoint(), model: "m" });
    expect(reply).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "All fine." }] });
  });
});

describe("a summary", () => {
  it("a 20 MB JSON reply is refused once 8 MiB were read", async () => {
    server.enqueue({ kind: "flood", bytes: MB20, contentType: "application/json" });
    const r = await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 10 });
    expect(r).toMatchObject({ stopReason: "error", errorMessage: `the model server sent more than ${SUMMARY_RESPONSE_LIMITS.maxBytes / 1024 / 1024} MiB; Bonsai stopped reading (a reply is never that long)` });
    expect(await bytesSent()).toBeLessThan(MB20);
  });

  it("a 20 MB valid completion is refused the same way", async () => {
    server.enqueue({ kind: "text", text: "y".repeat(MB20) });
    const r = await new OpenAiSummarizer(endpoint(), "m").complete("S", "P", { maxTokens: 10 });
    expect(r.stopReason).toBe("error");
    expect(r.errorMessage).toContain("sent more than 8 MiB");
  });

  it("the remote summarizer reads at most 8 MiB of its answer", async () => {
    server.enqueueRemote({ kind: "flood", bytes: MB20 });
    await expect(new RemoteSummarizer(server.remoteUrl).complete("S", "P", { maxTokens: 10 })).rejects.toThrow(
      "Remote compaction failed (the model server sent more than 8 MiB; Bonsai stopped reading (a reply is never that long))",
    );
    expect(await bytesSent()).toBeLessThan(MB20);
  });
});
