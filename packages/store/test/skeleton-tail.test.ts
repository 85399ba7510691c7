/** getSkeletonTail: the nodes appends added, read without the rest, labels resolved like getSkeleton. */
import path from "node:path";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { describe, expect, it } from "vitest";
import { newStore, tempDir } from "./support";

describe("skeleton tail", () => {
  it("returns the nodes from a position on, equal to the same slice of the whole skeleton", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    await writeSessionJsonl(file, generateSession({ entries: 300, seed: 9 }));
    const store = newStore(dir);
    const { sessionId } = await store.importFile(file);
    const id = sessionId!;
    const before = store.getSkeleton(id).nodes.length;
    const a = store.appendEntry(id, { type: "message", message: { role: "user", content: "one more", timestamp: 1 } });
    const b = store.appendEntry(id, { type: "message", message: { role: "user", content: "and another", timestamp: 2 } });
    const whole = store.getSkeleton(id).nodes;
    expect(store.getSkeletonTail(id, before).map((n) => n.id)).toEqual([a.id, b.id]);
    expect(store.getSkeletonTail(id, before)).toEqual(whole.slice(before));
    expect(store.getSkeletonTail(id, 17)).toEqual(whole.slice(17));
    expect(store.getSkeletonTail(id, 0)).toEqual(whole);
    expect(store.getSkeletonTail(id, whole.length)).toEqual([]);
    expect(store.getSkeletonTail(id, whole.length + 5)).toEqual([]);
  });

  it("resolves labels on the tail's nodes", () => {
    const store = newStore();
    const s = store.createSession({ cwd: "/p", title: "t" });
    store.appendEntry(s.id, { type: "message", message: { role: "user", content: "hi", timestamp: 1 } });
    const b = store.appendEntry(s.id, { type: "message", message: { role: "user", content: "there", timestamp: 2 } });
    store.appendLabel(s.id, b.id, "checkpoint");
    const tail = store.getSkeletonTail(s.id, 1);
    expect(tail[0]).toMatchObject({ id: b.id, label: "checkpoint" });
    expect(tail[1]?.type).toBe("label");
  });

  it("refuses an unknown session", () => {
    expect(() => newStore().getSkeletonTail("nope", 0)).toThrow(/nope/);
  });
});
