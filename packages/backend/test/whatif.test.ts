/** The what-if, amnesia and summary-check handlers on a real backend (SQLite in a temp folder). */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, whatIfSettingsOf } from "@bonsai/core";
import { contract } from "@bonsai/ipc";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { importLines, importUpload, useBackend, ok } from "./support";

const backend = useBackend();
const settings = whatIfSettingsOf(DEFAULT_SETTINGS);

async function importGenerated(entries: number, seed: number): Promise<string> {
  const content = sessionToJsonl(generateSession({ entries, seed, compactionInterval: 0, branchProbability: 0 }));
  const r = await importUpload(backend().dispatch, `g${seed}.jsonl`, content);
  return r.results[0]!.sessionId;
}

const t = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
const header = (id: string) => ({ type: "session", version: 3, id, timestamp: t(0), cwd: "/p" });
function chain(id: string, messages: object[]): object[] {
  return [header(id), ...messages.map((m, i) => ({ type: "message", id: `${id}-${i}`, parentId: i === 0 ? null : `${id}-${i - 1}`, timestamp: t(i + 1), message: { timestamp: i, ...m } }))];
}
const assistantCall = (id: string, name: string, args: object) => ({ role: "assistant", content: [{ type: "toolCall", id, name, arguments: args }], api: "x", provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, stopReason: "toolUse" });
const result = (id: string, name: string, text: string) => ({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], isError: false });
const reply = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], api: "x", provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop" });

describe("whatIf", () => {
  it("replays sessions under candidate settings: the contract's output, thinned series, markers on the path, totals", async () => {
    const a = await importGenerated(3000, 3);
    const b = await importGenerated(800, 4);
    const r = contract.whatIf.output.parse(ok(await backend().dispatch("whatIf", { sessionIds: [a, b], settings: { ...settings, reserveTokens: 60000 }, maxPoints: 200, window: "fixed" })));
    expect(r.settings).toMatchObject({ reserveTokens: 60000, threshold: 140000 });
    expect(r.sessions.map((s) => [s.contextWindow, s.threshold])).toEqual([
      [200000, 140000],
      [200000, 140000],
    ]);
    expect(r.sessions.map((s) => s.sessionId)).toEqual([a, b]);
    const first = r.sessions[0]!;
    expect(first.actual.points.length).toBeLessThanOrEqual(200);
    expect(first.candidate.compactions.length).toBeGreaterThan(0);
    const positions = first.candidate.points.map((p) => p[0]);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    for (const c of first.candidate.compactions) expect(c.atIndex).toBeGreaterThan(0);
    expect(r.totals.candidate.compactions).toBe(r.sessions.reduce((n, s) => n + s.candidate.compactions.length, 0));
    expect(r.totals.actual.peakContextTokens).toBe(Math.max(...r.sessions.map((s) => s.actual.peakContextTokens)));
    expect(r.computeMs).toBeGreaterThan(0);

    // compaction off: the candidate is the file
    const off = contract.whatIf.output.parse(ok(await backend().dispatch("whatIf", { sessionIds: [a], settings: { ...settings, compactionEnabled: false } })));
    expect(off.sessions[0]!.candidate).toEqual(off.sessions[0]!.actual);
  });

  it("replays each session on the window the page shows for it, the request's window serving an unknown model", async () => {
    const known = await importGenerated(3000, 3);
    const unknown = await importLines(backend(), chain("u", [{ role: "user", content: "hi" }, reply("hello"), { role: "user", content: "more" }, reply("done")]));
    const r = contract.whatIf.output.parse(ok(await backend().dispatch("whatIf", { sessionIds: [known, unknown], settings: { ...settings, contextWindow: 64_000 } })));
    for (const s of r.sessions) {
      const page = ok<{ contextWindow: number; threshold: number }>(await backend().dispatch("getContextPreview", { sessionId: s.sessionId }));
      if (s.sessionId === unknown) expect(s.contextWindow).toBe(64_000);
      else expect(s.contextWindow).toBe(page.contextWindow);
    }
    expect(r.sessions[0]!.contextWindow).not.toBe(64_000);
  });

  it("reads the session again after it changed (here: pruned)", async () => {
    const id = await importGenerated(1500, 5);
    const before = ok<{ sessions: { actual: { prunedTokens: number } }[] }>(await backend().dispatch("whatIf", { sessionIds: [id], settings }));
    expect(before.sessions[0]!.actual.prunedTokens).toBe(0);
    const pruned = ok<{ prunedEntryIds: string[] }>(await backend().dispatch("applyPrune", { sessionId: id }));
    expect(pruned.prunedEntryIds.length).toBeGreaterThan(0);
    const after = ok<{ sessions: { actual: { prunedTokens: number } }[] }>(await backend().dispatch("whatIf", { sessionIds: [id], settings }));
    expect(after.sessions[0]!.actual.prunedTokens).toBeGreaterThan(0);
  });

  it("refuses unknown sessions and invalid settings", async () => {
    const missing = await backend().dispatch("whatIf", { sessionIds: ["nope"], settings });
    expect(missing.ok ? null : missing.error.code).toBe("not_found");
    const bad = await backend().dispatch("whatIf", { sessionIds: ["x"], settings: { ...settings, thresholdPercent: 120 } });
    expect(bad.ok ? null : bad.error.code).toBe("invalid_payload");
  });
});

