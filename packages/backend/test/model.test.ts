/**
 * The backend against a real loopback OpenAI-compatible server: Test connection with the key kept
 * in the backend, a prompt whose reply streams as turnDelta events, abort of a hanging turn.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import { startMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import type { CallResult, EventName } from "@bonsai/ipc";
import { createBackend, type Backend } from "../src/index";
import { importLines, importUpload } from "./support";

const KEY = "sk-loopback-secret";
let model: MockOpenAiServer;
let dir: string;
let backend: Backend;

beforeAll(async () => {
  model = await startMockOpenAiServer({ apiKey: KEY, models: ["mock-1"] });
});
afterAll(async () => {
  await model.close();
});
beforeEach(async () => {
  model.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-model-"));
  backend = createBackend({ dataDir: dir, env: {} });
  // the model's address is a host setting: set here as `bonsai config set` would
  backend.engine.updateSettings({ model: { baseUrl: model.baseUrl, model: "mock-1", contextWindow: 100000 } });
});
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function ok<T = unknown>(r: CallResult): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

async function newSession(): Promise<string> {
  const header = { type: "session", version: 3, id: "s-chat", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/chat" };
  const user = { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } };
  return importLines(backend, [header, user]);
}

describe("backend with a model server", () => {
  it("Test connection uses the saved key (which never comes back)", async () => {
    const missing = ok<{ ok: boolean; message: string }>(await backend.dispatch("testConnection", {}));
    expect(missing.ok).toBe(false); // loopback needs no key, but this server demands one
    const state = ok(await backend.dispatch("setApiKey", { key: KEY }));
    expect(JSON.stringify(state)).not.toContain(KEY);
    const good = ok<{ ok: boolean; model: string }>(await backend.dispatch("testConnection", {}));
    expect(good).toMatchObject({ ok: true, model: "mock-1" });
    expect(model.requests.length).toBeGreaterThan(0);
  });

  it("a prompt streams its reply as events and appends the turn", async () => {
    ok(await backend.dispatch("setApiKey", { key: KEY }));
    const sessionId = await newSession();
    model.enqueue({ kind: "text", text: "Hello from the mock model", usage: { prompt_tokens: 20, completion_tokens: 6 } });
    const events: { event: EventName; payload: Record<string, unknown> }[] = [];
    backend.onEvent((event, payload) => events.push({ event: event as EventName, payload: payload as Record<string, unknown> }));
    const out = ok<{ entryIds: string[]; stopReason: string; errorMessage: string | null }>(
      await backend.dispatch("prompt", { sessionId, text: "say hello", requestId: "turn-1" }),
    );
    expect(out).toMatchObject({ stopReason: "stop", errorMessage: null });
    expect(out.entryIds).toHaveLength(2);
    const deltas = events.filter((e) => e.event === "turnDelta");
    expect(deltas.map((e) => e.payload.delta).join("")).toBe("Hello from the mock model");
    expect(deltas.every((e) => e.payload.requestId === "turn-1")).toBe(true);
    expect(events.some((e) => e.event === "turnEnd" && e.payload.requestId === "turn-1")).toBe(true);
    expect(events.some((e) => e.event === "sessionUpdated" && e.payload.reason === "entries-added")).toBe(true);
    const skeleton = unpackSkeleton(ok<PackedSkeleton>(await backend.dispatch("getSkeleton", { sessionId })));
    expect(skeleton.nodes.map((n) => n.id).slice(-2)).toEqual(out.entryIds);
    expect(model.chatRequests()[0]!.messages.some((m) => JSON.stringify(m).includes(KEY))).toBe(false);
  });

  it("abort ends a hanging turn", async () => {
    ok(await backend.dispatch("setApiKey", { key: KEY }));
    const sessionId = await newSession();
    model.enqueue({ kind: "stream-then-hang", chunks: ["partial "] });
    const running = backend.dispatch("prompt", { sessionId, text: "take your time" });
    await model.waitForRequests(1);
    await expect.poll(async () => ok<{ aborted: boolean }>(await backend.dispatch("abort", { sessionId, what: "prompt" })).aborted).toBe(true);
    const r = await running;
    expect(r.ok ? (r.value as { stopReason: string }).stopReason : r.error.code).toMatch(/aborted/);
  });

  it("a failing summarization model is an upstream error whose message is the model's, said once", async () => {
    ok(await backend.dispatch("setApiKey", { key: KEY }));
    const header = { type: "session", version: 3, id: "s-fail", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/fail" };
    const lines: object[] = [header];
    let parentId: string | null = null;
    for (let i = 0; i < 12; i++) {
      const id = `m${i}`;
      const message =
        i % 2 === 0
          ? { role: "user", content: "question ".repeat(3000), timestamp: i }
          : { role: "assistant", content: [{ type: "text", text: "answer ".repeat(3000) }], api: "x", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: i };
      lines.push({ type: "message", id, parentId, timestamp: `2026-01-01T00:00:${String(i + 1).padStart(2, "0")}.000Z`, message });
      parentId = id;
    }
    ok(await backend.dispatch("setSettings", { patch: { compaction: { keepRecentTokens: 2000 }, retry: { enabled: false } } }));
    const { results } = await importUpload(backend.dispatch, "fail.jsonl", lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    for (let i = 0; i < 6; i++) model.enqueue({ kind: "error", status: 500, message: "boom" });
    const r = await backend.dispatch("compact", { sessionId: results[0]!.sessionId, dryRun: true });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("upstream");
    expect(r.error.message).toMatch(/^Summarization failed: 500 boom$/);
  });
});
