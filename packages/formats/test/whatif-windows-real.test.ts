/**
 * Windows, figures and what-if on every shared real session (pi, Claude Code, Codex): the window a
 * session is judged against (core replayWindowOf / windowOfSession) holds the figure shown for its
 * leaf (never above 100 %), what-if replays on that same window and its "actual" run ends on the
 * page's figure, and no replayed compaction summarizes nothing, whatever the threshold.
 */
import { buildIndex, contextFigureOf, contextOf, DEFAULT_SETTINGS, getPath, prepareWhatIf, replayWindowOf, runWhatIf, whatIfSettingsOf, windowEvidenceOf, windowOfSession, type SessionEntry } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { readSession } from "../src/index";
import { ALL_REAL_FILES, HAVE_REAL, readReal } from "./support/real-files";

function activePath(agent: string, name: string): { path: SessionEntry[]; leafId: string | null } {
  const session = readSession(readReal(agent, name));
  const leafId = session.leafId;
  return { path: leafId === null ? [] : getPath(buildIndex(session.entries), leafId), leafId };
}

describe.skipIf(!HAVE_REAL)("windows and what-if on the real sessions", () => {
  it.each(ALL_REAL_FILES.map((f) => [f.agent, f.name]))("%s %s: the leaf's figure is within its window, and what-if uses that window and figure", (agent, name) => {
    const { path, leafId } = activePath(agent, name);
    const figures = contextOf(path, leafId);
    const figure = contextFigureOf(figures);
    const window = replayWindowOf(path, DEFAULT_SETTINGS.model);
    // the page's reading of the same leaf (its usage and latest compaction) gives the same window
    const pageWindow = windowOfSession(windowEvidenceOf(figure.usage, figures.compactionTokensBefore === null ? null : { tokensBefore: figures.compactionTokensBefore }), DEFAULT_SETTINGS.model);
    expect(pageWindow).toEqual(window);
    if (agent !== "pi") expect(figure.contextTokens).toBeLessThanOrEqual(window.contextWindow);
    // the file's own run ends on the figure every panel shows for the leaf
    const prepared = prepareWhatIf(path);
    if (path.length > 0) expect(prepared.actual.series[path.length - 1]?.[1]).toBe(Math.round(figure.contextTokens));
    for (const thresholdPercent of [0, 50, 70, 90]) {
      const settings = { ...whatIfSettingsOf(DEFAULT_SETTINGS), thresholdPercent, contextWindow: window.contextWindow };
      const report = runWhatIf(prepared, settings);
      expect(report.settings.contextWindow).toBe(window.contextWindow);
      for (const c of report.candidate.compactions) expect(c.summarizedTokens, `${name} at ${thresholdPercent} %: compaction after ${c.atEntryId}`).toBeGreaterThan(0);
    }
  });

  it("judges the Claude Code sessions' recorded compactions within their windows, and a Codex model by the window Codex records", () => {
    for (const f of ALL_REAL_FILES.filter((x) => x.agent !== "pi")) {
      const { path } = activePath(f.agent, f.name);
      const window = replayWindowOf(path, DEFAULT_SETTINGS.model);
      for (const e of path) if (e.type === "compaction") expect(e.tokensBefore, f.name).toBeLessThanOrEqual(window.contextWindow);
      // Codex writes its window into the file (token_count model_context_window): the table agrees
      const recorded = /"model_context_window":(\d+)/.exec(readReal(f.agent, f.name))?.[1];
      if (f.agent === "codex" && recorded !== undefined) expect(window.contextWindow, f.name).toBe(Number(recorded));
    }
  });
});
