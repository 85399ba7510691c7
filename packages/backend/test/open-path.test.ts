import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { unpackSkeleton, type PackedSkeleton } from "@bonsai/core";
import type { CallResult } from "@bonsai/ipc";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { createBackend, type Backend } from "../src/index";

let dir: string;
let backend: Backend;
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function ok<T>(r: CallResult): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

describe("open path", () => {
  it("the skeleton of an imported session is read right after the import, so opening it reads nothing again", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-open-"));
    backend = createBackend({ dataDir: path.join(dir, "data"), env: { BONSAI_SESSIONS_DIRS: dir } });
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 2_000, seed: 7 })));
    const reads = vi.spyOn(backend.store, "getSkeleton");
    const { results } = ok<{ results: { sessionId: string | null }[] }>(await backend.dispatch("importSessions", { paths: [file] }));
    const sessionId = results[0]!.sessionId!;
    expect(reads).not.toHaveBeenCalled(); // not before the import's answer
    await new Promise((r) => setImmediate(r));
    expect(reads).toHaveBeenCalledTimes(1);
    const opened = ok<{ skeleton: PackedSkeleton }>(await backend.dispatch("openSession", { sessionId }));
    expect(reads).toHaveBeenCalledTimes(1);
    expect(opened.skeleton.ids).toHaveLength(2_000);
    expect(unpackSkeleton(opened.skeleton)).toEqual(backend.store.getSkeleton(sessionId));
  });
});

describe("updates of an open session", () => {
  async function opened(entries: number) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-tail-"));
    backend = createBackend({ dataDir: path.join(dir, "data"), env: { BONSAI_SESSIONS_DIRS: dir } });
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries, seed: 11 })));
    const { results } = ok<{ results: { sessionId: string | null }[] }>(await backend.dispatch("importSessions", { paths: [file] }));
    const sessionId = results[0]!.sessionId!;
    const held = unpackSkeleton(ok<{ skeleton: PackedSkeleton }>(await backend.dispatch("openSession", { sessionId })).skeleton);
    return { sessionId, held };
  }
  const message = (text: string) => ({ type: "message" as const, message: { role: "user" as const, content: text, timestamp: Date.now() } });

  it("appended entries are read alone and sent as a tail after what the client holds", async () => {
    const { sessionId, held } = await opened(500);
    const whole = vi.spyOn(backend.store, "getSkeleton");
    const a = backend.store.appendEntry(sessionId, message("one more"));
    const b = backend.store.appendEntry(sessionId, message("and another"));
    const answer = ok<{ from: number; skeleton: PackedSkeleton }>(
      await backend.dispatch("getSkeletonTail", { sessionId, count: held.nodes.length, lastId: held.nodes.at(-1)!.id }),
    );
    expect(whole).not.toHaveBeenCalled(); // the 500 nodes were not read again
    expect(answer.from).toBe(held.nodes.length);
    const tail = unpackSkeleton(answer.skeleton);
    expect(tail.nodes.map((n) => n.id)).toEqual([a.id, b.id]);
    expect(tail.nodes[0]!.parentId).toBe(held.leafId);
    expect(tail.leafId).toBe(b.id);
    // held + tail is exactly the session's skeleton
    expect({ ...tail, nodes: held.nodes.concat(tail.nodes) }).toEqual(backend.store.getSkeleton(sessionId));
  });

  it("sends the whole skeleton when the client's nodes are not a prefix, or a label changed an older node", async () => {
    const { sessionId, held } = await opened(200);
    backend.store.appendEntry(sessionId, message("more"));
    const stranger = ok<{ from: number; skeleton: PackedSkeleton }>(await backend.dispatch("getSkeletonTail", { sessionId, count: held.nodes.length, lastId: "not-it" }));
    expect(stranger.from).toBe(0);
    expect(unpackSkeleton(stranger.skeleton)).toEqual(backend.store.getSkeleton(sessionId));
    const first = held.nodes[3]!.id;
    backend.store.appendLabel(sessionId, first, "here");
    const labelled = ok<{ from: number; skeleton: PackedSkeleton }>(await backend.dispatch("getSkeletonTail", { sessionId, count: held.nodes.length, lastId: held.nodes.at(-1)!.id }));
    expect(labelled.from).toBe(0);
    expect(unpackSkeleton(labelled.skeleton).nodes[3]!.label).toBe("here");
  });

  it("a leaf move changes the leaf without reading the nodes again", async () => {
    const { sessionId, held } = await opened(200);
    const whole = vi.spyOn(backend.store, "getSkeleton");
    const target = held.nodes[50]!.id;
    backend.store.setLeaf(sessionId, target);
    const skeleton = unpackSkeleton(ok<PackedSkeleton>(await backend.dispatch("getSkeleton", { sessionId })));
    expect(whole).not.toHaveBeenCalled();
    expect(skeleton.leafId).toBe(target);
    expect(skeleton.nodes).toEqual(held.nodes);
  });
});
