/**
 * Undo of the last compaction, branch switch or label made in Bonsai: the entries stay, the leaf
 * moves back, and the file's last line — where pi resumes — is back at the leaf's place.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSessionContext, unpackSkeleton, type PackedSkeleton, type SessionEntry } from "@bonsai/core";
import type { MethodName, MethodOutput } from "@bonsai/ipc";
import { createBackend, type Backend } from "../src/index";
import { agentView } from "./agent-file";
import { callParsed } from "./support";

let dir: string;
let backend: Backend;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-undo-"));
  // the session files lie in an agents' session folder: the window may import paths there
  backend = createBackend({ dataDir: dir, env: { BONSAI_SESSIONS_DIRS: dir } });
});
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = <M extends MethodName>(method: M, params: unknown): Promise<MethodOutput<M>> => callParsed(backend, method, params);

/** A session file long enough to compact (offline summarizer), written where write-through goes. */
function sessionFile(): string {
  const lines: object[] = [{ type: "session", version: 3, id: "s-undo", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/undo" }];
  let parentId: string | null = null;
  for (let i = 0; i < 16; i++) {
    const id = `m${i}`;
    const message =
      i % 2 === 0
        ? { role: "user", content: `question ${i} `.repeat(2500), timestamp: i }
        : { role: "assistant", content: [{ type: "text", text: `answer ${i} `.repeat(2500) }], api: "x", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: i };
    lines.push({ type: "message", id, parentId, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i + 1)).toISOString(), message });
    parentId = id;
  }
  const file = path.join(dir, "undo.jsonl");
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

describe("undo", () => {
  it("a compaction: the leaf moves back, the compaction stays as an abandoned branch, and the agent resumes where Bonsai is", async () => {
    const file = sessionFile();
    const { results } = await call("importSessions", { paths: [file] });
    const sessionId = results[0]!.sessionId!;
    await call("setSettings", { patch: { compaction: { keepRecentTokens: 3000 } } });
    const before = agentView(file);
    expect(await call("getUndo", { sessionId })).toEqual({ undo: null, redo: null });

    const compacted = await call("compact", { sessionId });
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "compaction", entryId: compacted.entryId, title: "Undo compaction" });

    const out = await call("undo", { sessionId });
    expect(out.message).toBe("The compaction is undone: the leaf is back at m15, where an undo entry makes the agent resume too; the compaction stays in the file as an abandoned branch and is no longer counted.");
    const skeleton = unpackSkeleton((await call("getSkeleton", { sessionId })) as PackedSkeleton);
    const marker = skeleton.nodes.find((n) => n.id === out.appendedEntryId)!;
    expect(marker).toMatchObject({ type: "custom", parentId: "m15", customType: "bonsai-undo" });
    expect(skeleton.leafId).toBe(marker.id);
    expect(skeleton.nodes.find((n) => n.id === compacted.entryId)?.parentId).toBe("m15"); // still there, now off the path

    const after = agentView(file);
    expect(after.leaf).toBe(marker.id);
    expect(after.contextIds).toEqual(before.contextIds);
    expect(after.entries.some((e) => e.id === compacted.entryId)).toBe(true);
    // nothing before it to undo; the compaction can be redone
    expect(await call("getUndo", { sessionId })).toMatchObject({ undo: null, redo: { kind: "compaction", title: "Redo compaction" } });
    await expect(backend.dispatch("undo", { sessionId })).resolves.toMatchObject({ ok: false, error: { code: "conflict" } });
  });

  it("a label: the old label comes back with a label entry right after the undone one, and no branch is added", async () => {
    const file = sessionFile();
    // a second branch tip: m5 -> x1
    fs.appendFileSync(file, JSON.stringify({ type: "message", id: "x1", parentId: "m5", timestamp: "2026-01-01T00:01:00.000Z", message: { role: "user", content: "a side question", timestamp: 99 } }) + "\n");
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    await call("navigate", { sessionId, targetId: "m15", summarize: false });
    const tips = (nodes: { id: string; parentId: string | null }[]) => nodes.filter((n) => !nodes.some((c) => c.parentId === n.id)).length;
    const labelEntries = (entries: SessionEntry[]) => entries.filter((e) => e.type === "label").length;
    const branchesBefore = tips(agentView(file).entries);
    await call("setLabel", { sessionId, entryId: "m3", label: "first" });
    const second = await call("setLabel", { sessionId, entryId: "m3", label: "second" });
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "label", entryId: second.labelEntryId, title: "Undo label change" });
    const labelsBefore = labelEntries(agentView(file).entries);
    const out = await call("undo", { sessionId });
    expect(out.message).toBe("The label is undone: m3 has the label “first” again.");
    const skeleton = unpackSkeleton((await call("getSkeleton", { sessionId })) as PackedSkeleton);
    expect(skeleton.nodes.find((n) => n.id === "m3")?.label).toBe("first");
    // the file and the store: the same number of branches, one label entry more, on the undone one
    const after = agentView(file);
    expect(tips(after.entries)).toBe(branchesBefore);
    expect(tips(skeleton.nodes)).toBe(branchesBefore);
    expect(labelEntries(after.entries)).toBe(labelsBefore + 1);
    expect(after.entries.at(-1)).toMatchObject({ type: "label", targetId: "m3", label: "first", parentId: second.labelEntryId });
    expect(after.leaf).toBe(out.appendedEntryId);
    expect(skeleton.leafId).toBe(out.appendedEntryId);
  });

  it("undoing a label that was the first: the target has no label again, and the tree keeps its branches", async () => {
    const file = sessionFile();
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    await call("setLabel", { sessionId, entryId: "m15", label: "before the refactor" });
    const out = await call("undo", { sessionId });
    expect(out.message).toBe("The label is undone: m15 has no label again.");
    const skeleton = unpackSkeleton((await call("getSkeleton", { sessionId })) as PackedSkeleton);
    expect(skeleton.nodes.find((n) => n.id === "m15")?.label).toBeUndefined();
    expect(skeleton.nodes.filter((n) => !skeleton.nodes.some((c) => c.parentId === n.id))).toHaveLength(1);
  });

  it("the title is as it was after a compaction and its undo", async () => {
    const file = sessionFile();
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    await call("setSettings", { patch: { compaction: { keepRecentTokens: 3000 } } });
    const titleOf = async () => (await call("listSessions", {})).sessions.find((s) => s.id === sessionId)!.title;
    const before = await titleOf();
    await call("compact", { sessionId });
    expect(await titleOf()).toBe(before);
    await call("undo", { sessionId });
    expect(await titleOf()).toBe(before);
  });

  it("a branch switch without a summary reaches the file (a bonsai-branch entry at the target), and undo returns the file's context to what it was", async () => {
    const file = sessionFile();
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    const before = agentView(file);
    await call("navigate", { sessionId, targetId: "m5", summarize: false });
    const switched = agentView(file);
    expect(switched.entries.at(-1)).toMatchObject({ type: "custom", customType: "bonsai-branch", parentId: "m5", data: { from: "m15", to: "m5" } });
    expect(switched.contextIds).toEqual(buildSessionContext(before.entries, "m5").entryIds);
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "branch", entryId: null });
    const out = await call("undo", { sessionId });
    expect(out.message).toBe("The branch switch is undone: the leaf is back at m15, where an undo entry makes the agent resume too.");
    expect(agentView(file).leaf).toBe(out.appendedEntryId);
    expect(agentView(file).contextIds).toEqual(before.contextIds);
  });

  it("is not offered once the session moved on without Bonsai (the agent appended a turn)", async () => {
    const file = sessionFile();
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    await call("setLabel", { sessionId, entryId: "m3", label: "x" });
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "label" });
    const last = agentView(file).leaf;
    fs.appendFileSync(file, JSON.stringify({ type: "message", id: "agent1", parentId: last, timestamp: "2026-01-01T00:02:00.000Z", message: { role: "user", content: "the agent went on", timestamp: 100 } }) + "\n");
    await call("importSessions", { paths: [file] });
    expect(await call("getUndo", { sessionId })).toEqual({ undo: null, redo: null });
    await expect(backend.dispatch("undo", { sessionId })).resolves.toMatchObject({ ok: false, error: { code: "conflict" } });
  });
});
