import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { unpackSkeleton, type PackedSkeleton, type TreeSkeleton } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { createBackend, type Backend } from "../src/index";
import { countSkeletonReads, ok } from "./support";

let dir: string;
let backend: Backend;
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** the skeleton with the previews the answer left out asked for (getPreviews), as the store holds it */
async function filled(skeleton: TreeSkeleton): Promise<TreeSkeleton> {
  const later = skeleton.nodes.filter((n) => n.previewLater);
  const previews: string[] = [];
  for (let k = 0; k < later.length; k += 500) {
    const entryIds = later.slice(k, k + 500).map((n) => n.id);
    previews.push(...ok<{ previews: string[] }>(await backend.dispatch("getPreviews", { sessionId: skeleton.sessionId, entryIds })).previews);
  }
  const got = new Map(later.map((n, i) => [n.id, previews[i]!]));
  return {
    ...skeleton,
    nodes: skeleton.nodes.map((n) => {
      if (!n.previewLater) return n;
      const { previewLater: _, ...rest } = n;
      return { ...rest, preview: got.get(n.id)! };
    }),
  };
}

describe("open path", () => {
  it("the skeleton of an imported session is read right after the import, so opening it reads nothing again", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-open-"));
    backend = createBackend({ dataDir: path.join(dir, "data"), env: { BONSAI_SESSIONS_DIRS: dir } });
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 2_000, seed: 7 })));
    const reads = countSkeletonReads(backend);
    const { results } = ok<{ results: { sessionId: string | null }[] }>(await backend.dispatch("importSessions", { paths: [file] }));
    const sessionId = results[0]!.sessionId!;
    expect(reads.asked).toEqual([]); // not before the import's answer
    await new Promise((r) => setImmediate(r));
    expect(reads.fromRows).toEqual([sessionId]);
    // held by the store: the open reads none of its rows
    const opened = ok<{ skeleton: PackedSkeleton }>(await backend.dispatch("openSession", { sessionId }));
    expect(reads.asked).toEqual([sessionId]);
    expect(reads.fromRows).toEqual([sessionId]);
    expect(opened.skeleton.ids).toHaveLength(2_000);
    expect(await filled(unpackSkeleton(opened.skeleton))).toEqual(backend.store.getSkeleton(sessionId));
  });

  it("the open answer carries the previews of the entries drawn on their own; the others come from getPreviews", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-open-"));
    backend = createBackend({ dataDir: path.join(dir, "data"), env: { BONSAI_SESSIONS_DIRS: dir } });
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, sessionToJsonl(generateSession({ entries: 3_000, seed: 5 })));
    const { results } = ok<{ results: { sessionId: string | null }[] }>(await backend.dispatch("importSessions", { paths: [file] }));
    const sessionId = results[0]!.sessionId!;
    const opened = ok<{ skeleton: PackedSkeleton }>(await backend.dispatch("openSession", { sessionId }));
    const whole = backend.store.getSkeleton(sessionId);
    const skeleton = unpackSkeleton(opened.skeleton);
    const later = skeleton.nodes.filter((n) => n.previewLater);
    // most previews stay behind (the generated session is one user message in eight)
    expect(later.length).toBeGreaterThan(whole.nodes.length / 2);
    expect(JSON.stringify(opened.skeleton).length).toBeLessThan(JSON.stringify(backend.store.getSkeleton(sessionId)).length * 0.5);
    // user messages, the leaf and compactions come with theirs
    for (const n of skeleton.nodes) if (n.role === "user" || n.type === "compaction" || n.id === skeleton.leafId) expect(n.previewLater).toBeUndefined();
    const ids = later.slice(0, 3).map((n) => n.id);
    const { previews } = ok<{ previews: string[] }>(await backend.dispatch("getPreviews", { sessionId, entryIds: [...ids, "no-such-entry"] }));
    expect(previews).toEqual([...ids.map((id) => whole.nodes.find((n) => n.id === id)!.preview), ""]);
    expect(previews[0]).not.toBe("");
    const stranger = await backend.dispatch("getPreviews", { sessionId: "no-such-session", entryIds: ids });
    expect(stranger.ok).toBe(false);
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
    expect(await filled({ ...tail, nodes: held.nodes.concat(tail.nodes) })).toEqual(backend.store.getSkeleton(sessionId));
  });

  it("sends the whole skeleton when the client's nodes are not a prefix, or a label changed an older node", async () => {
    const { sessionId, held } = await opened(200);
    backend.store.appendEntry(sessionId, message("more"));
    const stranger = ok<{ from: number; skeleton: PackedSkeleton }>(await backend.dispatch("getSkeletonTail", { sessionId, count: held.nodes.length, lastId: "not-it" }));
    expect(stranger.from).toBe(0);
    expect(await filled(unpackSkeleton(stranger.skeleton))).toEqual(backend.store.getSkeleton(sessionId));
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
    expect((await filled(skeleton)).nodes).toEqual((await filled(held)).nodes);
  });
});
