/**
 * The steps manual and automatic compaction share: plan (inline or on the worker), the hooks
 * (session_before_compact, session.compacting), summarize, and append the entry at the leaf it was
 * planned from, then session_compact.
 */
import type { CompactionEntry } from "@bonsai/core";
import type { Summarizer } from "@bonsai/llm";
import { compact as summarizeCompaction, type CompactionResult } from "./compact";
import type { EngineContext } from "./context";
import { withoutUndefined } from "./objects";
import type { CompactionPlan } from "./planner";

export type PlannedCompaction = CompactionPlan & { preparation: NonNullable<CompactionPlan["preparation"]> };

export interface PromptExtras {
  promptOverride?: string;
  extraContext?: string[];
}

export type Produced =
  | { kind: "empty"; plan: CompactionPlan }
  /** aborted (`byHook` false) or cancelled by a session_before_compact hook */
  | { kind: "cancelled"; byHook: boolean }
  | { kind: "done"; result: CompactionResult; fromExtension: boolean; preserveData?: Record<string, unknown>; leafId: string | null };

function plan(ctx: EngineContext, sessionId: string, withBranchEntries: boolean, withMessages: boolean): Promise<CompactionPlan> {
  const settings = ctx.settings.get();
  return ctx.planner.plan({ sessionId, leafId: ctx.store.getLeaf(sessionId), settings: settings.compaction, withBranchEntries, withMessages });
}

/**
 * Plans, runs hooks and summarizes. `summarize` runs the summarization (single attempt for manual,
 * candidates with retries for automatic). `empty` when nothing can be compacted.
 */
export async function produceCompaction(
  ctx: EngineContext,
  sessionId: string,
  signal: AbortSignal,
  customInstructions: string | undefined,
  summarize: (plan: PlannedCompaction, extra: PromptExtras) => Promise<CompactionResult>,
): Promise<Produced> {
  await ctx.hooksLoaded();
  ctx.events.emit("compaction_progress", { sessionId, stage: "preparing" });
  const wantBranch = ctx.hooks.has("session_before_compact");
  const aborted: Produced = { kind: "cancelled", byHook: false };
  if (signal.aborted) return aborted;
  const planned = await plan(ctx, sessionId, wantBranch, wantBranch || ctx.hooks.has("session.compacting"));
  if (signal.aborted) return aborted;
  if (!planned.preparation) return { kind: "empty", plan: planned };
  const preparation = planned.preparation;
  const hookCtx = { sessionId };
  let hookCompaction: CompactionResult | undefined;
  if (wantBranch) {
    ctx.events.emit("compaction_progress", { sessionId, stage: "hooks" });
    const before = await ctx.hooks.beforeCompact(
      withoutUndefined({ type: "session_before_compact" as const, preparation, branchEntries: planned.branchEntries ?? [], customInstructions, signal }),
      hookCtx,
    );
    if (before?.cancel) return { kind: "cancelled", byHook: true };
    hookCompaction = before?.compaction;
  }
  if (hookCompaction) {
    return { kind: "done", result: hookCompaction, fromExtension: true, preserveData: hookCompaction.preserveData, leafId: planned.leafId };
  }
  let extra: PromptExtras = {};
  let preserveData: Record<string, unknown> | undefined;
  if (ctx.hooks.has("session.compacting")) {
    const r = await ctx.hooks.compacting(
      { type: "session.compacting", sessionId, messages: [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages] },
      hookCtx,
    );
    if (r) {
      extra = withoutUndefined({ promptOverride: typeof r.prompt === "string" && r.prompt ? r.prompt : undefined, extraContext: Array.isArray(r.context) ? r.context.map(String) : undefined });
      if (r.preserveData && typeof r.preserveData === "object") preserveData = r.preserveData;
    }
  }
  if (signal.aborted) return aborted;
  const result = await summarize(planned as PlannedCompaction, extra);
  if (preserveData) result.preserveData = preserveData;
  return { kind: "done", result, fromExtension: false, preserveData, leafId: planned.leafId };
}

/** The summarization of a plan with `model` (and the remote endpoint when one is set), reporting its stages. */
export function summarizeWith(ctx: EngineContext, sessionId: string, model: Summarizer, signal: AbortSignal, customInstructions: string | undefined) {
  return (planned: PlannedCompaction, extra: PromptExtras) => {
    const remote = ctx.models.remote();
    return summarizeCompaction(planned.preparation, withoutUndefined({ model, remote }), {
      ...extra,
      customInstructions,
      signal,
      serialized: planned.serialized,
      onStage: (stage) => ctx.events.emit("compaction_progress", { sessionId, stage, summarizer: stage === "turnPrefix" || !remote ? model.label : "remote" }),
    });
  };
}

/**
 * Appends the compaction at the leaf it was planned from (the store refuses it if the leaf moved or
 * firstKeptEntryId left the path), announces the new leaf and runs session_compact.
 */
export async function commitCompactionResult(
  ctx: EngineContext,
  sessionId: string,
  result: CompactionResult,
  fromExtension: boolean,
  preserveData: Record<string, unknown> | undefined,
  plannedLeafId: string | null,
): Promise<CompactionEntry> {
  ctx.events.emit("compaction_progress", { sessionId, stage: "saving" });
  const body = withoutUndefined({
    type: "compaction",
    summary: result.summary,
    shortSummary: result.shortSummary,
    firstKeptEntryId: result.firstKeptEntryId,
    tokensBefore: result.tokensBefore,
    details: result.details,
    fromExtension,
    preserveData,
  });
  const entry = ctx.store.appendEntry(sessionId, body, { expect: { leafId: plannedLeafId, onPath: [result.firstKeptEntryId] } }) as CompactionEntry;
  ctx.events.emit("leaf_changed", { sessionId, leafId: entry.id });
  await ctx.hooks.compacted({ type: "session_compact", compactionEntry: entry, fromExtension }, { sessionId });
  return entry;
}
