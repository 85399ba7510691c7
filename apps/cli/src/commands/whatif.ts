/**
 * `bonsai whatif SESSION [settings…] [--json]` and `bonsai whatif --all`: the what-if replay of core
 * (whatif.ts) over one session's active path, or over every stored session with totals.
 */
import {
  mergeSettings,
  prepareWhatIf,
  replayWindowOf,
  runTotals,
  runWhatIf,
  sumTotals,
  validateSettingsPatch,
  whatIfSettingsOf,
  whatIfSettingsUsed,
  type BonsaiSettings,
  type SessionEntry,
  type SettingsPatch,
  type WhatIfReport,
  type WhatIfRun,
  type WhatIfSettings,
  type WhatIfSettingsUsed,
  type WhatIfTotals,
} from "@bonsai/core";
import type { ParsedArgs } from "../args";
import { UsageError, UserError } from "../errors";
import { column, printJson, type Io } from "../output";
import { reportIssues, resolveLeafId, withSessionOf } from "../session-source";
import { storedSettings } from "../stored-settings";
import { withCliStore } from "../store-db";
import type { Command } from "./command";

/** The settings patch the options ask for (validated against `base` by the caller). */
export function whatIfPatch(args: ParsedArgs): SettingsPatch {
  const o = args.options;
  const int = (name: string) => o[name] as number | undefined;
  if (int("threshold") !== undefined && int("threshold-percent") !== undefined) throw new UsageError("give --threshold or --threshold-percent, not both");
  const prune = o.prune as string | undefined;
  if (prune !== undefined && prune !== "on" && prune !== "off") throw new UsageError(`--prune must be on or off, got ${JSON.stringify(prune)}`);
  const compaction: NonNullable<SettingsPatch["compaction"]> = {};
  if (int("reserve") !== undefined) compaction.reserveTokens = int("reserve");
  if (int("keep-recent") !== undefined) compaction.keepRecentTokens = int("keep-recent");
  if (int("threshold") !== undefined) Object.assign(compaction, { thresholdTokens: int("threshold"), thresholdPercent: 0 });
  if (int("threshold-percent") !== undefined) Object.assign(compaction, { thresholdPercent: int("threshold-percent"), thresholdTokens: 0 });
  if (o["no-compaction"]) compaction.enabled = false;
  const pruning: NonNullable<SettingsPatch["pruning"]> = {};
  if (prune !== undefined) pruning.enabled = prune === "on";
  if (int("prune-protect") !== undefined) pruning.protectTokens = int("prune-protect");
  if (int("prune-minimum") !== undefined) pruning.minimumSavings = int("prune-minimum");
  const patch: SettingsPatch = {};
  if (Object.keys(compaction).length > 0) patch.compaction = compaction;
  if (Object.keys(pruning).length > 0) patch.pruning = pruning;
  if (int("context-window") !== undefined) patch.model = { contextWindow: int("context-window") };
  return patch;
}

/**
 * The settings a replay of `path` runs with: `settings`, on the session's own window (core
 * replayWindowOf: the window the page and `bonsai context` show) unless --context-window sets one.
 */
export function settingsForPath(settings: WhatIfSettings, base: BonsaiSettings, args: ParsedArgs, path: readonly SessionEntry[]): WhatIfSettings {
  if (args.options["context-window"] !== undefined) return settings;
  return { ...settings, contextWindow: replayWindowOf(path, base.model).contextWindow };
}

/** Base settings with the options applied; a value out of range is one clear error. */
export function candidateSettings(base: BonsaiSettings, args: ParsedArgs): WhatIfSettings {
  const patch = whatIfPatch(args);
  const check = validateSettingsPatch(patch, base);
  if (!check.ok) throw new UserError(check.errors.map((e) => e.message.replace(/^compaction\.|^pruning\.|^model\./, "")).join("; "));
  const settings = whatIfSettingsOf(mergeSettings(base, check.value));
  if (settings.contextWindow < 1) throw new UserError("the context window must be at least 1 token (--context-window N)");
  return settings;
}

const n = (v: number) => Math.round(v).toLocaleString("en-US");

function settingsLine(s: WhatIfSettingsUsed, windowPerSession = false): string {
  const threshold = s.thresholdTokens > 0 ? `${n(s.threshold)} (set)` : s.thresholdPercent > 0 ? `${n(s.threshold)} (${s.thresholdPercent} % of the window)` : `${n(s.threshold)} (window − reserve ${n(s.reserveTokens)})`;
  const pruning = s.pruningEnabled && s.compactionEnabled ? `on (protect ${n(s.protectTokens)}, minimum ${n(s.minimumSavings)})` : "off";
  return `Settings: window ${windowPerSession ? "each session's model's (below)" : n(s.contextWindow)}, threshold ${windowPerSession ? "from it" : threshold}, keep recent ${n(s.keepRecentTokens)}, compaction ${s.compactionEnabled ? "on" : "off"}, pruning ${pruning}`;
}

