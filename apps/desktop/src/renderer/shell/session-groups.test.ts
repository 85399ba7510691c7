import { describe, expect, it } from "vitest";
import type { SessionSummaryDto } from "@bonsai/ipc";
import { archiveFacets, drawnGroups, filterSessions, folderNames, groupSessions, type SessionGroup } from "./session-groups";

const s = (id: string, title: string, cwd: string, updatedAt: string, entryCount = 1, contextTokens: number | null = null, agent: SessionSummaryDto["agent"] = "pi"): SessionSummaryDto => ({
  id,
  title,
  cwd,
  createdAt: updatedAt,
  updatedAt,
  entryCount,
  leafId: null,
  sourcePath: null,
  customTitle: false,
  agent,
  compactionCount: 0,
  parentSession: null,
  branches: 1,
  contextTokens,
  estimatedTokens: contextTokens,
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

  it("filters on the agent's name and on any part of the folder path", () => {
    const mixed = [
      s("x", "One", "/srv/work/api", "2026-01-01T00:00:00Z", 1, null, "codex"),
      s("y", "Two", "/srv/work/web", "2026-01-01T00:00:00Z", 1, null, "claude-code"),
      s("z", "Three", "/home/u/api", "2026-01-01T00:00:00Z", 1, null, "codex"),
    ];
    expect(filterSessions(mixed, "Codex").map((x) => x.id)).toEqual(["x", "z"]);
    expect(filterSessions(mixed, "claude code").map((x) => x.id)).toEqual(["y"]);
    expect(filterSessions(mixed, "srv/work").map((x) => x.id)).toEqual(["x", "y"]);
    expect(filterSessions(mixed, "codex srv").map((x) => x.id)).toEqual(["x"]);
  });

  it("names groups of the same last folder by the parents that tell them apart", () => {
    const names = folderNames(["/a/tools/cli", "/b/web/cli", "/c/tools/cli", "/d/proj", ""]);
    expect(Object.fromEntries(names)).toEqual({
      "/a/tools/cli": "a/tools/cli",
      "/b/web/cli": "web/cli",
      "/c/tools/cli": "c/tools/cli",
      "/d/proj": "proj",
      "": "No project folder",
    });
    const groups = groupSessions([s("p", "t", "/x/one/cli", "2026-01-01T00:00:00Z"), s("q", "t", "/x/two/cli", "2026-01-02T00:00:00Z"), s("r", "t", "C:\\dev\\cli", "2026-01-03T00:00:00Z")], "updated");
    expect(groups.map((g) => g.name)).toEqual(["dev/cli", "two/cli", "one/cli"]);
  });
});

describe("the session list on a team archive", () => {
  const pushed = (id: string, project: string, person: string, updatedAt: string, cwd = "/home/x/repo"): SessionSummaryDto => ({ ...s(id, `session ${id}`, cwd, updatedAt), archive: { project, pushedBy: person, pushedAt: updatedAt } });
  const archived = [pushed("p1", "alpha", "amy", "2026-01-03T00:00:00Z"), pushed("p2", "beta", "ben", "2026-01-05T00:00:00Z"), pushed("p3", "alpha", "ben", "2026-01-04T00:00:00Z", "/other")];

  it("groups by the project each session was pushed to, not by its folder", () => {
    const groups = groupSessions(archived, "updated");
    expect(groups.map((g) => [g.name, g.project, g.sessions.map((x) => x.id)])).toEqual([
      ["beta", "beta", ["p2"]],
      ["alpha", "alpha", ["p3", "p1"]],
    ]);
  });

  it("filters by project or person in the filter text", () => {
    expect(filterSessions(archived, "amy").map((x) => x.id)).toEqual(["p1"]);
    expect(filterSessions(archived, "beta").map((x) => x.id)).toEqual(["p2"]);
  });

  it("offers the projects and people the list holds, sorted, and none for local sessions", () => {
    expect(archiveFacets(archived)).toEqual({ projects: ["alpha", "beta"], people: ["amy", "ben"] });
    expect(archiveFacets(list)).toEqual({ projects: [], people: [] });
  });
});

describe("drawing a long session list a part at a time", () => {
  const group = (folder: string, n: number): SessionGroup => ({ folder, name: folder, sessions: Array.from({ length: n }, (_, i) => s(`${folder}${i}`, "t", folder, "2025-01-01T00:00:00Z")) });
  const groups = [group("a", 3), group("b", 4), group("c", 2), group("d", 5)];
  const shape = (r: ReturnType<typeof drawnGroups>) => ({ visible: r.visible.map((v) => `${v.group.folder}:${v.rows.length}`), cut: r.cut, rowsLeft: r.rowsLeft });

  it("draws groups in order up to the one where the rows run out, and no later group's heading", () => {
    expect(shape(drawnGroups(groups, new Set(), 5))).toEqual({ visible: ["a:3", "b:2"], cut: true, rowsLeft: 9 });
    expect(shape(drawnGroups(groups, new Set(), 7))).toEqual({ visible: ["a:3", "b:4"], cut: true, rowsLeft: 7 });
    expect(shape(drawnGroups(groups, new Set(), 14))).toEqual({ visible: ["a:3", "b:4", "c:2", "d:5"], cut: false, rowsLeft: 0 });
    expect(shape(drawnGroups(groups, new Set(), 100))).toEqual({ visible: ["a:3", "b:4", "c:2", "d:5"], cut: false, rowsLeft: 0 });
  });

  it("counts no rows for a closed group (its heading is drawn), and says when only closed groups are left", () => {
    expect(shape(drawnGroups(groups, new Set(["b"]), 5))).toEqual({ visible: ["a:3", "b:0", "c:2"], cut: true, rowsLeft: 5 });
    expect(shape(drawnGroups(groups, new Set(["d"]), 9))).toEqual({ visible: ["a:3", "b:4", "c:2"], cut: true, rowsLeft: 0 });
    expect(shape(drawnGroups(groups, new Set(["d"]), 10))).toEqual({ visible: ["a:3", "b:4", "c:2", "d:0"], cut: false, rowsLeft: 0 });
  });

  it("draws every session exactly once as the part grows", () => {
    for (let drawn = 1; drawn <= 14; drawn++) {
      const ids = drawnGroups(groups, new Set(), drawn).visible.flatMap((v) => v.rows.map((r) => r.id));
      expect(ids).toEqual(groups.flatMap((g) => g.sessions.map((x) => x.id)).slice(0, drawn));
    }
  });
});
