/**
 * `bonsai plan SESSION [--leaf ID] [--reserve N] [--keep-recent N] [--json]`: what a compaction of the
 * branch ending at the leaf would summarize and keep (compaction.md §5). Read only; no model call.
 */
import { DEFAULT_SETTINGS, compactionMaxTokens, contextFigureOf, contextOf, IdList, type CompactionPlanSummary, type CompactionSettings } from "@bonsai/core";
import { printJson, type Io } from "../output";
import { reportIssues, resolveLeafId, withSessionOf, type LoadedSession } from "../session-source";
import type { Command, SessionCommand } from "./command";

export interface PlanReport {
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  /** entries whose messages are summarized (one per message), in branch order (as a store read them: IdList) */
  summarizeEntryIds: string[] | IdList;
  /** entries of the split turn's prefix (one per message) */
  turnPrefixEntryIds: string[];
  tokensBefore: number;
  hasPreviousSummary: boolean;
  readFiles: string[];
  modifiedFiles: string[];
  /** the leaf the plan was made from */
  leafId: string | null;
  /** keepRecentTokens after the usage-ratio adaptation (estimate units) */
  keepRecentTokens: number;
  /** ids of the entries kept verbatim (from firstKeptEntryId to the leaf) */
  keptEntryIds: string[];
}

export function planReport(session: LoadedSession, leafOption: string | undefined, settings: CompactionSettings): {
  report: PlanReport | null;
  plan: CompactionPlanSummary | undefined;
} {
  const leafId = resolveLeafId(session, leafOption);
  const plan = session.compactionPlan(leafId, settings);
  if (!plan) return { report: null, plan };
  return {
    plan,
    report: {
      firstKeptEntryId: plan.firstKeptEntryId,
      isSplitTurn: plan.isSplitTurn,
      summarizeEntryIds: plan.summarizeEntryIds,
      turnPrefixEntryIds: plan.turnPrefixEntryIds,
      tokensBefore: plan.tokensBefore,
      hasPreviousSummary: plan.hasPreviousSummary,
      readFiles: plan.readFiles,
      modifiedFiles: plan.modifiedFiles,
      leafId,
      keepRecentTokens: plan.keepRecentTokens,
      keptEntryIds: plan.keptEntryIds,
    },
  };
}

function idRange(list: readonly string[] | IdList): string {
  const ids = IdList.array(list);
  if (ids.length === 0) return "";
  return ids.length === 1 ? ` (${ids[0]})` : ` (${ids[0]} … ${ids[ids.length - 1]})`;
}

/** the display figure at the leaf (core contextFigureOf, compaction.md §2.6), read as `bonsai context` reads it */
function modelSees(session: LoadedSession, leafId: string | null): number {
  return contextFigureOf(session.contextFigures?.(leafId) ?? contextOf(session.path(leafId), leafId)).contextTokens;
}

function fileLines(title: string, files: readonly string[]): string[] {
  return files.length === 0 ? [`${title}: none`] : [`${title} (${files.length}):`, ...files.map((f) => `  ${f}`)];
}

function printText(io: Io, session: LoadedSession, report: PlanReport | null, plan: CompactionPlanSummary | undefined, settings: CompactionSettings): void {
  if (!report || !plan) {
    io.stdout(`Nothing to compact in ${session.label}: the branch is empty or already ends with a compaction.\n`);
    return;
  }
  const budgets = compactionMaxTokens(settings.reserveTokens);
  const adapted = report.keepRecentTokens === settings.keepRecentTokens ? "" : ` (configured ${settings.keepRecentTokens}, adapted by the usage ratio)`;
  const lines = [
    `Compaction plan for ${session.label} (leaf ${report.leafId})`,
    `Window: ${plan.previousCompactionId ? `after compaction ${plan.previousCompactionId} (its summary is updated)` : "the whole branch (first compaction)"}`,
    `The model sees: ${modelSees(session, report.leafId)} tokens (the figure every panel and \`bonsai context\` show)`,
    `Context before: ${report.tokensBefore} tokens (last assistant usage; recorded as the compaction's tokensBefore)`,
    `Keep budget: ${report.keepRecentTokens} estimated tokens${adapted}`,
    `Summarize: ${report.summarizeEntryIds.length} messages${idRange(report.summarizeEntryIds)}`,
    report.isSplitTurn
      ? `Split turn: yes, turn prefix of ${report.turnPrefixEntryIds.length} messages${idRange(report.turnPrefixEntryIds)} summarized separately`
      : "Split turn: no",
    `Keep from: ${report.firstKeptEntryId} (${report.keptEntryIds.length} entries, ${plan.recentMessageCount} messages)`,
    `Summary budgets: history ${budgets.history}, turn prefix ${budgets.turnPrefix}, short ${budgets.short} tokens`,
    ...fileLines("Read files", report.readFiles),
    ...fileLines("Modified files", report.modifiedFiles),
  ];
  io.stdout(`${lines.join("\n")}\n`);
}

/** The command on a loaded session (a file's, or the stored one stored-read.ts opened). */
export const planOn: SessionCommand = (session, args, io) => {
  reportIssues(io, session);
  const settings: CompactionSettings = {
    ...DEFAULT_SETTINGS.compaction,
    reserveTokens: (args.options.reserve as number | undefined) ?? DEFAULT_SETTINGS.compaction.reserveTokens,
    keepRecentTokens: (args.options["keep-recent"] as number | undefined) ?? DEFAULT_SETTINGS.compaction.keepRecentTokens,
  };
  const { report, plan } = planReport(session, args.options.leaf as string | undefined, settings);
  if (args.options.json) printJson(io, report);
  else printText(io, session, report, plan, settings);
};

export const planCommand: Command = {
  async run(args, io) {
    await withSessionOf(args, (session) => planOn(session, args, io));
  },
};
