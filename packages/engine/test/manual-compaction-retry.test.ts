/** Manual compaction retries a transient model failure (429, 5xx) as automatic compaction does. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { eventsOf, harness, modelSettings, type Harness } from "./harness";
import { N } from "./support";

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

describe("manual compaction and a rate limit", () => {
  it("a 429 is retried (auto_retry_start, scope compaction) and the compaction is made", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { keepRecentTokens: 1000 } }) });
    h.add(N.U(8000), N.A(800), N.U(8000), N.A(800));
    server.enqueue({ kind: "error", status: 429, message: "rate limited", headers: { "retry-after": "0" } });
    server.enqueue({ kind: "text", text: "SUMMARY" });
    const out = await h.engine.compact(h.sessionId);
    expect(out.entry?.summary).toContain("SUMMARY");
    expect(eventsOf(h, "auto_retry_start").map((e) => [e.scope, e.attempt])).toEqual([["compaction", 1]]);
  });

  it("a Retry-After over the cap ends it at once with a sentence that says so; nothing is written", async () => {
    h = await harness({ settings: modelSettings(server, { compaction: { keepRecentTokens: 1000 } }) });
    h.add(N.U(8000), N.A(800), N.U(8000), N.A(800));
    const before = h.store.loadEntries(h.sessionId).length;
    server.enqueue({ kind: "error", status: 429, message: "rate limited", headers: { "retry-after": "3600" } });
    await expect(h.engine.compact(h.sessionId)).rejects.toThrow(/Bonsai waits at most 60 s/);
    expect(h.store.loadEntries(h.sessionId)).toHaveLength(before);
    expect(eventsOf(h, "auto_retry_start")).toEqual([]);
  });
});
