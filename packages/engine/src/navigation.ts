/**
 * Branch navigation (branch-summary.md §1): moves the leaf to another entry, optionally appending a
 * summary of the branch left behind; session_before_tree may cancel it or supply the summary.
 */
import { buildIndex, collectEntriesForBranchSummary, type BranchSummaryEntry } from "@bonsai/core";
import { generateBranchSummary, type SummaryDetails } from "./compact";
import type { EngineContext } from "./context";
import { EntryNotFoundError, ModelError, SessionBusyError } from "./errors";
import type { EngineEvents } from "./events";
import { userText, withoutUndefined } from "./objects";
import type { CommitExpectation, NavigateOutcome, NavigateRequest } from "./types";

/** customType of the entry that carries a branch switch without a summary into a pi file */
export const BRANCH_MARKER_TYPE = "bonsai-branch";

/**
 * A branch switch without a summary. In the store the leaf moves; a pi / oh-my-pi file (the agent
 * resumes from its last line) also gets a `custom` entry of type "bonsai-branch" parented at the
 * new leaf, which adds nothing to any context (docs/DEVIATIONS.md), so the agent resumes there.
 */
function moveLeaf(ctx: EngineContext, sessionId: string, oldLeafId: string | null, newLeafId: string | null): void {
  const session = ctx.store.getSession(sessionId);
  if (session?.sourceFormat !== "pi-jsonl" || session.sourcePath === null || session.detached !== null) {
    ctx.store.setLeaf(sessionId, newLeafId);
    return;
  }
  const body = { type: "custom" as const, customType: BRANCH_MARKER_TYPE, data: { from: oldLeafId, to: newLeafId } };
  ctx.store.appendEntry(sessionId, body, { parentId: newLeafId, expect: { exists: newLeafId === null ? [] : [newLeafId] } });
}

type SummaryEnd = Omit<EngineEvents["branch_summary_end"], "sessionId" | "targetId">;

/** The summary of the branch left behind: the hook's, the summarizer's, or none; `aborted` when the navigation was aborted. */
async function branchSummary(
  ctx: EngineContext,
  entries: Parameters<typeof generateBranchSummary>[0],
  hookSummary: { summary: unknown; details?: unknown } | undefined,
  request: NavigateRequest,
  signal: AbortSignal,
): Promise<"aborted" | { text?: string; details?: unknown; fromExtension: boolean }> {
  if (request.summarize !== true) return { fromExtension: false };
  if (hookSummary && typeof hookSummary.summary === "string") return { text: hookSummary.summary, details: hookSummary.details, fromExtension: true };
  if (entries.length === 0) return { fromExtension: false };
  const settings = ctx.settings.get();
  const summarizer = await ctx.models.current();
  if (signal.aborted) return "aborted";
  const outcome = await generateBranchSummary(entries, {
    summarizer,
    signal,
    customInstructions: request.instructions?.trim() || undefined,
    reserveTokens: settings.branchSummary.reserveTokens,
    contextWindow: ctx.models.configured ? settings.model.contextWindow : 0,
  });
  if (outcome.aborted || signal.aborted) return "aborted";
  if (outcome.error !== undefined) throw new ModelError(outcome.error);
  const details: SummaryDetails = { readFiles: outcome.readFiles, modifiedFiles: outcome.modifiedFiles };
  if (outcome.offline) details.summarizer = "offline";
  return { text: outcome.summary, details, fromExtension: false };
}

/** navigateTree (branch-summary.md §1). A cancelled or aborted navigation changes nothing. */
export async function navigateTree(ctx: EngineContext, sessionId: string, targetId: string, request: NavigateRequest): Promise<NavigateOutcome> {
  const { store, activity } = ctx;
  const oldLeafId = store.getLeaf(sessionId);
  if (targetId === oldLeafId) return { cancelled: false, leafId: oldLeafId };
  const target = store.getEntry(sessionId, targetId);
  if (!target) throw new EntryNotFoundError(targetId);
  if (activity.branchSummaries.has(sessionId)) throw new SessionBusyError("A branch summary is already running for this session");
  // registered before the first await: an abortBranchSummary from now on reaches this navigation
  const controller = new AbortController();
  activity.branchSummaries.set(sessionId, controller);
  const signal = controller.signal;
  const summarize = request.summarize === true;
  const hookCtx = { sessionId };
  if (summarize) ctx.events.emit("branch_summary_start", { sessionId, targetId });
  const endSummary = (payload: SummaryEnd) => {
    if (summarize) ctx.events.emit("branch_summary_end", withoutUndefined({ sessionId, targetId, ...payload }));
  };
  const aborted = (): NavigateOutcome => {
    endSummary({ cancelled: true, aborted: true });
    return { cancelled: true, aborted: true, leafId: oldLeafId };
  };
  try {
    await ctx.hooksLoaded();
    if (signal.aborted) return aborted();
    // the two paths hold every entry the collection walks: no need to load the whole session
    const index = buildIndex([...store.getPath(sessionId, oldLeafId), ...store.getPath(sessionId, targetId)]);
    const { entries, commonAncestorId } = collectEntriesForBranchSummary(index, oldLeafId, targetId);
    const before = await ctx.hooks.beforeTree(
      { type: "session_before_tree", preparation: { targetId, oldLeafId, commonAncestorId, entriesToSummarize: entries, userWantsSummary: summarize }, signal },
      hookCtx,
    );
    if (before?.cancel) {
      endSummary({ cancelled: true, aborted: false });
      return { cancelled: true, leafId: oldLeafId };
    }
    if (signal.aborted) return aborted();
    const summary = await branchSummary(ctx, entries, before?.summary, request, signal);
    if (summary === "aborted" || signal.aborted) return aborted();
    let newLeafId: string | null = targetId;
    let editorText: string | undefined;
    if (target.type === "message" && target.message.role === "user") {
      newLeafId = target.parentId;
      editorText = userText(target.message.content);
    } else if (target.type === "custom_message") {
      newLeafId = target.parentId;
      editorText = userText(target.content);
    }
    let summaryEntry: BranchSummaryEntry | undefined;
    if (summary.text) {
      const body = withoutUndefined({ type: "branch_summary", fromId: newLeafId ?? "root", summary: summary.text, details: summary.details, fromExtension: summary.fromExtension });
      // refused (nothing written) when the agent moved the leaf or the target left the session meanwhile
      const expect: CommitExpectation = { leafId: oldLeafId, exists: newLeafId === null ? [] : [newLeafId] };
      summaryEntry = store.appendEntry(sessionId, body, { parentId: newLeafId, expect }) as BranchSummaryEntry;
    } else {
      moveLeaf(ctx, sessionId, oldLeafId, newLeafId);
    }
    const leafId = store.getLeaf(sessionId);
    ctx.events.emit("leaf_changed", { sessionId, leafId });
    await ctx.hooks.tree(
      withoutUndefined({ type: "session_tree" as const, newLeafId: leafId, oldLeafId, summaryEntry, fromExtension: summary.text ? summary.fromExtension : undefined }),
      hookCtx,
    );
    endSummary({ cancelled: false, aborted: false, summaryEntry });
    return withoutUndefined({ cancelled: false, editorText, summaryEntry, leafId });
  } catch (error) {
    endSummary({ cancelled: false, aborted: false, errorMessage: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    activity.branchSummaries.delete(sessionId);
  }
}
