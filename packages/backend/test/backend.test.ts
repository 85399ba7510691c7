import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import { METHOD_NAMES, contract, type CallResult } from "@bonsai/ipc";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { createBackend, type Backend } from "../src/index";
import { importUpload, ok } from "./support";

const fixture = path.resolve(import.meta.dirname, "../../../../shared/fixtures/before-compaction.jsonl");
const hasFixture = fs.existsSync(fixture);

let dir: string;
let backend: Backend;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-backend-"));
  // the folder the window may import from: an agents' session folder of this host
  backend = createBackend({ dataDir: dir, env: { BONSAI_TEST_KEY: "", BONSAI_SESSIONS_DIRS: path.join(dir, "agent-sessions") } });
});
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, params: unknown): Promise<CallResult> {
  return backend.dispatch(method, params);
}


/** A small valid session: header + user + assistant. */
function tinySession(id = "s-tiny"): string {
  const lines = [
    { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/project" },
    { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hello there", timestamp: 1 } },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: "2026-01-01T00:00:02.000Z",
      message: { role: "assistant", content: [{ type: "text", text: "hi" }], api: "x", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: 2 },
    },
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

describe("createBackend", () => {
  it("has a handler for every contract method (and nothing else)", () => {
    expect(Object.keys(backend.handlers).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it("validates every method's payload before any handler runs", async () => {
    for (const method of METHOD_NAMES) {
      const r = await call(method, { sessionId: ["not", "a", "string"], surprise: 1 });
      expect(r.ok, method).toBe(false);
      if (!r.ok) expect(r.error.code, method).toBe("invalid_payload");
    }
    // and keeps serving
    expect(ok<{ sessions: unknown[] }>(await call("listSessions", {})).sessions).toEqual([]);
  });

  it("imports uploaded contents, lists, opens and reads the session; outputs match the contract", async () => {
    const events: string[] = [];
    backend.onEvent((e) => events.push(e));
    const imported = await importUpload(backend.dispatch, "tiny.jsonl", tinySession(), "r1");
    expect(imported.results).toMatchObject([{ ok: true, entriesImported: 2 }]);
    expect(events).toContain("importProgress");
    expect(events).toContain("sessionsChanged");
    const sessionId = imported.results[0]!.sessionId;

    const list = ok(await call("listSessions", {}));
    expect(contract.listSessions.output.parse(list).sessions).toMatchObject([{ id: sessionId, cwd: "/tmp/project", entryCount: 2, title: "hello there" }]);

    const opened = ok(await call("openSession", { sessionId }));
    expect(unpackSkeleton(contract.openSession.output.parse(opened).skeleton).nodes.map((n) => n.id)).toEqual(["u1", "a1"]);

    const entry = contract.getEntry.output.parse(ok(await call("getEntry", { sessionId, entryId: "u1" })));
    expect(entry).toMatchObject({ entry: { id: "u1", type: "message" }, onActivePath: true, prunedOriginal: null });
    expect(entry.tokens).toBeGreaterThan(0);

    const preview = contract.getContextPreview.output.parse(ok(await call("getContextPreview", { sessionId })));
    expect(preview.messages.map((m) => m.entryId)).toEqual(["u1", "a1"]);
    expect(preview.sizeSeries.map((p) => p.entryId)).toEqual(["u1", "a1"]);
    expect(preview.contextWindow).toBe(200000);

    const exported = contract.exportSession.output.parse(ok(await call("exportSession", { sessionId, format: "jsonl" })));
    expect(exported.fileName).toBe("tiny.jsonl");
    const download = backend.takeDownload(exported.url.slice("/download/".length))!;
    expect(fs.readFileSync(download.file, "utf8").split("\n").filter(Boolean)).toHaveLength(3);
    download.done();

    const missing = await call("getEntry", { sessionId, entryId: "nope" });
    expect(missing.ok ? null : missing.error.code).toBe("not_found");
  });

  it("imports every session file of a folder", async () => {
    const folder = path.join(dir, "agent-sessions");
    fs.mkdirSync(path.join(folder, "project"), { recursive: true });
    fs.writeFileSync(path.join(folder, "one.jsonl"), tinySession("s-one"));
    fs.writeFileSync(path.join(folder, "project", "two.jsonl"), tinySession("s-two"));
    const r = ok<{ results: { ok: boolean; source: string }[] }>(await call("importSessions", { paths: [folder] }));
    expect(r.results.filter((x) => x.ok).map((x) => path.basename(x.source)).sort()).toEqual(["one.jsonl", "two.jsonl"]);
    expect(ok<{ sessions: unknown[] }>(await call("listSessions", {})).sessions).toHaveLength(2);
  });

  it("reports a file that is not a session as a failed import, not a crash", async () => {
    const r = await importUpload(backend.dispatch, "notes.jsonl", "hello\nworld\n");
    expect(r.results[0]!.ok).toBe(false);
    expect(r.results[0]!.error).toBe("not a session file: it is not JSON lines (its first line is not JSON); Bonsai reads pi / oh-my-pi sessions, Claude Code transcripts and Codex rollouts");
    const missing = ok<{ results: { ok: boolean; error: string | null }[] }>(await call("importSessions", { paths: [path.join(dir, "agent-sessions", "absent.jsonl")] }));
    expect(missing.results[0]).toMatchObject({ ok: false, error: "the file could not be read: no such file or folder" });
  });

  it("refuses invalid settings naming the field, and persists valid ones", async () => {
    const bad = await call("setSettings", { patch: { compaction: { reserveTokens: -1 } } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.issues?.[0]?.path).toBe("patch.compaction.reserveTokens");
    const crossField = await call("setSettings", { patch: { compaction: { reserveTokens: 500000 } } });
    expect(crossField.ok ? null : crossField.error.code).toBe("invalid_payload");
    const good = ok<{ settings: { compaction: { keepRecentTokens: number } } }>(await call("setSettings", { patch: { compaction: { keepRecentTokens: 12345 } } }));
    expect(good.settings.compaction.keepRecentTokens).toBe(12345);
    await backend.close();
    backend = createBackend({ dataDir: dir, env: {} });
    expect(ok<{ settings: { compaction: { keepRecentTokens: number } } }>(await call("getSettings", {})).settings.compaction.keepRecentTokens).toBe(12345);
  });

  it("stores the API key outside the database (0600) and never returns it", async () => {
    const secret = "sk-test-do-not-leak-1234567890";
    const state = ok(await call("setApiKey", { key: secret }));
    expect(state).toMatchObject({ hasApiKey: true, apiKeySource: "file", apiKeyStorage: "file" });
    expect(JSON.stringify(state)).not.toContain(secret);
    const file = path.join(dir, "api-key");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(backend.dbPath).includes(Buffer.from(secret))).toBe(false);
    expect(JSON.stringify(ok(await call("getSettings", {})))).not.toContain(secret);
    expect(backend.apiKey()).toBe(secret);
    expect(ok(await call("clearApiKey", {}))).toMatchObject({ hasApiKey: false, apiKeySource: null });
  });

  it("an environment key wins and is reported as such", async () => {
    await backend.close();
    backend = createBackend({ dataDir: dir, env: { OPENAI_API_KEY: "sk-env" } });
    expect(ok(await call("getSettings", {}))).toMatchObject({ hasApiKey: true, apiKeySource: "env" });
  });

  it.skipIf(!hasFixture)("compacts the real fixture (offline summarizer): dry run, commit of an edited summary, abort when idle", async () => {
    // the fixture lives in ../shared: import an uploaded copy so write-through can never touch it
    const original = fs.readFileSync(fixture);
    const copy = await importUpload(backend.dispatch, "copy.jsonl", original);
    expect(copy.results[0]!.ok).toBe(true);
    const id = copy.results[0]!.sessionId;
    expect(ok<{ sessions: { sourcePath: string }[] }>(await call("listSessions", {})).sessions[0]!.sourcePath.startsWith(dir)).toBe(true);
    const plan = contract.planCompaction.output.parse(ok(await call("planCompaction", { sessionId: id })));
    expect(plan.possible).toBe(true);
    const dry = contract.compact.output.parse(ok(await call("compact", { sessionId: id, dryRun: true, instructions: "focus on the refactor" })));
    expect(dry.entryId).toBeNull();
    expect(dry.result.offline).toBe(true);
    expect(dry.contextTokensAfter).toBeLessThan(dry.contextTokensBefore);
    const before = unpackSkeleton(ok<PackedSkeleton>(await call("getSkeleton", { sessionId: id }))).nodes.length;
    const committed = ok<{ entryId: string }>(await call("commitCompaction", { sessionId: id, result: { ...dry.result, summary: "Edited by the user." } }));
    const after = unpackSkeleton(ok<PackedSkeleton>(await call("getSkeleton", { sessionId: id })));
    expect(after.nodes.length).toBe(before + 1);
    expect(after.leafId).toBe(committed.entryId);
    const again = await call("compact", { sessionId: id });
    expect(again.ok ? null : again.error.code).toBe("conflict"); // "Already compacted"
    expect(ok(await call("abort", { sessionId: id }))).toEqual({ aborted: false });
    expect(fs.readFileSync(fixture).equals(original)).toBe(true);
  });

  it("plans, applies and restores pruning; the inspector shows the original of a pruned output", async () => {
    const content = sessionToJsonl(generateSession({ entries: 400, seed: 7, contentScale: 12, compactionInterval: 0, branchProbability: 0 }));
    const { results } = await importUpload(backend.dispatch, "big.jsonl", content);
    const sessionId = results[0]!.sessionId;
    const plan = contract.planPrune.output.parse(ok(await call("planPrune", { sessionId })));
    expect(plan.items.length).toBeGreaterThan(0);
    expect(plan.tokensSaved).toBeGreaterThan(0);
    expect(plan.nothingReason).toBeNull();
    const events: string[] = [];
    backend.onEvent((e) => events.push(e));
    const applied = ok<{ prunedEntryIds: string[]; tokensSaved: number }>(await call("applyPrune", { sessionId }));
    expect(applied.prunedEntryIds).toEqual(plan.items.map((i) => i.entryId));
    expect(events).toContain("pruneDone");
    const first = plan.items[0]!.entryId;
    const detail = contract.getEntry.output.parse(ok(await call("getEntry", { sessionId, entryId: first })));
    expect(detail.prunedOriginal).not.toBeNull();
    expect(JSON.stringify(detail.entry)).toContain("[Output truncated");
    expect(unpackSkeleton(ok<PackedSkeleton>(await call("getSkeleton", { sessionId }))).nodes.find((n) => n.id === first)?.pruned).toBe(true);
    const restored = ok<{ restoredEntryIds: string[] }>(await call("restorePruned", { sessionId, entryIds: [first] }));
    expect(restored.restoredEntryIds).toEqual([first]);
    expect(contract.getEntry.output.parse(ok(await call("getEntry", { sessionId, entryId: first }))).prunedOriginal).toBeNull();
  });

  it.skipIf(!hasFixture)("plans a compaction on the worker thread exactly as inline", async () => {
    const content = fs.readFileSync(fixture, "utf8");
    const { results } = await importUpload(backend.dispatch, "copy.jsonl", content);
    const sessionId = results[0]!.sessionId;
    const inline = ok(await call("planCompaction", { sessionId }));
    await backend.close();
    backend = createBackend({ dataDir: dir, env: { BONSAI_SESSIONS_DIRS: path.join(dir, "agent-sessions") }, worker: { url: new URL("../../engine/src/worker/compaction-worker.ts", import.meta.url) } });
    const threaded = ok(await call("planCompaction", { sessionId }));
    expect(threaded).toEqual(inline);
    expect(contract.planCompaction.output.parse(threaded).possible).toBe(true);
  });

  it("navigates with and without a branch summary, and puts a chosen user message back for editing", async () => {
    const header = { type: "session", version: 3, id: "s-nav", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/nav" };
    const msg = (id: string, parentId: string | null, role: "user" | "assistant", text: string) => ({
      type: "message",
      id,
      parentId,
      timestamp: "2026-01-01T00:00:01.000Z",
      message:
        role === "user"
          ? { role, content: text, timestamp: 1 }
          : { role, content: [{ type: "text", text }], api: "x", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: 2 },
    });
    const lines = [header, msg("u1", null, "user", "first question"), msg("a1", "u1", "assistant", "first answer"), msg("u2", "a1", "user", "second question"), msg("a2", "u2", "assistant", "second answer")];
    const { results } = await importUpload(backend.dispatch, "nav.jsonl", lines.map((l) => JSON.stringify(l)).join("\n"));
    const sessionId = results[0]!.sessionId;
    const events: { event: string; payload: Record<string, unknown> }[] = [];
    backend.onEvent((event, payload) => events.push({ event, payload: payload as Record<string, unknown> }));

    // leaving u2 -> a2 for a1 abandons that branch: it is summarized (offline summarizer) under a1
    const onPath = async () =>
      contract.getEntries.output.parse(ok(await call("getEntries", { sessionId, entryIds: ["u1", "a1", "u2", "a2"] }))).entries.map((e) => e.onActivePath);
    expect(await onPath()).toEqual([true, true, true, true]);
    const summarized = contract.navigate.output.parse(ok(await call("navigate", { sessionId, targetId: "a1", summarize: true, requestId: "nav-1" })));
    expect(summarized.summaryEntryId).not.toBeNull();
    // the inspector's "on the active path" follows the leaf
    expect(await onPath()).toEqual([true, true, false, false]);
    expect(contract.getEntry.output.parse(ok(await call("getEntry", { sessionId, entryId: "a2" }))).onActivePath).toBe(false);
    expect(summarized.leafId).toBe(summarized.summaryEntryId);
    expect(events.find((e) => e.event === "branchSummaryEnd")?.payload).toMatchObject({ requestId: "nav-1", ok: true, entryId: summarized.summaryEntryId });
    const skeleton = unpackSkeleton(ok<PackedSkeleton>(await call("getSkeleton", { sessionId })));
    expect(skeleton.nodes.find((n) => n.id === summarized.summaryEntryId)).toMatchObject({ type: "branch_summary", parentId: "a1" });

    const plain = contract.navigate.output.parse(ok(await call("navigate", { sessionId, targetId: "a2", summarize: false })));
    // a pi file: the switch reaches it as a bonsai-branch entry at a2, which is the leaf now (docs/DEVIATIONS.md B-E31)
    expect(plain).toMatchObject({ editorText: null, summaryEntryId: null, cancelled: false });
    const after = unpackSkeleton(ok<PackedSkeleton>(await call("getSkeleton", { sessionId })));
    expect(after.nodes.find((n) => n.id === plain.leafId)).toMatchObject({ type: "custom", customType: "bonsai-branch", parentId: "a2" });
    expect(events.some((e) => e.event === "sessionUpdated" && e.payload.leafId === plain.leafId)).toBe(true);

    const edit = contract.navigate.output.parse(ok(await call("navigate", { sessionId, targetId: "u2", summarize: false })));
    expect(edit).toMatchObject({ editorText: "second question" });
    const edited = unpackSkeleton(ok<PackedSkeleton>(await call("getSkeleton", { sessionId })));
    expect(edited.nodes.find((n) => n.id === edit.leafId)).toMatchObject({ type: "custom", customType: "bonsai-branch", parentId: "a1" });

    const missing = await call("navigate", { sessionId, targetId: "nope", summarize: false });
    expect(missing.ok ? null : missing.error.code).toBe("not_found");
  });
});
