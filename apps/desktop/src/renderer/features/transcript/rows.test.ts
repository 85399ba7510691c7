import { describe, expect, it } from "vitest";
import type { TranscriptItem } from "./reading-path";
import { eventRunKinds, eventRunTitle, transcriptRows, type RowOptions } from "./rows";

const entries = (...ids: string[]): TranscriptItem[] => ids.map((id) => ({ kind: "entry", id }));
// e1..e9 are agent events of the kind after the dash
const kinds: Record<string, string> = { e1: "progress", e2: "progress", e3: "system/turn_duration", e4: "progress", e5: "event_msg/token_count" };
const options = (over: Partial<RowOptions> = {}): RowOptions => ({ unfolded: false, eventOf: (id) => kinds[id], choices: new Map(), reveal: null, ...over });

describe("the transcript's rows", () => {
  it("folds each run of consecutive agent events into one closed row, and leaves the conversation as it is", () => {
    const rows = transcriptRows(entries("u1", "e1", "e2", "e3", "a1", "e4", "u2"), options());
    expect(rows.map((r) => (r.kind === "events" ? `events:${r.ids.join("+")}:${r.open}` : r.kind === "entry" ? r.id : "fold"))).toEqual([
      "u1",
      "events:e1+e2+e3:false",
      "a1",
      "events:e4:false",
      "u2",
    ]);
    const run = rows[1]!;
    expect(run.kind === "events" && run.counts).toEqual([
      ["progress", 2],
      ["system/turn_duration", 1],
    ]);
  });

  it("an opened run keeps its row and shows each event after it; the selected event opens its run unless the reader closed it", () => {
    const items = entries("u1", "e1", "e2", "a1");
    const open = transcriptRows(items, options({ choices: new Map([["e1", true]]) }));
    expect(open.map((r) => (r.kind === "events" ? `events:${r.open}` : r.kind === "entry" ? `${r.id}${r.inRun ? "(in run)" : ""}` : "fold"))).toEqual(["u1", "events:true", "e1(in run)", "e2(in run)", "a1"]);
    expect(transcriptRows(items, options({ reveal: "e2" })).some((r) => r.kind === "entry" && r.id === "e2")).toBe(true);
    expect(transcriptRows(items, options({ reveal: "e2", choices: new Map([["e1", false]]) })).some((r) => r.kind === "entry" && r.id === "e2")).toBe(false);
  });

  it("summarized events (the compaction's fold opened) make their own run, apart from the ones sent", () => {
    const items: TranscriptItem[] = [{ kind: "summarized", ids: ["u1", "e1", "e2"], compactionId: "k" }, ...entries("e3", "k")];
    const rows = transcriptRows(items, options({ unfolded: true }));
    expect(rows.map((r) => (r.kind === "events" ? `events:${r.ids.join("+")}:${r.summarized}` : r.kind === "entry" ? r.id : "fold"))).toEqual([
      "u1",
      "events:e1+e2:true",
      "events:e3:false",
      "k",
    ]);
    expect(transcriptRows(items, options()).map((r) => r.kind)).toEqual(["fold", "events", "entry"]);
  });

  it("says how many events a run has and of which kinds", () => {
    expect(eventRunTitle({ ids: ["a"] })).toBe("1 agent event");
    expect(eventRunTitle({ ids: Array.from({ length: 1200 }, String) })).toBe("1,200 agent events");
    const counts: Array<[string, number]> = [["progress", 4], ["system/turn_duration", 3], ["attachment", 2], ["mode", 1], ["ai-title", 1]];
    expect(eventRunKinds({ counts })).toBe("progress ×4, system/turn_duration ×3, attachment ×2 and 2 more kinds");
    expect(eventRunKinds({ counts: counts.slice(3) })).toBe("mode, ai-title");
  });
});
