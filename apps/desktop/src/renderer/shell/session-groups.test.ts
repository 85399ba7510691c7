import { describe, expect, it } from "vitest";
import type { SessionSummary } from "@bonsai/ipc";
import { filterSessions, groupSessions } from "./session-groups";

const s = (id: string, title: string, cwd: string, updatedAt: string, entryCount = 1, contextTokens: number | null = null): SessionSummary => ({
  id,
  title,
  cwd,
  createdAt: updatedAt,
  updatedAt,
  entryCount,
  leafId: null,
  sourcePath: null,
  customTitle: false,
  agent: "pi",
  compactionCount: 0,
  parentSession: null,
  branches: 1,
  contextTokens,
});

const list = [
  s("a", "Parser rewrite", "/home/u/proj", "2026-01-03T00:00:00Z", 10, 500),
  s("b", "Fix the build", "/home/u/other", "2026-01-05T00:00:00Z", 30, 100),
  s("c", "Add tests", "/home/u/proj", "2026-01-04T00:00:00Z", 20, null),
  s("d", "Scratch", "", "2026-01-01T00:00:00Z"),
];

describe("session list grouping", () => {
  it("groups by project folder, newest first, groups in the order of their newest session", () => {
    const groups = groupSessions(list, "updated");
    expect(groups.map((g) => [g.name, g.sessions.map((x) => x.id)])).toEqual([
      ["other", ["b"]],
      ["proj", ["c", "a"]],
      ["No project folder", ["d"]],
    ]);
  });

  it("sorts by entries and by tokens (uncounted last), and groups by name when sorted by title", () => {
    expect(groupSessions(list, "entries").flatMap((g) => g.sessions.map((x) => x.id))).toEqual(["b", "c", "a", "d"]);
    expect(groupSessions(list, "tokens")[0]!.sessions.map((x) => x.id)).toEqual(["a", "c"]);
    expect(groupSessions(list, "title").map((g) => g.name)).toEqual(["No project folder", "other", "proj"]);
  });

  it("filters on every word, in titles and folders", () => {
    expect(filterSessions(list, "proj tests").map((x) => x.id)).toEqual(["c"]);
    expect(filterSessions(list, "  ").map((x) => x.id)).toEqual(["a", "b", "c", "d"]);
    expect(filterSessions(list, "BUILD").map((x) => x.id)).toEqual(["b"]);
  });
});
