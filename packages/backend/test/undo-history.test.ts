/**
 * Undo as people expect: the changes Bonsai made to a session (label, branch switch, compaction,
 * prune) undone one by one and redone, each checked against the agent's file (what pi resumes
 * from) and the store a new backend reads; an undone compaction is not counted or reported, and a
 * prune is undone as a whole. The history is kept in the store (migration 021): a compaction made
 * before the backend closed is undone by the next one; what changed outside Bonsai meanwhile still
 * refuses it, with nothing written; a file read again whole forgets the history.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildSessionContext, unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import type { MethodName, MethodOutput } from "@bonsai/ipc";
import { openStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { createBackend, type Backend } from "../src/index";
import { agentView, generatedSessionFile } from "./agent-file";
import { callParsed } from "./support";

let dir: string;
let backend: Backend;
const dataDir = () => path.join(dir, "data");
const open = () => createBackend({ dataDir: dataDir(), env: { BONSAI_SESSIONS_DIRS: dir } });
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-undo-history-"));
  backend = open();
});
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = <M extends MethodName>(method: M, params: unknown): Promise<MethodOutput<M>> => callParsed(backend, method, params);

const sessionFile = (seed: number): string => generatedSessionFile(dir, seed);

const labelOf = async (sessionId: string, entryId: string) => unpackSkeleton((await call("getSkeleton", { sessionId })) as PackedSkeleton).nodes.find((n) => n.id === entryId)?.label;
const compactionCount = async (sessionId: string) => (await call("listSessions", {})).sessions.find((s) => s.id === sessionId)!.compactionCount;
const reported = async (sessionId: string) => (await call("getAmnesiaReport", { sessionId })).compactions.map((c) => c.compactionId);

describe("undo history", () => {
  it("a label, a branch switch and a compaction are undone one by one, newest first, in the file and the store", async () => {
    const file = sessionFile(11);
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    await call("setSettings", { patch: { compaction: { keepRecentTokens: 3000 } } });
    const start = agentView(file);
    const messages = start.entries.filter((e) => e.type === "message");
    const labelled = messages[3]!.id;
    const target = messages[Math.floor(messages.length * 0.7)]!.id;

    await call("setLabel", { sessionId, entryId: labelled, label: "before the refactor" });
    await call("navigate", { sessionId, targetId: target, summarize: false });
    const switched = agentView(file);
    // a bonsai-branch entry where the leaf went (a user message as the target puts it at its parent, as pi does)
    const marker = switched.entries.at(-1)!;
    expect(marker).toMatchObject({ type: "custom", customType: "bonsai-branch" });
    expect(switched.contextIds).toEqual(buildSessionContext(start.entries, marker.parentId).entryIds);
    expect(switched.contextIds).not.toEqual(start.contextIds);
    const compacted = await call("compact", { sessionId });
    expect(compacted.entryId).not.toBeNull();
    const afterCompaction = agentView(file);
    expect(afterCompaction.contextIds[0]).toBe(compacted.entryId);
    expect(await compactionCount(sessionId)).toBe(1);
    expect(await reported(sessionId)).toEqual([compacted.entryId]);

    // undo, undo, undo: newest first
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "compaction" });
    await call("undo", { sessionId });
    expect(agentView(file).contextIds).toEqual(switched.contextIds);
    expect(await compactionCount(sessionId)).toBe(0);
    expect(await reported(sessionId)).toEqual([]);
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "branch", title: "Undo branch switch" });
    await call("undo", { sessionId });
    expect(agentView(file).contextIds).toEqual(start.contextIds);
    expect(await labelOf(sessionId, labelled)).toBe("before the refactor");
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "label" });
    await call("undo", { sessionId });
    expect(await labelOf(sessionId, labelled)).toBeUndefined();
    expect(agentView(file).contextIds).toEqual(start.contextIds);
    expect(await call("getUndo", { sessionId })).toMatchObject({ undo: null, redo: { kind: "label", title: "Redo label" } });

    // a new backend reads what is stored: the undone compaction is not counted there either
    await backend.close();
    backend = open();
    expect(await compactionCount(sessionId)).toBe(0);
    // the history is kept in the store: the new backend offers to redo the label
    expect(await call("getUndo", { sessionId })).toMatchObject({ undo: null, redo: { kind: "label", title: "Redo label" } });
  });

  it("redo does the undone changes again in order, and each can be undone again", async () => {
    const file = sessionFile(12);
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    await call("setSettings", { patch: { compaction: { keepRecentTokens: 3000 } } });
    const start = agentView(file);
    const messages = start.entries.filter((e) => e.type === "message");
    const labelled = messages[2]!.id;
    const target = messages[Math.floor(messages.length * 0.7)]!.id;
    await call("setLabel", { sessionId, entryId: labelled, label: "keep" });
    await call("navigate", { sessionId, targetId: target, summarize: false });
    const switched = agentView(file).contextIds;
    const compacted = (await call("compact", { sessionId })).entryId!;
    const compactedContext = agentView(file).contextIds;
    for (let i = 0; i < 3; i++) await call("undo", { sessionId });

    const label = await call("redo", { sessionId });
    expect(label.message).toBe(`The label is redone: ${labelled} has the label “keep” again.`);
    expect(await labelOf(sessionId, labelled)).toBe("keep");
    expect(agentView(file).contextIds).toEqual(start.contextIds);
    expect((await call("getUndo", { sessionId })).redo).toMatchObject({ kind: "branch", title: "Redo branch switch" });
    await call("redo", { sessionId });
    expect(agentView(file).contextIds).toEqual(switched);
    const again = await call("redo", { sessionId });
    expect(again.message).toBe("The compaction is redone: the leaf is after it again, where a redo entry makes the agent resume too.");
    const view = agentView(file);
    expect(view.entries.at(-1)).toMatchObject({ type: "custom", customType: "bonsai-redo", parentId: compacted, data: { redid: "compaction", entryId: compacted } });
    expect(view.contextIds).toEqual(compactedContext);
    expect(await compactionCount(sessionId)).toBe(1);
    expect(await reported(sessionId)).toEqual([compacted]);
    expect(await call("getUndo", { sessionId })).toMatchObject({ undo: { kind: "compaction" }, redo: null });

    // and undone again, all three
    for (let i = 0; i < 3; i++) await call("undo", { sessionId });
    expect(await labelOf(sessionId, labelled)).toBeUndefined();
    expect(agentView(file).contextIds).toEqual(start.contextIds);
    expect(await compactionCount(sessionId)).toBe(0);
    await backend.close();
    backend = open();
    expect(await compactionCount(sessionId)).toBe(0);
  });

  it("a prune is undone as a whole (the file is byte for byte what it was) and redone", async () => {
    const file = sessionFile(7);
    const original = fs.readFileSync(file);
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    const pruned = await call("applyPrune", { sessionId });
    expect(pruned.prunedEntryIds.length).toBeGreaterThan(1);
    expect(fs.readFileSync(file).equals(original)).toBe(false);
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "prune", title: "Undo prune" });
    const undone = await call("undo", { sessionId });
    expect(undone.message).toBe(`The prune is undone: ${pruned.prunedEntryIds.length} tool outputs restored.`);
    expect(fs.readFileSync(file).equals(original)).toBe(true);
    expect((await call("getAmnesiaReport", { sessionId })).prunings).toEqual([]);
    const redone = await call("redo", { sessionId });
    expect(redone.message).toBe(`The prune is redone: ${pruned.prunedEntryIds.length} tool outputs pruned again.`);
    const prunedInFile = agentView(file).entries.filter((e) => JSON.stringify(e).includes("[Output truncated")).map((e) => e.id);
    expect(prunedInFile.sort()).toEqual([...pruned.prunedEntryIds].sort());
    await call("undo", { sessionId });
    expect(fs.readFileSync(file).equals(original)).toBe(true);
  });

  it("an undo is refused, nothing written, when the agent appended to the file since (its turn stays where it resumes)", async () => {
    const file = sessionFile(14);
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    await call("setSettings", { patch: { compaction: { keepRecentTokens: 3000 } } });
    const compacted = (await call("compact", { sessionId })).entryId!;
    // the agent goes on from the compaction; Bonsai has not read it yet
    const turn = { type: "message", id: "agent-turn", parentId: compacted, timestamp: "2027-01-01T00:00:00.000Z", message: { role: "user", content: "the agent went on", timestamp: 1 } };
    fs.appendFileSync(file, `${JSON.stringify(turn)}\n`);
    const before = fs.readFileSync(file);
    const out = await backend.dispatch("undo", { sessionId });
    expect(out).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect(out.ok ? "" : out.error.message).toMatch(/Nothing was written/u);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(agentView(file).leaf).toBe("agent-turn");
    expect(await compactionCount(sessionId)).toBe(1);
  });

  it("a new change after an undo drops what could be redone", async () => {
    const file = sessionFile(13);
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    const ids = agentView(file).entries.filter((e) => e.type === "message").map((e) => e.id);
    await call("setLabel", { sessionId, entryId: ids[1], label: "one" });
    await call("undo", { sessionId });
    expect((await call("getUndo", { sessionId })).redo).toMatchObject({ kind: "label" });
    await call("setLabel", { sessionId, entryId: ids[2], label: "two" });
    expect(await call("getUndo", { sessionId })).toMatchObject({ undo: { kind: "label" }, redo: null });
    await expect(backend.dispatch("redo", { sessionId })).resolves.toMatchObject({ ok: false, error: { code: "conflict" } });
  });
});

/** what the store holds of the session, read by a store of its own on the database file (the backend closed) */
function stored(sessionId: string): { compactions: number | null | undefined; contextIds: string[]; history: unknown } {
  const store = openStore({ path: path.join(dataDir(), "bonsai.db") });
  try {
    const leaf = store.getLeaf(sessionId);
    return {
      compactions: store.getSession(sessionId)?.compactionCount,
      contextIds: buildSessionContext(store.getPath(sessionId, leaf), leaf).entryIds,
      history: store.getUndoHistory(sessionId),
    };
  } finally {
    store.close();
  }
}

