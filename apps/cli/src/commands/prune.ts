/**
 * `bonsai prune SESSION --dry-run [--leaf ID] [--protect TOOLS] [--json]`: which tool results pruning
 * would replace by a notice on the branch at the leaf (pruning.md §2), and the tokens saved.
 *
 * The dry run is read only and self-contained (`pruneDryRun`). Applying pruning changes a session and
 * belongs to stored sessions (the engine, with restorable originals): a session *file* is never
 * modified, so for a file the command always answers with the dry run, with or without --dry-run.
 */
import { DEFAULT_PRUNE_CONFIG, planPruningOf, type PruneConfig, type PrunePlan } from "@bonsai/core";
import { column, printJson, type Io } from "../output";
import { reportIssues, resolveLeafId, withSession, type LoadedSession } from "../session-source";
import type { Command } from "./command";
import { existsSync } from "node:fs";
import { UserError } from "../errors";
import { pruneSpec } from "./prune.spec";

export interface PruneDryRunReport {
  /** tool results that would be pruned, oldest first */
  prunedEntryIds: string[];
  tokensSaved: number;
  prunedCount: number;
  leafId: string | null;
  protectedTools: string[];
}

/** Parses `--protect read,skill` (an empty value protects no tool). */
export function parseProtectedTools(value: string | undefined): readonly string[] {
  if (value === undefined) return DEFAULT_PRUNE_CONFIG.protectedTools;
  return value
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

export function pruneDryRun(session: LoadedSession, leafOption: string | undefined, config: PruneConfig): { report: PruneDryRunReport; plan: PrunePlan } {
  const leafId = resolveLeafId(session, leafOption);
  const plan = planPruningOf(session.toolResults(leafId), config);
  return {
    plan,
    report: {
      prunedEntryIds: plan.candidates.map((c) => c.entryId),
      tokensSaved: plan.tokensSaved,
      prunedCount: plan.prunedCount,
      leafId,
      protectedTools: [...config.protectedTools],
    },
  };
}

function printText(io: Io, session: LoadedSession, report: PruneDryRunReport, plan: PrunePlan, config: PruneConfig): void {
  const lines = [`Pruning plan for ${session.label} (leaf ${report.leafId ?? "(none)"}), dry run: nothing is changed`];
  lines.push(`Protected: the newest ${config.protectTokens} tool-output tokens and tools ${report.protectedTools.join(", ") || "(none)"}`);
  if (plan.prunedCount === 0) {
    lines.push(
      plan.potentialCount === 0
        ? "Nothing to prune: no unprotected tool result."
        : `Nothing to prune: ${plan.potentialCount} results would save only ${plan.potentialTokensSaved} tokens (minimum ${config.minimumSavings}).`,
    );
  } else {
    lines.push(`Would prune ${plan.prunedCount} tool results, saving about ${plan.tokensSaved} tokens:`, "");
    lines.push(`  ${column("entry", 16)}  ${column("tool", 12)}  ${"tokens".padStart(7)}  ${"saved".padStart(7)}`);
    for (const c of plan.candidates) {
      lines.push(`  ${column(c.entryId, 16)}  ${column(c.toolName, 12)}  ${String(c.tokens).padStart(7)}  ${String(c.savings).padStart(7)}`);
    }
  }
  io.stdout(`${lines.join("\n")}\n`);
}

export const pruneCommand: Command = {
  spec: pruneSpec,
  async run(args, io) {
    const arg = args.positionals[0] as string;
    // a stored session (id or prefix) is pruned for real (originals kept) unless --dry-run
    if (!existsSync(arg) && args.options["dry-run"] !== true) {
      if (args.options.leaf !== undefined || args.options.protect !== undefined) throw new UserError("--leaf and --protect apply to a dry run; a stored session is pruned at its current leaf with the default protection", 2);
      // the engine and the store are loaded only for this path (a dry run never needs the engine)
      const { applyPruneToStoredSession } = await import("./prune-apply");
      return applyPruneToStoredSession(args, io);
    }
    // a dry run (a session file is never modified: always one), the same for a file and a stored session
    await withSession(arg, (session) => {
      reportIssues(io, session);
      const config: PruneConfig = { ...DEFAULT_PRUNE_CONFIG, protectedTools: parseProtectedTools(args.options.protect as string | undefined) };
      const { report, plan } = pruneDryRun(session, args.options.leaf as string | undefined, config);
      if (args.options.json) printJson(io, report);
      else printText(io, session, report, plan, config);
    }, { dataDir: args.options["data-dir"] as string | undefined });
  },
};
