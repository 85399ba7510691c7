/**
 * The automatic compaction triggers (triggers-and-hooks.md §1.3 and §2): after a turn, prune, then
 * compact on a context overflow (and send the failed turn again) or past the threshold (then
 * continue the conversation), with the model's fallbacks and retries.
 */
import { isContextOverflow, shouldCompact, skipsCompactionCheck, thresholdInputTokens, type AssistantMessage } from "@bonsai/core";
import { runWithCandidates, type ModelFailure } from "@bonsai/llm";
import { commitCompactionResult, produceCompaction, summarizeWith } from "./compaction-steps";
import type { EngineContext } from "./context";
import type { AutoCompactionReason, EngineEvents } from "./events";
import { withoutUndefined } from "./objects";
import { pruneToolOutputs } from "./pruning";

/** Provider recorded on assistant messages of OpenAI-compatible turns. */
export const TURN_PROVIDER = "openai";

/** runAutoCompaction (triggers-and-hooks.md §2). Resolves when the run (and an auto-continue turn) is over. */
async function runAutoCompaction(ctx: EngineContext, sessionId: string, reason: AutoCompactionReason, willRetry: boolean, allowContinue: boolean): Promise<"compacted" | "none"> {
  const existing = ctx.activity.compactions.get(sessionId);
  if (existing?.kind === "manual") return "none";
  existing?.controller.abort();
  // registered before any await: an abortCompaction from now on reaches this run
  const { state, finish } = ctx.activity.startCompaction(sessionId, "auto");
  if (existing) await existing.done.catch(() => undefined);
  ctx.events.emit("auto_compaction_start", { sessionId, reason });
  const signal = state.controller.signal;
  const end = (payload: Omit<EngineEvents["auto_compaction_end"], "sessionId" | "reason">) =>
    ctx.events.emit("auto_compaction_end", { ...withoutUndefined({ sessionId, reason, ...payload }), result: payload.result });
  try {
    const candidates = await ctx.models.compactionCandidates();
    const retry = ctx.settings.get().retry;
    const produced = await produceCompaction(ctx, sessionId, signal, undefined, (plan, extra) =>
      runWithCandidates(
        candidates.map((c) => ({
          label: c.label,
          available: c.available,
          run: async (s) => summarizeWith(ctx, sessionId, await c.run(s), signal, undefined)(plan, extra),
        })),
        retry,
        signal,
        (n) => ctx.events.emit("auto_retry_start", withoutUndefined({ sessionId, scope: "compaction" as const, ...n })),
      ),
    );
    if (produced.kind === "empty") {
      end({ result: undefined, aborted: false, willRetry: false });
      return "none";
    }
    if (produced.kind === "cancelled" || signal.aborted) {
      end({ result: undefined, aborted: true, willRetry: false });
      return "none";
    }
    const entry = await commitCompactionResult(ctx, sessionId, produced.result, produced.fromExtension, produced.preserveData, produced.leafId);
    end({ result: produced.result, aborted: false, willRetry, entry });
  } catch (error) {
    if (signal.aborted) end({ result: undefined, aborted: true, willRetry: false });
    else {
      const msg = error instanceof Error ? error.message : "compaction failed";
      end({
        result: undefined,
        aborted: false,
        willRetry: false,
        errorMessage: reason === "overflow" ? `Context overflow recovery failed: ${msg}` : `Auto-compaction failed: ${msg}`,
      });
    }
    return "none";
  } finally {
    if (ctx.activity.compactions.get(sessionId) === state) ctx.activity.compactions.delete(sessionId);
    finish();
  }
  if (!willRetry && allowContinue && ctx.settings.get().compaction.autoContinue !== false) {
    await ctx.continueAfterCompaction(sessionId).catch(() => undefined);
  }
  return "compacted";
}

/**
 * Whether `message` overflowed the context window: a reply just received says so by its model
 * call's typed failure (`fresh`); a message read from the session has only its error text, matched
 * against the providers' wording (core's isContextOverflow). Either overflows silently when its
 * usage is over the window.
 */
function overflowed(message: AssistantMessage, contextWindow: number, fresh: { failure?: ModelFailure } | undefined): boolean {
  if (!fresh) return isContextOverflow(message, contextWindow);
  if (message.stopReason === "error") return fresh.failure?.contextOverflow === true;
  return isContextOverflow(message, contextWindow);
}

/**
 * checkCompaction (triggers-and-hooks.md §1.3). Returns "retry" when an overflow was compacted and
 * the failed turn should be sent again. `fresh`: the message is the reply just received, with its
 * model call's typed failure.
 */
export async function checkCompaction(
  ctx: EngineContext,
  sessionId: string,
  message: AssistantMessage | undefined,
  skipAbortedCheck: boolean,
  allowContinue: boolean,
  fresh?: { failure?: ModelFailure },
): Promise<"retry" | "none"> {
  const settings = ctx.settings.get();
  if (!settings.compaction.enabled || !message) return "none";
  const pruned = settings.pruning.enabled ? await pruneToolOutputs(ctx, sessionId, { dryRun: false }) : undefined;
  // aborted after a turn; deviation 2 (and 3): a message not newer than the latest compaction on the branch is stale
  if (skipsCompactionCheck(message, skipAbortedCheck, ctx.store.getContextEntries(sessionId))) return "none";
  const configured = ctx.models.configured;
  const contextWindow = configured ? settings.model.contextWindow : 0;
  const sameModel = configured && message.provider === TURN_PROVIDER && message.model === settings.model.model;
  if (sameModel && overflowed(message, contextWindow, fresh)) {
    const outcome = await runAutoCompaction(ctx, sessionId, "overflow", true, false);
    // deviation 7: after a silent overflow (a successful reply) there is nothing to retry
    return outcome === "compacted" && message.stopReason === "error" ? "retry" : "none";
  }
  // an error reply has no usable usage; deviation 10: only the savings inside the live context count
  const contextTokens = thresholdInputTokens(message, pruned && pruned.prunedCount > 0 ? pruned.tokensSavedInContext : 0);
  if (contextTokens !== undefined && shouldCompact(contextTokens, contextWindow, settings.compaction)) await runAutoCompaction(ctx, sessionId, "threshold", false, allowContinue);
  return "none";
}
