/**
 * An abort sent in the same tick as the call it cancels (before the job has reached its first
 * await) is not lost: the job ends cancelled, the session is unchanged, and no model request is
 * answered into an entry.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useMockOpenAiServer, type MockOpenAiServer } from "@bonsai/testkit";
import { eventsOf, harness, modelSettings, type Harness } from "./harness";
import { N } from "./support";

const mock = useMockOpenAiServer({ beforeAll, afterAll, beforeEach });
let server: MockOpenAiServer;
let h: Harness | undefined;
beforeEach(() => {
  server = mock();
  // any request that does get through is answered at once: a lost abort shows as a new entry
  server.setChatFallback((b) => ({ kind: "text", text: b.stream ? "reply" : "## Goal\nSUMMARY", usage: { prompt_tokens: 100, completion_tokens: 10 } }));
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function session(): Promise<{ ids: string[]; snapshot: () => unknown }> {
  h = await harness({ settings: modelSettings(server) });
  const ids = h.add(N.U(4000), N.A(400), N.U(4000), N.A(400)).map((e) => e.id);
  const hh = h;
  return { ids, snapshot: () => ({ leaf: hh.store.getLeaf(hh.sessionId), entries: hh.store.loadEntries(hh.sessionId).map((e) => e.id) }) };
}

/** let anything a lost abort would have let through finish */
const settle = () => new Promise((r) => setTimeout(r, 150));

describe("abort in the same tick as the call", () => {
  it.each([true, false])("navigateTree (summarize: %s), then abortBranchSummary: the leaf stays", async (summarize) => {
    const { ids, snapshot } = await session();
    const before = snapshot();
    const pending = h!.engine.navigateTree(h!.sessionId, ids[1]!, { summarize });
    h!.engine.abortBranchSummary(h!.sessionId);
    expect(await pending).toEqual({ cancelled: true, aborted: true, leafId: ids[3] });
    await settle();
    expect(snapshot()).toEqual(before);
    expect(server.chatRequests()).toHaveLength(0);
    expect(eventsOf(h!, "branch_summary_end")).toMatchObject(summarize ? [{ cancelled: true, aborted: true }] : []);
  });

  it("compact, then abortCompaction (with and without the session id)", async () => {
    const { snapshot } = await session();
    const before = snapshot();
    const first = h!.engine.compact(h!.sessionId);
    h!.engine.abortCompaction(h!.sessionId);
    await expect(first).rejects.toThrow("Compaction cancelled");
    const second = h!.engine.compact(h!.sessionId, { dryRun: true });
    h!.engine.abortCompaction();
    await expect(second).rejects.toThrow("Compaction cancelled");
    await settle();
    expect(snapshot()).toEqual(before);
    expect(server.chatRequests()).toHaveLength(0);
    expect(h!.engine.isCompacting(h!.sessionId)).toBe(false);
  });

  it("prompt, then abortTurn: nothing is appended and no request is sent", async () => {
    const { snapshot } = await session();
    const before = snapshot();
    const pending = h!.engine.prompt(h!.sessionId, "a question");
    expect(h!.engine.isTurnRunning(h!.sessionId)).toBe(true);
    h!.engine.abortTurn(h!.sessionId);
    await expect(pending).rejects.toThrow("Prompt cancelled");
    await settle();
    expect(snapshot()).toEqual(before);
    expect(server.chatRequests()).toHaveLength(0);
    expect(h!.engine.isTurnRunning(h!.sessionId)).toBe(false);
    // and the session still takes prompts
    const r = await h!.engine.prompt(h!.sessionId, "again");
    expect(r.message.stopReason).toBe("stop");
  });

  it("a second prompt while one is starting is refused", async () => {
    await session();
    const first = h!.engine.prompt(h!.sessionId, "one");
    await expect(h!.engine.prompt(h!.sessionId, "two")).rejects.toThrow("A turn is already running for this session");
    await first;
  });
});