async function compacted(seed: number): Promise<{ file: string; sessionId: string; before: ReturnType<typeof agentView>; entryId: string }> {
  const file = sessionFile(seed);
  const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
  await call("setSettings", { patch: { compaction: { keepRecentTokens: 3000 } } });
  const before = agentView(file);
  const entryId = (await call("compact", { sessionId })).entryId!;
  expect(agentView(file).contextIds[0]).toBe(entryId);
  return { file, sessionId, before, entryId };
}

describe("undo after a restart", () => {
  it("a compaction made before the backend closed is undone by the next backend: the file and the store as before it, and it can be redone", async () => {
    const { file, sessionId, before, entryId } = await compacted(21);
    await backend.close();
    const storedBefore = stored(sessionId);
    expect(storedBefore.compactions).toBe(1);
    expect(storedBefore.contextIds[0]).toBe(entryId);
    backend = open();

    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "compaction", entryId, title: "Undo compaction" });
    const out = await call("undo", { sessionId });
    expect(out.message).toMatch(/^The compaction is undone/u);
    // the agent resumes where it was before the compaction; the compaction stays off the path
    const after = agentView(file);
    expect(after.contextIds).toEqual(before.contextIds);
    expect(after.leaf).toBe(out.appendedEntryId);
    expect(after.entries.some((e) => e.id === entryId)).toBe(true);
    await backend.close();
    const storedAfter = stored(sessionId);
    expect(storedAfter.compactions).toBe(0);
    expect(storedAfter.contextIds).toEqual(before.contextIds);

    // and redone by yet another backend
    backend = open();
    expect(await call("getUndo", { sessionId })).toMatchObject({ undo: null, redo: { kind: "compaction", entryId } });
    await call("redo", { sessionId });
    expect(agentView(file).contextIds[0]).toBe(entryId);
    await backend.close();
    expect(stored(sessionId)).toMatchObject({ compactions: 1 });
    backend = open();
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "compaction", entryId });
  });

  it("the agent appended while Bonsai was closed: the undo is refused in one line, nothing written", async () => {
    const { file, sessionId, entryId } = await compacted(22);
    await backend.close();
    const turn = { type: "message", id: "agent-turn", parentId: entryId, timestamp: "2027-01-01T00:00:00.000Z", message: { role: "user", content: "the agent went on", timestamp: 1 } };
    fs.appendFileSync(file, `${JSON.stringify(turn)}\n`);
    const bytes = fs.readFileSync(file);
    backend = open();
    const out = await backend.dispatch("undo", { sessionId });
    expect(out).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect(out.ok ? "" : out.error.message.split("\n")).toHaveLength(1);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    // once the store has read the agent's turn, nothing is offered
    await call("importSessions", { paths: [file] });
    expect(await call("getUndo", { sessionId })).toEqual({ undo: null, redo: null });
    const refused = await backend.dispatch("undo", { sessionId });
    expect(refused).toMatchObject({ ok: false, error: { code: "conflict", message: expect.stringMatching(/^Nothing to undo: the session changed since/u) as unknown } });
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it("a file rewritten outside Bonsai (read again whole) forgets the history", async () => {
    const { file, sessionId } = await compacted(23);
    expect((await call("getUndo", { sessionId })).undo).toMatchObject({ kind: "compaction" });
    await backend.close();
    // another session's content in the same file: not an append, so the store reads it again whole
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 60, seed: 99, compactionInterval: 0, branchProbability: 0 })));
    backend = open();
    await call("importSessions", { paths: [file] });
    expect(await call("getUndo", { sessionId })).toEqual({ undo: null, redo: null });
    await backend.close();
    expect(stored(sessionId).history).toEqual({ done: [], undone: [] });
    backend = open();
  });
});
