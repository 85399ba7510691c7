/**
 * The undo history's rules as pure values (core undo-history.ts): bounded, chained by the leaf,
 * and typed when read back from the store (anything that is not a history in every part reads as none).
 */
import { describe, expect, it } from "vitest";
import { EMPTY_UNDO_HISTORY, UNDO_HISTORY_LIMIT, afterRedo, afterUndo, recordChange, redoOffered, undoHistoryOf, undoOffered, type UndoHistory, type UndoRecord } from "../src";

const label = (i: number): UndoRecord => ({ kind: "label", entryId: `l${i}`, before: i === 0 ? "root" : `l${i - 1}`, after: `l${i}`, label: { targetId: "m1", previous: undefined, next: `v${i}` } });

function chain(n: number): UndoHistory {
  let h = EMPTY_UNDO_HISTORY;
  for (let i = 0; i < n; i++) h = recordChange(h, label(i));
  return h;
}

describe("undo history", () => {
  it("keeps the last UNDO_HISTORY_LIMIT changes of a chain, and a change that starts elsewhere starts a new one", () => {
    const h = chain(UNDO_HISTORY_LIMIT + 10);
    expect(h.done).toHaveLength(UNDO_HISTORY_LIMIT);
    expect(h.done[0]!.entryId).toBe("l10");
    expect(undoOffered(h, `l${UNDO_HISTORY_LIMIT + 9}`)?.entryId).toBe(`l${UNDO_HISTORY_LIMIT + 9}`);
    expect(undoOffered(h, "elsewhere")).toBeNull();
    const fresh = recordChange(h, { kind: "compaction", entryId: "c1", before: "elsewhere", after: "c1" });
    expect(fresh.done.map((r) => r.entryId)).toEqual(["c1"]);
  });

  it("undo and redo move records between the lists, each offered only where the leaf is", () => {
    const h = chain(3);
    const undone = afterUndo(h, undoOffered(h, "l2")!, "l1-undo");
    expect(undone.done.map((r) => r.entryId)).toEqual(["l0", "l1"]);
    expect(undone.done[1]!.after).toBe("l1-undo");
    expect(undoOffered(undone, "l1-undo")?.entryId).toBe("l1");
    expect(redoOffered(undone, "l1-undo")?.entryId).toBe("l2");
    expect(redoOffered(undone, "l2")).toBeNull();
    // a record that is not the one offered changes nothing
    expect(afterUndo(undone, label(0), "x")).toBe(undone);
    const redone = afterRedo(undone, redoOffered(undone, "l1-undo")!, {}, "l1-undo", "l2-redo");
    expect(redone.undone).toEqual([]);
    expect(redone.done.at(-1)).toMatchObject({ entryId: "l2", before: "l1-undo", after: "l2-redo" });
    // a new change drops what could be redone
    expect(recordChange(undone, { kind: "branch", entryId: null, before: "l1-undo", after: "m5" }).undone).toEqual([]);
  });

  it("reads back what it wrote, and reads anything else as no history", () => {
    const h = afterUndo(chain(2), label(1), "back");
    const prune: UndoRecord = { kind: "prune", entryId: null, before: "back", after: "back", prunedEntryIds: ["t1", "t2"] };
    const both = { ...h, done: [...h.done, prune] };
    expect(undoHistoryOf(JSON.parse(JSON.stringify(both)))).toEqual(JSON.parse(JSON.stringify(both)));
    for (const bad of [null, 7, "x", [], { done: {} }, { done: [], undone: [{ record: label(0), at: 3 }] }, { done: [{ ...label(0), kind: "delete" }], undone: [] }, { done: [{ kind: "label", entryId: "a", before: null, after: "a" }], undone: [] }, { done: [{ ...prune, prunedEntryIds: [1] }], undone: [] }]) {
      expect(undoHistoryOf(bad)).toEqual(EMPTY_UNDO_HISTORY);
    }
    // longer than the limit (a database another build wrote): its newest
    const long = { done: Array.from({ length: UNDO_HISTORY_LIMIT + 5 }, (_, i) => label(i)), undone: [] };
    expect(undoHistoryOf(long).done[0]!.entryId).toBe("l5");
  });
});
