/**
 * `bonsai prune SESSION --dry-run [--leaf ID] [--protect TOOLS] [--json]`: which tool results pruning
 * would replace by a notice on the branch at the leaf (pruning.md §2), and the tokens saved.
 *
 * The dry run is read only and self-contained (`pruneDryRun`). Applying pruning changes a session and
 * belongs to stored sessions (the engine, with restorable originals): a session *file* is never
 * modified, so for a file the command always answers with the dry run, with or without --dry-run.
 */
import {
  DEFAULT_PRUNE_CONFIG,
  littleGainNote,
  nothingToPruneReason,
  pruneContextChange,
  type IdList,
  type PruneCandidate,
  type PruneConfig,
  type PruneContextChange,
  type PrunePlan,
} from "@bonsai/core";
import { column, printJson, type Io } from "../output";
import { reportIssues, resolveLeafId, withSession, type LoadedSession } from "../session-source";
import type { Command, SessionCommand } from "./command";
import { existsSync } from "node:fs";
import { UserError } from "../errors";

export interface PruneDryRunReport extends PruneContextChange {
  /** tool results that would be pruned, oldest first (printed from the store's text for a stored session) */
  prunedEntryIds: IdList;
  /** the reference's saving (pruning.md §2): every replaced output on the path, also those summarized away; stopsSeeingTokens is what the model sees less */
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

/** The JSON report of a dry run: the ids and figures of the plan (a stored session reads them as aggregates). */
export function pruneDryRun(session: LoadedSession, leafOption: string | undefined, config: PruneConfig): PruneDryRunReport {
  const leafId = resolveLeafId(session, leafOption);
  const { entryIds, tokensSaved, prunedCount, change } = session.pruneSummary(leafId, config);
  return { prunedEntryIds: entryIds, tokensSaved, prunedCount, leafId, protectedTools: [...config.protectedTools], ...(change ?? changeAt(session, leafId, config)) };
}

/**
 * what the plan changes in what the model sees from the leaf (core pruneContextChange, as the page's
 * Prune panel shows it): a stored session reads it from its columns, a file from the path
 */
function changeAt(session: LoadedSession, leafId: string | null, config: PruneConfig, plan?: PrunePlan): PruneContextChange {
  return session.pruneChange?.(leafId, config) ?? pruneContextChange(session.path(leafId), leafId, plan ?? session.prunePlan(leafId, config), config);
}

/** The text report of a dry run: the plan's results one by one, or by tool name when there are many. */
function printText(io: Io, session: LoadedSession, leafOption: string | undefined, config: PruneConfig): void {
  const leafId = resolveLeafId(session, leafOption);
  const plan = session.prunePlan(leafId, config);
  const lines = [`Pruning plan for ${session.label} (leaf ${leafId ?? "(none)"}), dry run: nothing is changed`];
  lines.push(`Protected: the newest ${config.protectTokens} tool-output tokens and tools ${config.protectedTools.join(", ") || "(none)"}`);
  const nothing = nothingToPruneReason(plan, config);
  if (nothing !== null) {
    lines.push(nothing);
  } else {
    const change = changeAt(session, leafId, config, plan);
    const n = (v: number) => v.toLocaleString("en-US");
    lines.push(
      `Would prune ${plan.prunedCount} tool results: the model would stop seeing about ${n(change.stopsSeeingTokens)} tokens (it sees ${n(change.contextTokensBefore)} → ${n(change.contextTokensAfter)})`,
      `  the outputs replaced hold ${n(plan.tokensSaved)} tokens (tokensSaved), counting those a compaction already summarized away`,
    );
    const little = littleGainNote(change);
    if (little !== null) lines.push(little);
    lines.push("");
    lines.push(...(plan.candidates.length <= MAX_LISTED ? candidateLines(plan.candidates) : toolLines(plan.candidates)));
  }
  io.stdout(`${lines.join("\n")}\n`);
}

/** Up to this many results are listed one by one; more are shown by tool (--json lists every id). */
export const MAX_LISTED = 50;

/** a result's tool name as printed (a result without a text one: "(none)") */
function toolLabel(name: unknown): string {
  return typeof name === "string" ? name : "(none)";
}

function candidateLines(candidates: readonly PruneCandidate[]): string[] {
  const lines = [`  ${column("entry", 16)}  ${column("tool", 12)}  ${"tokens".padStart(7)}  ${"saved".padStart(7)}`];
  for (const c of candidates) lines.push(`  ${column(c.entryId, 16)}  ${column(toolLabel(c.toolName), 12)}  ${String(c.tokens).padStart(7)}  ${String(c.savings).padStart(7)}`);
  return lines;
}

/** the candidates by tool name (most saved first), then where to find the ids */
function toolLines(candidates: readonly PruneCandidate[]): string[] {
  const byTool = new Map<string, { results: number; tokens: number; saved: number }>();
  for (const c of candidates) {
    const name = toolLabel(c.toolName);
    const t = byTool.get(name) ?? { results: 0, tokens: 0, saved: 0 };
    t.results++;
    t.tokens += c.tokens;
    t.saved += c.savings;
    byTool.set(name, t);
  }
  const lines = [`  ${column("tool", 16)}  ${"results".padStart(8)}  ${"tokens".padStart(10)}  ${"saved".padStart(10)}`];
  for (const [name, t] of [...byTool].sort((a, b) => b[1].saved - a[1].saved || (a[0] < b[0] ? -1 : 1))) {
    lines.push(`  ${column(name, 16)}  ${String(t.results).padStart(8)}  ${String(t.tokens).padStart(10)}  ${String(t.saved).padStart(10)}`);
  }
  const first = candidates[0] as PruneCandidate;
  const last = candidates[candidates.length - 1] as PruneCandidate;
  lines.push("", `  from ${first.entryId} to ${last.entryId}; --json lists every entry id`);
  return lines;
}

export const pruneCommand: Command = {
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
    await withSession(arg, (session) => pruneDryRunOn(session, args, io), { dataDir: args.options["data-dir"] as string | undefined });
  },
};

/** A dry run on a loaded session (a file's, or the stored one stored-read.ts opened). */
export const pruneDryRunOn: SessionCommand = (session, args, io) => {
  reportIssues(io, session);
  const config: PruneConfig = { ...DEFAULT_PRUNE_CONFIG, protectedTools: parseProtectedTools(args.options.protect as string | undefined) };
  const leaf = args.options.leaf as string | undefined;
  if (args.options.json) printJson(io, pruneDryRun(session, leaf, config));
  else printText(io, session, leaf, config);
};
