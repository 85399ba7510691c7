/**
 * Manual compaction (triggers-and-hooks.md §3) and the commit of a previewed, possibly edited,
 * result: aborts a running turn first, one attempt with the current model (or the offline
 * summarizer; transient failures retried as automatic compaction retries them), no automatic events.
 */
import { runWithCandidates } from "@bonsai/llm";
import type { CompactionResult } from "./compact";
import { commitCompactionResult, produceCompaction, summarizeWith } from "./compaction-steps";
import type { EngineContext } from "./context";
import { CancelledError, EngineError, InvalidRequestError, NothingToCompactError, RefusedByHookError, SessionBusyError, StaleCompactionError } from "./errors";
import { withoutUndefined } from "./objects";
import type { CompactOutcome, CompactRequest } from "./types";

const CANCELLED = "Compaction cancelled";

function refuseWhileCompacting(ctx: EngineContext, sessionId: string): void {
  if (ctx.activity.compactions.has(sessionId)) throw new SessionBusyError("A compaction is already running for this session");
}

/**
 * Errors: NothingToCompactError (`Already compacted`, `Nothing to compact (session too small)`),
 * CancelledError (`Compaction cancelled`; RefusedByHookError when a hook cancelled it), summarizer failures.
 */
export async function compactNow(ctx: EngineContext, sessionId: string, request: CompactRequest): Promise<CompactOutcome> {
  refuseWhileCompacting(ctx, sessionId);
  const { state, finish } = ctx.activity.startCompaction(sessionId, "manual");
  const controller = state.controller;
  const dryRun = request.dryRun === true;
  const instructions = request.instructions?.trim() || undefined;
  ctx.events.emit("compaction_start", { sessionId, reason: "manual", dryRun });
  try {
    await ctx.activity.abortTurnForCompaction(sessionId);
    const summarizer = await ctx.models.current();
    const summarize = summarizeWith(ctx, sessionId, summarizer, controller.signal, instructions);
    // a transient failure (429, 5xx, a retry hint) is retried as automatic compaction retries it
    const produced = await produceCompaction(ctx, sessionId, controller.signal, instructions, (plan, extra) =>
      runWithCandidates([{ label: summarizer.label, available: true, run: () => summarize(plan, extra) }], ctx.settings.get().retry, controller.signal, (n) =>
        ctx.events.emit("auto_retry_start", withoutUndefined({ sessionId, scope: "compaction" as const, ...n })),
      ),
    );
    if (produced.kind === "empty") throw new NothingToCompactError(produced.plan.lastEntryIsCompaction);
    if (produced.kind === "cancelled" && produced.byHook && !controller.signal.aborted) throw new RefusedByHookError(CANCELLED);
    if (produced.kind === "cancelled" || controller.signal.aborted) throw new CancelledError(CANCELLED);
    const outcome: CompactOutcome = { result: produced.result, dryRun, leafId: produced.leafId, fromExtension: produced.fromExtension };
    if (!dryRun) outcome.entry = await commitCompactionResult(ctx, sessionId, produced.result, produced.fromExtension, produced.preserveData, produced.leafId);
    ctx.events.emit("compaction_end", withoutUndefined({ sessionId, reason: "manual" as const, dryRun, result: produced.result, aborted: false, entry: outcome.entry }));
    return outcome;
  } catch (error) {
    const aborted = controller.signal.aborted || error instanceof CancelledError;
    const message = aborted ? CANCELLED : error instanceof Error ? error.message : String(error);
    ctx.events.emit("compaction_end", { sessionId, reason: "manual", dryRun, aborted, errorMessage: message });
    // a Bonsai error says why itself; anything else thrown while aborting is the abort
    if (aborted && !(error instanceof EngineError)) throw new CancelledError(CANCELLED);
    throw error;
  } finally {
    ctx.activity.compactions.delete(sessionId);
    finish();
  }
}

/**
 * Appends a (possibly edited) result of a dry run. Refused when the leaf moved since the preview,
 * when the summary is empty, or when firstKeptEntryId is not on the current branch.
 */
export async function commitPreviewedCompaction(ctx: EngineContext, sessionId: string, result: CompactionResult, expectedLeafId?: string | null): Promise<CompactOutcome> {
  refuseWhileCompacting(ctx, sessionId);
  const leafId = ctx.store.getLeaf(sessionId);
  if (expectedLeafId !== undefined && expectedLeafId !== leafId) throw new StaleCompactionError();
  if (typeof result?.summary !== "string" || result.summary.trim() === "") throw new InvalidRequestError("The compaction summary is empty");
  if (typeof result.firstKeptEntryId !== "string" || !Number.isFinite(result.tokensBefore)) throw new InvalidRequestError("The compaction result needs firstKeptEntryId and tokensBefore");
  if (!ctx.store.isOnPath(sessionId, result.firstKeptEntryId)) throw new InvalidRequestError(`Entry ${result.firstKeptEntryId} is not on the current branch`);
  const entry = await commitCompactionResult(ctx, sessionId, result, false, result.preserveData, expectedLeafId === undefined ? leafId : expectedLeafId);
  return { result, entry, dryRun: false, leafId, fromExtension: false };
}
