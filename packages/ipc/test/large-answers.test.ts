/**
 * Large gzipped values beside the WebSocket (frames.ts LargeAnswers): the server parks the gzip and
 * sends a result-at frame; the client downloads it from the socket's own server and resolves the
 * call with the value, or with an "unavailable" error saying why it could not.
 */
import * as zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { handleCallFrame, withGzipJson, withJson, type LargeAnswers } from "../src/frames";
import { answerUrl, connectWebSocket, type FetchLike, type WebSocketLike } from "../src/ws-client";

const callFrame = (id: number) => JSON.stringify({ t: "call", id, method: "openSession", params: { sessionId: "s" } });

function gzipped(value: object): object {
  const json = JSON.stringify(value);
  return withGzipJson(structuredClone(value), { gzip: zlib.gzipSync(json), chars: json.length, text: () => json });
}

/** a connection's parking that records what it was given and answers `href` (null: it cannot park now; an Error: parking fails) */
function parking(href: string | null | Error = "/answer/abc"): LargeAnswers & { parked: Uint8Array[] } {
  const parked: Uint8Array[] = [];
  return {
    fromChars: 20,
    parked,
    park: async (packed) => {
      parked.push(packed.gzip);
      if (href instanceof Error) throw href;
      return href ?? undefined;
    },
  };
}

describe("a large gzipped value", () => {
  it("is parked and named by a result-at frame", async () => {
    const large = parking();
    const value = gzipped({ session: { id: "s" }, skeleton: { ids: ["a", "b", "c"] } });
    const reply = await handleCallFrame(callFrame(3), async () => ({ ok: true, value }), large);
    expect(JSON.parse(reply)).toEqual({ t: "result-at", id: 3, href: "/answer/abc" });
    expect(JSON.parse(zlib.gunzipSync(large.parked[0] as Uint8Array).toString("utf8"))).toEqual({ session: { id: "s" }, skeleton: { ids: ["a", "b", "c"] } });
  });

  it("goes in its frame when it is short, when it cannot be parked or parking fails, or when the connection parks nothing", async () => {
    const value = { session: { id: "s" }, skeleton: { ids: ["a", "b", "c"] } };
    const expected = { t: "result", id: 4, result: { ok: true, value } };
    const short = parking();
    expect(JSON.parse(await handleCallFrame(callFrame(4), async () => ({ ok: true, value: gzipped({ a: 1 }) }), short))).toEqual({ ...expected, result: { ok: true, value: { a: 1 } } });
    expect(short.parked).toHaveLength(0);
    expect(JSON.parse(await handleCallFrame(callFrame(4), async () => ({ ok: true, value: gzipped(value) }), parking(null)))).toEqual(expected);
    expect(JSON.parse(await handleCallFrame(callFrame(4), async () => ({ ok: true, value: gzipped(value) }), parking(new Error("the database is away"))))).toEqual(expected);
    expect(JSON.parse(await handleCallFrame(callFrame(4), async () => ({ ok: true, value: gzipped(value) })))).toEqual(expected);
  });

  it("is the only kind parked: a large value made as text, or an error, goes in its frame", async () => {
    const large = parking();
    const text = JSON.stringify({ skeleton: { ids: Array.from({ length: 50 }, (_, i) => `id-${i}`) } });
    const made = withJson(JSON.parse(text) as object, text);
    expect(JSON.parse(await handleCallFrame(callFrame(5), async () => ({ ok: true, value: made }), large)).t).toBe("result");
    expect(JSON.parse(await handleCallFrame(callFrame(6), async () => ({ ok: false, error: { code: "forbidden", message: "no" } }), large)).t).toBe("result");
    expect(large.parked).toHaveLength(0);
  });
});

describe("the address a client downloads", () => {
  it("is on the WebSocket's own server, under /answer/", () => {
    expect(answerUrl("ws://127.0.0.1:8470/ws?token=t", "/answer/abc")).toBe("http://127.0.0.1:8470/answer/abc");
    expect(answerUrl("wss://archive.example/ws?token=t", "/answer/abc")).toBe("https://archive.example/answer/abc");
    expect(answerUrl("ws://127.0.0.1:8470/ws", "http://elsewhere.example/answer/abc")).toBeUndefined();
    expect(answerUrl("ws://127.0.0.1:8470/ws", "/download/abc")).toBeUndefined();
    expect(answerUrl("ws://127.0.0.1:8470/ws", "/answer/../ws")).toBeUndefined();
  });
});

/** a socket that answers every call with `reply(id)` (the browser's WebSocket interface, in memory) */
function socketAnswering(reply: (id: number) => string): WebSocketLike {
  const listeners: Record<string, ((event: { data: unknown }) => void)[]> = {};
  const socket = {
    readyState: 1,
    send(data: string) {
      const { id } = JSON.parse(data) as { id: number };
      queueMicrotask(() => listeners.message?.forEach((l) => l({ data: reply(id) })));
    },
    close() {},
    addEventListener(type: string, listener: (event: { data: unknown }) => void) {
      (listeners[type] ??= []).push(listener);
      if (type === "open") queueMicrotask(() => listener({ data: undefined }));
    },
  };
  return socket as WebSocketLike;
}

describe("a client given a result-at frame", () => {
  const resultAt = (id: number) => JSON.stringify({ t: "result-at", id, href: "/answer/xyz" });

  it("downloads the answer from its server with the socket's token and resolves the call with it", async () => {
    const asked: string[] = [];
    const fetch: FetchLike = async (url, init) => (asked.push(url, init.headers.authorization ?? "no token"), { ok: true, status: 200, text: async () => '{"skeleton":{"ids":["a"]}}' });
    const bridge = connectWebSocket({ url: "ws://127.0.0.1:9/ws?token=t", create: () => socketAnswering(resultAt), fetch, maxReconnects: 0 });
    const result = await (bridge as unknown as { openSession(input: unknown): Promise<unknown> }).openSession({ sessionId: "s" });
    expect(result).toEqual({ ok: true, value: { skeleton: { ids: ["a"] } } });
    expect(asked).toEqual(["http://127.0.0.1:9/answer/xyz", "Bearer t"]);
    bridge.close();
  });

  it("fails the call with a reason when the download fails", async () => {
    for (const [fetch, reason] of [
      [async () => ({ ok: false, status: 404, text: async () => "" }), "HTTP 404"],
      [async () => ({ ok: false, status: 410, text: async () => "the session changed while it was opened: open it again\nmore" }), "HTTP 410: the session changed while it was opened: open it again"],
      [async () => Promise.reject(new Error("connection refused")), "connection refused"],
      [async () => ({ ok: true, status: 200, text: async () => "{cut" }), "JSON"],
    ] as [FetchLike, string][]) {
      const bridge = connectWebSocket({ url: "ws://127.0.0.1:9/ws", create: () => socketAnswering(resultAt), fetch, maxReconnects: 0 });
      const result = (await (bridge as unknown as { openSession(input: unknown): Promise<unknown> }).openSession({ sessionId: "s" })) as { ok: boolean; error: { code: string; message: string } };
      expect(result.ok).toBe(false);
      expect(result.error.code).toBe("unavailable");
      expect(result.error.message).toContain("could not be downloaded");
      expect(result.error.message).toContain(reason);
      bridge.close();
    }
  });
});