function estimatesLine(s: WhatIfReport["settings"]): string {
  const e = s.summaryEstimate;
  const summaries = e.source === "session" ? `the session's own (${e.summaries}, mean ${n(e.meanTokens)} tokens)` : `${e.ratio * 100} % of what they summarize`;
  return `Estimates: summaries as ${summaries}; ${s.tokensPerEstimatedToken} tokens per estimated token`;
}

function totalsTable(actual: WhatIfTotals, candidate: WhatIfTotals): string[] {
  const row = (label: string, a: number, c: number) => `  ${column(label, 22)}${n(a).padStart(12)}${n(c).padStart(12)}`;
  return [
    `  ${column("", 22)}${"actual".padStart(12)}${"candidate".padStart(12)}`,
    row("compactions", actual.compactions, candidate.compactions),
    row("peak context", actual.peakContextTokens, candidate.peakContextTokens),
    row("tokens summarized", actual.summarizedTokens, candidate.summarizedTokens),
    row("tokens pruned", actual.prunedTokens, candidate.prunedTokens),
  ];
}

function compactionLines(run: WhatIfRun): string[] {
  return run.compactions.map(
    (c) => `  after ${c.atEntryId}: ${n(c.tokensBefore)} tokens, keeps from ${c.firstKeptEntryId}${c.isSplitTurn ? " (split turn)" : ""}, summarizes ${n(c.summarizedTokens)}`,
  );
}

function printReport(io: Io, label: string, pathLength: number, report: WhatIfReport): void {
  const lines = [
    `What if for ${label} (${pathLength} entries on the active path)`,
    settingsLine(report.settings),
    estimatesLine(report.settings),
    "",
    ...totalsTable(runTotals(report.actual), runTotals(report.candidate)),
    "",
    report.candidate.compactions.length > 0 ? "Candidate compactions:" : "Candidate compactions: none",
    ...compactionLines(report.candidate),
  ];
  io.stdout(`${lines.join("\n")}\n`);
}

async function one(args: ParsedArgs, io: Io): Promise<void> {
  const base = await storedSettings(args, io);
  await withSessionOf(args, (session) => {
    reportIssues(io, session);
    const settings = candidateSettings(base, args);
    const path = session.path(resolveLeafId(session, undefined));
    const report = runWhatIf(prepareWhatIf(path), settingsForPath(settings, base, args, path));
    if (args.options.json) printJson(io, report);
    else printReport(io, session.label, path.length, report);
  });
}

type SessionRun = Omit<WhatIfRun, "series">;

async function all(args: ParsedArgs, io: Io): Promise<void> {
  const base = await storedSettings(args, io);
  const settings = candidateSettings(base, args);
  await withCliStore(args, { create: false }, (store) => {
    const sessions: { sessionId: string; title: string | null; contextWindow: number; summaryEstimate: WhatIfReport["settings"]["summaryEstimate"]; tokensPerEstimatedToken: number; actual: SessionRun; candidate: SessionRun }[] = [];
    for (const s of store.listSessions()) {
      const path = s.leafId === null ? [] : store.getPath(s.id, s.leafId);
      const own = settingsForPath(settings, base, args, path);
      const report = runWhatIf(prepareWhatIf(path), own);
      const { summaryEstimate, tokensPerEstimatedToken } = report.settings;
      const { series: _a, ...actual } = report.actual;
      const { series: _c, ...candidate } = report.candidate;
      sessions.push({ sessionId: s.id, title: s.title, contextWindow: own.contextWindow, summaryEstimate, tokensPerEstimatedToken, actual, candidate });
    }
    const totals = {
      sessions: sessions.length,
      actual: sumTotals(sessions.map((s) => runTotals(s.actual))),
      candidate: sumTotals(sessions.map((s) => runTotals(s.candidate))),
    };
    if (args.options.json) {
      printJson(io, { settings: whatIfSettingsUsed(settings), sessions, totals });
      return;
    }
    const lines = [`What if over ${sessions.length} stored sessions`];
    lines.push(settingsLine(whatIfSettingsUsed(settings), args.options["context-window"] === undefined), "", ...totalsTable(totals.actual, totals.candidate), "");
    for (const s of sessions) {
      lines.push(`  ${column(s.sessionId, 24)} ${column(s.title ?? "", 40)} window ${n(s.contextWindow)}, compactions ${s.actual.compactions.length} → ${s.candidate.compactions.length}, peak ${n(s.actual.peakContextTokens)} → ${n(s.candidate.peakContextTokens)}`);
    }
    io.stdout(`${lines.join("\n")}\n`);
  });
}

export const whatifCommand: Command = {
  async run(args, io) {
    const session = args.positionals[0];
    if (args.options.all && session !== undefined) throw new UsageError("give SESSION or --all, not both");
    if (!args.options.all && session === undefined) throw new UsageError("missing SESSION (or --all): usage: bonsai whatif SESSION [--reserve N] … [--json]");
    if (args.options.all) await all(args, io);
    else await one(args, io);
  },
};
