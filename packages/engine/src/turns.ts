/**
 * Prompt turns: a user message sent with the session's live context to the configured model
 * (streamed), the reply appended, transient failures retried (triggers-and-hooks.md §2.3), then
 * pruning and the compaction checks, with one more turn after an overflow was compacted.
 */
import { buildSessionContext, convertToLlm, type AssistantMessage } from "@bonsai/core";
import { abortableSleep, MAX_RETRY_AFTER_MS, prompt as promptText, streamTurn, type ModelFailure, type TurnReply } from "@bonsai/llm";
import { follow, type TurnState } from "./activity";
import type { EngineContext } from "./context";
import { CancelledError, InvalidRequestError, SessionBusyError } from "./errors";
import { withoutUndefined } from "./objects";
import { checkCompaction, TURN_PROVIDER } from "./triggers";
import type { PromptOutcome } from "./types";

export const AUTO_CONTINUE_TEXT = "Continue if you have next steps.";

interface PromptOptions {
  synthetic: boolean;
  /** 0: the user's prompt; 1: the auto-continue prompt inside it */
  depth: number;
}

/** The user's prompt (`synthetic` false, depth 0) or the auto-continue prompt that runs inside it. */
export async function runPrompt(ctx: EngineContext, sessionId: string, text: string, options: PromptOptions): Promise<PromptOutcome> {
  ctx.models.requireConfigured();
  if (text.trim() === "") throw new InvalidRequestError("The prompt is empty");
  const { prompts } = ctx.activity;
  if (options.depth > 0) {
    // the auto-continue prompt runs inside the user's prompt and is aborted with it
    const signal = prompts.get(sessionId)?.signal ?? new AbortController().signal;
    return promptSteps(ctx, sessionId, text, options, signal);
  }
  if (ctx.activity.isTurnRunning(sessionId)) throw new SessionBusyError("A turn is already running for this session");
  // registered before the first await: an abortTurn from now on reaches this prompt
  const controller = new AbortController();
  prompts.set(sessionId, controller);
  try {
    return await promptSteps(ctx, sessionId, text, options, controller.signal);
  } finally {
    if (prompts.get(sessionId) === controller) prompts.delete(sessionId);
  }
}

async function promptSteps(ctx: EngineContext, sessionId: string, text: string, options: PromptOptions, signal: AbortSignal): Promise<PromptOutcome> {
  const running = ctx.activity.compactions.get(sessionId);
  if (running) await running.done.catch(() => undefined);
  // pre-prompt check with the last assistant message of the live context (aborted ones included)
  if (options.depth === 0 && !signal.aborted) {
    const last = [...liveMessages(ctx, sessionId)].reverse().find((m): m is AssistantMessage => m.role === "assistant");
    await checkCompaction(ctx, sessionId, last, false, false);
  }
  await ctx.models.requireApiKey(); // before anything is appended
  // aborted before the user message was appended: nothing happened
  if (signal.aborted) throw new CancelledError("Prompt cancelled");
  const content = [{ type: "text" as const, text }];
  const userMessage = withoutUndefined({ role: "user" as const, content, timestamp: Date.now(), synthetic: options.synthetic ? true : undefined });
  const userEntry = ctx.store.appendEntry(sessionId, { type: "message", message: userMessage });
  ctx.events.emit("leaf_changed", { sessionId, leafId: userEntry.id });
  let outcome = await turnWithRetries(ctx, sessionId, userEntry.id, signal);
  // overflow recovery (decided from the model call's typed failure): compact, then send the turn once more
  const check = await checkCompaction(ctx, sessionId, outcome.message, true, options.depth < 2, { failure: outcome.failure });
  if (check === "retry" && !signal.aborted) {
    outcome = await turnWithRetries(ctx, sessionId, userEntry.id, signal);
    await checkCompaction(ctx, sessionId, outcome.message, true, false, { failure: outcome.failure });
  }
  return withoutFailure(outcome);
}

function liveMessages(ctx: EngineContext, sessionId: string) {
  const leafId = ctx.store.getLeaf(sessionId);
  return buildSessionContext(ctx.store.getContextEntries(sessionId, leafId), leafId).messages;
}

/** a turn's outcome and, when its model call failed, the typed failure (kept in the engine, not returned) */
type TurnOutcome = PromptOutcome & { failure?: ModelFailure };

function withoutFailure({ failure: _failure, ...outcome }: TurnOutcome): PromptOutcome {
  return outcome;
}

/** A failed reply worth another attempt (by its typed failure: transient, not an overflow, no wait over the limit). */
function retryable(reply: TurnReply): boolean {
  const failure = reply.failure;
  return reply.message.stopReason === "error" && failure !== undefined && failure.transient && !failure.contextOverflow && (failure.retryAfterMs ?? 0) <= MAX_RETRY_AFTER_MS;
}

