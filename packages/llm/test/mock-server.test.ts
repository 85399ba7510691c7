/** The loopback server itself: the routes other processes (Playwright, the CLI) rely on. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { OpenAiSummarizer } from "../src/index";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach }, { models: ["a", "b"], apiKey: "sk-right" });
let server: MockOpenAiServer;
beforeEach(() => {
  server = mock();
});

describe("mock OpenAI server", () => {
  it("lists models and checks the API key", async () => {
    const ok = await fetch(`${server.baseUrl}/models`, { headers: { authorization: "Bearer sk-right" } });
    expect(((await ok.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(["a", "b"]);
    const wrong = await new OpenAiSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-wrong" }, "a").complete("S", "P", { maxTokens: 1 });
    expect(wrong).toMatchObject({ stopReason: "error", errorMessage: "401 Incorrect API key provided" });
  });

  it("is scriptable over HTTP (/__mock/enqueue, /__mock/requests, /__mock/reset)", async () => {
    const post = (p: string, body: unknown) => fetch(`${server.origin}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(await (await post("/__mock/enqueue", { chat: [{ kind: "text", text: "scripted" }] })).json()).toEqual({ pending: 1 });
    const r = await new OpenAiSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-right" }, "a").complete("S", "P", { maxTokens: 1 });
    expect(r.text).toBe("scripted");
    const seen = (await (await fetch(`${server.origin}/__mock/requests`)).json()) as { path: string }[];
    expect(seen.map((s) => s.path)).toEqual(["/v1/chat/completions"]); // control calls are not listed
    await post("/__mock/reset", {});
    expect(server.requests.filter((q) => !q.path.startsWith("/__mock"))).toHaveLength(0);
  });

  it("replies reserved for a model wait for that model; a body that is not JSON is a 400", async () => {
    server.enqueue({ kind: "text", text: "for b", model: "b" }, { kind: "text", text: "for anyone" });
    const a = await new OpenAiSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-right" }, "a").complete("S", "P", { maxTokens: 1 });
    const b = await new OpenAiSummarizer({ baseUrl: server.baseUrl, apiKey: "sk-right" }, "b").complete("S", "P", { maxTokens: 1 });
    expect([a.text, b.text]).toEqual(["for anyone", "for b"]);
    const bad = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", headers: { authorization: "Bearer sk-right" }, body: "{" });
    expect(bad.status).toBe(400);
  });
});
