/**
 * `bonsai branch SESSION --to TARGET [--from OLD_LEAF] [--budget N] [--json]`: what a branch summary
 * would cover when moving from OLD_LEAF (default: the last entry) to TARGET (branch-summary.md §2-4).
 * Read only; no model call.
 */
import { computeFileLists, DEFAULT_BRANCH_BUDGET, type IdList } from "@bonsai/core";
import { UsageError } from "../errors";
import { printJson, type Io } from "../output";
import { reportIssues, requireEntryId, resolveLeafId, withSessionOf, type LoadedSession } from "../session-source";
import type { ParsedArgs } from "../args";
import type { Command, SessionCommand } from "./command";

export interface BranchReport {
  commonAncestorId: string | null;
  /** every abandoned entry, chronological (printed from the store's text for a stored session) */
  entryIds: IdList;
  /** the entries whose messages fit the budget, chronological */
  includedEntryIds: string[];
  readFiles: string[];
  modifiedFiles: string[];
  totalTokens: number;
  fromId: string | null;
  toId: string;
  budget: number;
}

export function branchReport(session: LoadedSession, fromOption: string | undefined, toOption: string, budget: number): BranchReport {
  const fromId = resolveLeafId(session, fromOption, "--from");
  const toId = requireEntryId(session, toOption, "--to") as string;
  const plan = session.branch(fromId, toId, budget);
  const { readFiles, modifiedFiles } = computeFileLists(plan.fileOps);
  return {
    commonAncestorId: plan.commonAncestorId,
    entryIds: plan.entryIds,
    includedEntryIds: plan.includedEntryIds,
    readFiles,
    modifiedFiles,
    totalTokens: plan.totalTokens,
    fromId,
    toId,
    budget,
  };
}

function printText(io: Io, session: LoadedSession, report: BranchReport): void {
  const lines = [
    `Branch summary plan for ${session.label}: from ${report.fromId ?? "(none)"} to ${report.toId}`,
    `Common ancestor: ${report.commonAncestorId ?? "none (the two entries share no ancestor)"}`,
    `Abandoned entries: ${report.entryIds.length}`,
  ];
  if (report.entryIds.length === 0) {
    lines.push("Nothing would be summarized: the target is on the way forward from the old leaf.");
  } else {
    const budget = report.budget > 0 ? `budget ${report.budget}` : "no budget";
    lines.push(`Summarized messages: ${report.includedEntryIds.length} (${report.totalTokens} estimated tokens, ${budget})`);
    if (report.includedEntryIds.length > 0) lines.push(`  from ${report.includedEntryIds[0]} to ${report.includedEntryIds[report.includedEntryIds.length - 1]}`);
    lines.push(report.readFiles.length ? `Read files (${report.readFiles.length}):` : "Read files: none", ...report.readFiles.map((f) => `  ${f}`));
    lines.push(report.modifiedFiles.length ? `Modified files (${report.modifiedFiles.length}):` : "Modified files: none", ...report.modifiedFiles.map((f) => `  ${f}`));
  }
  io.stdout(`${lines.join("\n")}\n`);
}

/** the `--to` option (a usage error without it, before any session is opened) */
export function requireTarget(args: ParsedArgs): string {
  const to = args.options.to as string | undefined;
  if (to === undefined) throw new UsageError("missing --to TARGET: usage: bonsai branch SESSION --to TARGET [--from OLD_LEAF] [--budget N] [--json]");
  return to;
}

export const branchCommand: Command = {
  async run(args, io) {
    requireTarget(args);
    await withSessionOf(args, (session) => branchOn(session, args, io));
  },
};

/** The command on a loaded session (a file's, or the stored one stored-read.ts opened); `--to` is checked first (requireTarget). */
export const branchOn: SessionCommand = (session, args, io) => {
  reportIssues(io, session);
  const budget = (args.options.budget as number | undefined) ?? DEFAULT_BRANCH_BUDGET;
  const report = branchReport(session, args.options.from as string | undefined, requireTarget(args), budget);
  if (args.options.json) printJson(io, report);
  else printText(io, session, report);
};