/**
 * One turn plus the generic retries of transient failures (triggers-and-hooks.md §2.3), waiting
 * `baseDelayMs × 2^attempt` or longer when the server asks for it (retry-after). A failed
 * reply that is retried is not appended (unlike pi, which keeps one error entry per attempt): the
 * session gets the final reply only, so a prompt that fails for good leaves one error entry. If
 * the retry is aborted during its delay, the held error is appended then.
 */
async function turnWithRetries(ctx: EngineContext, sessionId: string, userEntryId: string, signal: AbortSignal): Promise<TurnOutcome> {
  const retry = ctx.settings.get().retry;
  for (let attempt = 0; ; attempt++) {
    const willRetry = (reply: TurnReply) => retry.enabled && attempt < retry.maxRetries && retryable(reply);
    const outcome = await turn(ctx, sessionId, userEntryId, signal, willRetry);
    const msg = outcome.message;
    if (!willRetry(outcome)) {
      if (attempt > 0) {
        ctx.events.emit("auto_retry_end", withoutUndefined({ sessionId, scope: "turn" as const, success: msg.stopReason !== "error", attempt, finalError: msg.stopReason === "error" ? msg.errorMessage : undefined }));
      }
      return outcome;
    }
    const delayMs = Math.max(retry.baseDelayMs * 2 ** attempt, outcome.failure?.retryAfterMs ?? 0);
    ctx.events.emit("auto_retry_start", { sessionId, scope: "turn", attempt: attempt + 1, maxAttempts: retry.maxRetries, delayMs, errorMessage: msg.errorMessage ?? "" });
    const state = startTurn(ctx, sessionId);
    const unlink = follow(signal, state.controller);
    try {
      await abortableSleep(delayMs, state.controller.signal);
    } catch {
      // no retry after all: the failed reply held back is the prompt's one error entry
      return state.discard ? outcome : { ...appendReply(ctx, sessionId, outcome), failure: outcome.failure };
    } finally {
      unlink();
      endTurn(ctx, sessionId, state);
    }
  }
}

function startTurn(ctx: EngineContext, sessionId: string): TurnState {
  const state: TurnState = { controller: new AbortController(), discard: false };
  ctx.activity.turns.set(sessionId, state);
  return state;
}

function endTurn(ctx: EngineContext, sessionId: string, state: TurnState): void {
  if (ctx.activity.turns.get(sessionId) === state) ctx.activity.turns.delete(sessionId);
}

function appendReply(ctx: EngineContext, sessionId: string, outcome: TurnOutcome): TurnOutcome {
  const entry = ctx.store.appendEntry(sessionId, { type: "message", message: outcome.message });
  ctx.events.emit("leaf_changed", { sessionId, leafId: entry.id });
  return { ...outcome, assistantEntryId: entry.id };
}

/** One model call; the reply is appended unless the turn was discarded or `holdBack(reply)` says it will be retried. */
async function turn(ctx: EngineContext, sessionId: string, userEntryId: string, signal: AbortSignal, holdBack: (reply: TurnReply) => boolean): Promise<TurnOutcome> {
  const settings = ctx.settings.get();
  const state = startTurn(ctx, sessionId);
  // an abort of the prompt (also one sent before this turn started) aborts the turn
  const unlink = follow(signal, state.controller);
  try {
    const apiKey = await ctx.models.requireApiKey();
    // the context without trailing failed replies (they are kept in the session, not re-sent)
    const messages = [...liveMessages(ctx, sessionId)];
    while (messages.length > 0) {
      const last = messages[messages.length - 1];
      if (last?.role === "assistant" && (last.stopReason === "error" || last.stopReason === "aborted")) messages.pop();
      else break;
    }
    ctx.events.emit("turn_start", { sessionId, userEntryId, model: settings.model.model });
    const reply = await streamTurn(convertToLlm(messages), {
      endpoint: { baseUrl: settings.model.baseUrl, apiKey },
      model: settings.model.model,
      provider: TURN_PROVIDER,
      systemPrompt: promptText("turnSystem"),
      maxTokens: settings.model.maxOutputTokens,
      signal: state.controller.signal,
      onDelta: (delta) => ctx.events.emit("turn_delta", { sessionId, delta }),
    });
    const { message } = reply;
    let outcome: TurnOutcome = reply.failure ? { message, userEntryId, failure: reply.failure } : { message, userEntryId };
    if (!state.discard && !holdBack(reply)) outcome = appendReply(ctx, sessionId, outcome);
    ctx.events.emit("turn_end", { sessionId, message, entryId: outcome.assistantEntryId });
    return outcome;
  } finally {
    unlink();
    endTurn(ctx, sessionId, state);
  }
}