describe("getAmnesiaReport, getAmnesiaScores and getSummaryCheck", () => {
  it("reports a file read again after a compaction, and again after the session grew", async () => {
    const lines = chain("amn", [
      { role: "user", content: "Please look at the config loader first." },
      assistantCall("c1", "read", { path: "src/config.ts" }),
      result("c1", "read", "export const port = 80;"),
      reply("It reads the port."),
      { role: "user", content: "Now make the port configurable." },
      reply("Done."),
    ]);
    lines.push({ type: "compaction", id: "C", parentId: "amn-5", timestamp: t(7), summary: "## Goal\nport", firstKeptEntryId: "amn-4", tokensBefore: 1000 });
    lines.push({ type: "message", id: "amn-after", parentId: "C", timestamp: t(8), message: { role: "user", content: "Add a test for it.", timestamp: 8 } });
    const sessionId = await importLines(backend(), lines);
    const first = contract.getAmnesiaReport.output.parse(ok(await backend().dispatch("getAmnesiaReport", { sessionId })));
    expect(first).toEqual({ compactions: [{ compactionId: "C", score: 0, findings: [] }], prunings: [] });

    backend().store.appendEntry(sessionId, { type: "message", message: assistantCall("c9", "read", { path: "src/config.ts" }) });
    const second = contract.getAmnesiaReport.output.parse(ok(await backend().dispatch("getAmnesiaReport", { sessionId })));
    expect(second.compactions[0]!.findings.map((f) => [f.kind, f.entryIds[0]])).toEqual([["reread", "amn-1"]]);
    expect(second.compactions[0]!.score).toBe(2);
    // the badges' scores: the same figures without the findings' lists
    const scores = contract.getAmnesiaScores.output.parse(ok(await backend().dispatch("getAmnesiaScores", { sessionId })));
    expect(scores).toEqual({ compactions: [{ compactionId: "C", score: 2, findings: 1 }] });
    const missing = await backend().dispatch("getAmnesiaScores", { sessionId: "nope" });
    expect(missing.ok ? null : missing.error.code).toBe("not_found");
  });

  it("the report over many sessions lists every stored session with a compaction, worst first, and refuses a project", async () => {
    const before = contract.getAmnesiaOverview.output.parse(ok(await backend().dispatch("getAmnesiaOverview", {})));
    const lines = chain("many", [
      { role: "user", content: "Please look at the loader." },
      assistantCall("m1", "read", { path: "src/loader.ts" }),
      result("m1", "read", "export const load = 1;"),
      reply("Read."),
      { role: "user", content: "Go on." },
    ]);
    lines.push({ type: "compaction", id: "MC", parentId: "many-4", timestamp: t(7), summary: "## Goal\nloader", firstKeptEntryId: "many-4", tokensBefore: 1000 });
    lines.push({ type: "message", id: "many-after", parentId: "MC", timestamp: t(8), message: { timestamp: 8, ...assistantCall("m2", "read", { path: "src/loader.ts" }) } });
    const sessionId = await importLines(backend(), lines);
    await importGenerated(300, 9);
    const after = contract.getAmnesiaOverview.output.parse(ok(await backend().dispatch("getAmnesiaOverview", {})));
    expect(after.totals.sessions).toBe(before.totals.sessions + 1);
    const row = after.sessions.find((s) => s.sessionId === sessionId);
    expect(row).toMatchObject({ project: null, pushedBy: null, compactions: 1, score: 2, findings: { reread: 1 }, points: [{ kind: "compaction", entryId: "MC", score: 2 }] });
    expect(after.sessions.map((s) => s.score)).toEqual([...after.sessions.map((s) => s.score)].sort((a, b) => b - a));
    const refused = await backend().dispatch("getAmnesiaOverview", { project: "alpha" });
    expect(refused.ok ? null : refused.error.code).toBe("invalid_payload");
  });

  it("the summary check lists identifiers of what the compaction would summarize that the kept part uses", async () => {
    const big = "x".repeat(90000);
    const sessionId = await importLines(
      backend(),
      chain("sum", [
        { role: "user", content: `Fix parseRetryAfter in src/retry.ts ${big}` },
        reply("Fixed."),
        { role: "user", content: `Now test parseRetryAfter with dates ${big}` },
        reply("Tested."),
      ]),
    );
    const r = contract.getSummaryCheck.output.parse(ok(await backend().dispatch("getSummaryCheck", { sessionId })));
    expect(r.candidates.map((c) => c.identifier.value)).toEqual(["parseRetryAfter"]);
    expect(r.candidates[0]).toMatchObject({ spanEntryIds: ["sum-0"], laterEntryIds: ["sum-2"] });
  });
});
