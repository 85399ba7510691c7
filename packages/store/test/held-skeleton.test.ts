/**
 * The skeletons a store holds in memory (modules/skeletons.ts), the one skeleton cache the app has:
 * what a store gives is always what a fresh read gives now, whichever connection changed the session
 * (this store, another one: the CLI, the store worker), and while the rows are as they were read
 * they are not read again (appended rows: only those). Real SQLite files, two real connections.
 */
import path from "node:path";
import { unpackSkeleton, type PackedSkeleton, type TreeSkeleton } from "@bonsai/core";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { SqliteSessionStore } from "../src/sqlite-session-store";
import { newStore, tempDir } from "./support";

async function twoConnections(entries = 300) {
  const dir = tempDir();
  const file = path.join(dir, "s.jsonl");
  await writeSessionJsonl(file, generateSession({ entries, seed: 21 }));
  const holder = newStore(dir);
  const id = (await holder.importFile(file)).sessionId as string;
  return { dir, file, id, holder, other: newStore(dir) };
}

/** what a store with nothing held reads now */
function fresh(dir: string, read: (s: SqliteSessionStore) => TreeSkeleton | PackedSkeleton): TreeSkeleton | PackedSkeleton {
  const s = newStore(dir);
  try {
    return read(s);
  } finally {
    s.close();
  }
}

const packedJson = (s: SqliteSessionStore, id: string): PackedSkeleton => JSON.parse(s.getPackedSkeletonJson(id).json) as PackedSkeleton;

/**
 * Changes an old row's preview behind the store's back: no trigger raises the skeleton's revision,
 * so a held skeleton still shows the old preview, and a read of the rows shows the new one.
 */
function changePreviewUnseen(dir: string, id: string, entryId: string): void {
  const db = new Database(path.join(dir, "bonsai.db"));
  try {
    db.exec("DROP TRIGGER entries_skeleton_rev");
    db.prepare("UPDATE entries SET preview = 'changed unseen' WHERE session_id = ? AND id = ?").run(id, entryId);
  } finally {
    db.close();
  }
}

describe("skeletons held by the store", () => {
  it("are what a fresh read gives after each change, made here or by another connection", async () => {
    const { dir, file, id, holder, other } = await twoConnections();
    const same = () => {
      expect(holder.getSkeleton(id)).toEqual(fresh(dir, (s) => s.getSkeleton(id)));
      expect(packedJson(holder, id)).toEqual(fresh(dir, (s) => packedJson(s, id)));
    };
    same();
    same();
    const a = other.appendEntry(id, { type: "message", message: { role: "user", content: "from the other connection", timestamp: 1 } });
    same();
    const b = holder.appendEntry(id, { type: "message", message: { role: "user", content: "from this one", timestamp: 2 } });
    same();
    // a label appended changes an older node
    other.appendLabel(id, a.id, "there");
    expect(holder.getSkeleton(id).nodes.find((n) => n.id === a.id)?.label).toBe("there");
    same();
    // a prune rewrites a row in place
    const toolResult = holder.getSkeleton(id).nodes.find((n) => n.role === "toolResult" && !n.pruned)!;
    other.applyPruning(id, [{ entryId: toolResult.id, message: { role: "toolResult", toolCallId: "x", toolName: "bash", content: [{ type: "text", text: "" }], isError: false, timestamp: 1, prunedAt: 2 } }]);
    expect(holder.getSkeleton(id).nodes.find((n) => n.id === toolResult.id)?.pruned).toBe(true);
    same();
    // the leaf moved: the packed form's previews follow the active path
    other.setLeaf(id, toolResult.id);
    expect(packedJson(holder, id).leafId).toBe(toolResult.id);
    same();
    other.setLeaf(id, b.id);
    same();
    // the file rewritten with as many lines: a new generation
    await writeSessionJsonl(file, generateSession({ entries: 302, seed: 22 }));
    expect((await other.importFile(file)).status).toBe("reimported");
    same();
    // removed and imported again under the same id by the other connection
    const before = holder.getSkeleton(id);
    other.deleteSession(id);
    const again = generateSession({ entries: 302, seed: 23 });
    again.header.id = id;
    await writeSessionJsonl(file, again);
    expect((await other.importFile(file)).sessionId).toBe(id);
    expect(holder.getSkeleton(id)).not.toEqual(before);
    same();
  });

  it("are not read again while the rows are as they were read; rows appended are read alone", async () => {
    const { dir, id, holder, other } = await twoConnections();
    const first = holder.getSkeleton(id).nodes[1]!;
    packedJson(holder, id);
    changePreviewUnseen(dir, id, first.id);
    // held: the old preview, from both forms
    expect(holder.getSkeleton(id).nodes[1]!.preview).toBe(first.preview);
    expect(unpackSkeleton(packedJson(holder, id)).nodes[1]!.preview).toBe(first.preview);
    // another connection appends: the held nodes and the new row
    const added = other.appendEntry(id, { type: "message", message: { role: "user", content: "one more", timestamp: 1 } });
    const after = holder.getSkeleton(id).nodes;
    expect(after.at(-1)?.id).toBe(added.id);
    expect(after[1]!.preview).toBe(first.preview);
    // a store with nothing held reads the rows as they are
    expect((fresh(dir, (s) => s.getSkeleton(id)) as TreeSkeleton).nodes[1]!.preview).toBe("changed unseen");
  });

  it("are dropped when a change inside the caller's transaction is rolled back", async () => {
    const { dir, id, holder } = await twoConnections(50);
    expect(() =>
      holder.db.transaction(() => {
        holder.db.prepare("UPDATE entries SET preview = 'rolled back' WHERE session_id = ? AND seq = 1").run(id);
        expect(holder.getSkeleton(id).nodes[1]!.preview).toBe("rolled back");
        throw new Error("stop");
      })(),
    ).toThrow("stop");
    // a later change numbered like the one rolled back
    holder.db.prepare("UPDATE entries SET tokens = tokens + 1 WHERE session_id = ? AND seq = 2").run(id);
    expect(holder.getSkeleton(id)).toEqual(fresh(dir, (s) => s.getSkeleton(id)));
  });

  it("hold a packed skeleton another connection read only while the session is still as it was read in", async () => {
    const { id, holder, other } = await twoConnections(50);
    expect(holder.heldPackedSkeletonJson(id)).toBeUndefined();
    const read = other.getPackedSkeletonJson(id);
    holder.appendEntry(id, { type: "message", message: { role: "user", content: "meanwhile", timestamp: 1 } });
    holder.holdPackedSkeletonJson(id, read);
    expect(holder.heldPackedSkeletonJson(id)).toBeUndefined();
    const now = other.getPackedSkeletonJson(id);
    holder.holdPackedSkeletonJson(id, now);
    expect(holder.heldPackedSkeletonJson(id)).toBe(now.json);
    // the leaf moved since: not held any more
    holder.setLeaf(id, holder.getSkeleton(id).nodes[3]!.id);
    expect(holder.heldPackedSkeletonJson(id)).toBeUndefined();
  });
});
