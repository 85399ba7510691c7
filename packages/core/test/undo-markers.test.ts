/** Undo and redo markers: which compactions are undone now, and how each entry moves the count. */
import { describe, expect, it } from "vitest";
import { amnesiaReport, compactionCountStep, redoMarker, undoMarker, undoneCompactionIds, type SessionEntry } from "../src/index";

let n = 0;
const entry = (body: Record<string, unknown>, parentId: string | null): SessionEntry => ({ id: `e${++n}`, parentId, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), ...body }) as SessionEntry;

describe("undo markers", () => {
  it("a compaction is undone by its undo marker and counted again after its redo; markers of other kinds or unknown ids change nothing", () => {
    const u = entry({ type: "message", message: { role: "user", content: "fix it", timestamp: 1 } }, null);
    const c = entry({ type: "compaction", summary: "s", firstKeptEntryId: u.id, tokensBefore: 10 }, u.id);
    const undo = entry(undoMarker("compaction", c.id), u.id);
    const strayUndo = entry(undoMarker("compaction", "not-here"), undo.id);
    const labelUndo = entry(undoMarker("label", c.id), strayUndo.id);
    expect(undoneCompactionIds([u, c, undo, strayUndo, labelUndo])).toEqual(new Set([c.id]));
    expect([u, c, undo, labelUndo].map(compactionCountStep)).toEqual([0, 1, -1, 0]);
    const redo = entry(redoMarker("compaction", c.id), c.id);
    expect(undoneCompactionIds([u, c, undo, redo])).toEqual(new Set());
    expect(compactionCountStep(redo)).toBe(1);
    // an undo marker before its compaction (a hand-made file) undoes nothing
    expect(undoneCompactionIds([u, undo, c])).toEqual(new Set());
  });

  it("the amnesia report leaves out an undone compaction and reports it again once redone", () => {
    const u = entry({ type: "message", message: { role: "user", content: "read src/a.ts", timestamp: 1 } }, null);
    const c = entry({ type: "compaction", summary: "summary", firstKeptEntryId: u.id, tokensBefore: 10 }, u.id);
    const undo = entry(undoMarker("compaction", c.id), u.id);
    expect(amnesiaReport([u, c]).compactions.map((x) => x.compactionId)).toEqual([c.id]);
    expect(amnesiaReport([u, c, undo], undo.id).compactions).toEqual([]);
    const redo = entry(redoMarker("compaction", c.id), c.id);
    expect(amnesiaReport([u, c, undo, redo], redo.id).compactions.map((x) => x.compactionId)).toEqual([c.id]);
  });
});
