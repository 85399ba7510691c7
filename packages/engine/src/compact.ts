/**
 * The summarization step of a compaction (compaction.md §9) and of a branch summary
 * (branch-summary.md §5): pure orchestration of summarizer calls over a prepared plan.
 *
 * Bonsai deviations (spec README): a split turn with nothing new keeps the previous summary as its
 * history part (4); a re-used previous summary does not get its file tags appended twice (5).
 */
import {
  branchSummaryTokenBudget,
  computeFileLists,
  convertToLlm,
  formatFileOperations,
  MAX_SHORT_SUMMARY_CHARS,
  MAX_SUMMARY_REPLY_CHARS,
  prepareBranchEntries,
  summaryTooLong,
  serializeConversation,
  type CompactionPreparation,
  type CompactionSettings,
  type FileListDetails,
  type SessionEntry,
} from "@bonsai/core";
import { ModelCallError, prompt, type SummarizeOptions, type SummarizeResponse, type Summarizer, type SummaryPurpose } from "@bonsai/llm";
import { InvalidRequestError, ModelError } from "./errors";
import {
  BRANCH_SUMMARY_MAX_TOKENS,
  branchSummaryPrompt,
  compactionMaxTokens,
  historyPrompt,
  shortSummaryPrompt,
  turnPrefixPrompt,
} from "./prompt-assembly";

export const NO_PRIOR_HISTORY = "No prior history.";
export const SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n";

export interface CompactionResult {
  summary: string;
  shortSummary?: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  preserveData?: Record<string, unknown>;
}

/** Details Bonsai writes on its own compactions and branch summaries. */
export interface SummaryDetails extends FileListDetails {
  /** present when the offline summarizer wrote (part of) the summary */
  summarizer?: "offline";
}

/** The conversation texts of a plan, serialized once (in the worker when one is used). */
export interface SerializedPreparation {
  history: string;
  turnPrefix: string;
  recent: string;
  /** message counts of the plan (so the message arrays need not cross a thread boundary) */
  counts: { history: number; turnPrefix: number; recent: number };
}

export function serializePreparation(preparation: Pick<CompactionPreparation, "messagesToSummarize" | "turnPrefixMessages" | "recentMessages">): SerializedPreparation {
  return {
    history: serializeConversation(convertToLlm(preparation.messagesToSummarize)),
    turnPrefix: serializeConversation(convertToLlm(preparation.turnPrefixMessages)),
    recent: serializeConversation(convertToLlm(preparation.recentMessages)),
    counts: { history: preparation.messagesToSummarize.length, turnPrefix: preparation.turnPrefixMessages.length, recent: preparation.recentMessages.length },
  };
}

export interface CompactionSummarizers {
  /** the model (or offline) summarizer: turn prefix always, history and short when no remote */
  model: Summarizer;
  /** the remote endpoint, when compaction.remoteEndpoint is set: history and short summary */
  remote?: Summarizer;
}

export interface CompactOptions {
  customInstructions?: string;
  signal?: AbortSignal;
  /** `session.compacting` prompt: replaces the history base prompt */
  promptOverride?: string;
  /** `session.compacting` context lines: the <additional-context> block */
  extraContext?: string[];
  /** the plan serialized in advance; computed here when absent */
  serialized?: SerializedPreparation;
  /** reports each summarizer call as it starts */
  onStage?: (stage: "history" | "turnPrefix" | "short") => void;
}

const TAG_BLOCK = /<(read-files|modified-files)>[\s\S]*?<\/\1>/g;

/** A summary without its file tags (either layout), trailing whitespace removed. */
export function stripFileTags(summary: string): string {
  return summary.replace(TAG_BLOCK, "").trimEnd();
}

/**
 * One summarizer call. A summarizer that throws (the remote endpoint) becomes a ModelError with its
 * message; a reply longer than `maxChars` is refused (a runaway reply is never stored).
 */
async function complete(summarizer: Summarizer, system: string, text: string, options: SummarizeOptions, maxChars: number): Promise<SummarizeResponse> {
  let response: SummarizeResponse;
  try {
    response = await summarizer.complete(system, text, options);
  } catch (error) {
    if (options.signal?.aborted) return { text: "", stopReason: "aborted" };
    throw new ModelError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (response.stopReason !== "error" && response.text.length > maxChars) {
    return { ...response, stopReason: "error", errorMessage: summaryTooLong("the model's reply", response.text.length, maxChars) };
  }
  return response;
}

/** The reply's text; a failed reply throws a ModelError that carries the model call's typed failure (for the retry policy). */
function responseText(response: SummarizeResponse, failure: string): string {
  if (response.stopReason === "error") {
    const detail = response.errorMessage || "Unknown error";
    throw new ModelError(`${failure}: ${detail}`, response.failure ? { cause: new ModelCallError(detail, response.failure) } : undefined);
  }
  return response.text;
}

type PrepForCompact = Pick<
  CompactionPreparation<Pick<CompactionSettings, "reserveTokens" | "keepRecentTokens">>,
  "firstKeptEntryId" | "messagesToSummarize" | "turnPrefixMessages" | "recentMessages" | "isSplitTurn" | "tokensBefore" | "previousSummary" | "fileOps" | "settings"
>;

/** Summarizes a prepared compaction; any thrown error aborts the whole compaction (nothing persisted). */
export async function compact(preparation: PrepForCompact, summarizers: CompactionSummarizers, options: CompactOptions = {}): Promise<CompactionResult> {
  if (!preparation.firstKeptEntryId) throw new InvalidRequestError("First kept entry has no ID - session may need migration");
  const { signal, customInstructions, promptOverride, extraContext } = options;
  const serialized = options.serialized ?? serializePreparation(preparation);
  const maxTokens = compactionMaxTokens(preparation.settings.reserveTokens);
  const historySummarizer = summarizers.remote ?? summarizers.model;
  const system = prompt("system");
  let offline = false;
  const call = async (summarizer: Summarizer, text: string, tokens: number, purpose: SummaryPurpose, failure: string) => {
    if (summarizer.kind === "offline") offline = true;
    const maxChars = purpose === "short" ? MAX_SHORT_SUMMARY_CHARS : MAX_SUMMARY_REPLY_CHARS;
    return responseText(await complete(summarizer, system, text, { maxTokens: tokens, reasoning: "high", signal, purpose }, maxChars), failure);
  };

  const generateHistory = () => {
    options.onStage?.("history");
    const input = { conversation: serialized.history, customInstructions, promptOverride, extraContext, previousSummary: preparation.previousSummary };
    return call(historySummarizer, historyPrompt(input), maxTokens.history, preparation.previousSummary ? "update" : "history", "Summarization failed");
  };
  const generateTurnPrefix = () => {
    options.onStage?.("turnPrefix");
    return call(summarizers.model, turnPrefixPrompt(serialized.turnPrefix), maxTokens.turnPrefix, "turnPrefix", "Turn prefix summarization failed");
  };

  let summary: string;
  const previousWithoutTags = preparation.previousSummary !== undefined ? stripFileTags(preparation.previousSummary) : undefined;
  const { counts } = serialized;
  if (preparation.isSplitTurn && counts.turnPrefix > 0) {
    const history =
      counts.history > 0 ? generateHistory() : Promise.resolve(previousWithoutTags || NO_PRIOR_HISTORY); // deviation 4
    const [historyText, prefixText] = await Promise.all([history, generateTurnPrefix()]);
    summary = `${historyText}${SPLIT_TURN_SEPARATOR}${prefixText}`;
  } else if (counts.history > 0) {
    summary = await generateHistory();
  } else if (previousWithoutTags !== undefined) {
    summary = previousWithoutTags; // deviation 5: its tags come back once, below
  } else {
    summary = NO_PRIOR_HISTORY;
  }

  options.onStage?.("short");
  const shortSummary = await call(historySummarizer, shortSummaryPrompt(serialized.recent, summary, extraContext), maxTokens.short, "short", "Short summary failed");

  const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
  summary += formatFileOperations(readFiles, modifiedFiles);
  const details: SummaryDetails = { readFiles, modifiedFiles };
  if (offline) details.summarizer = "offline";
  return { summary, shortSummary, firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore, details };
}

export type BranchSummaryOutcome =
  | { summary: string; readFiles: string[]; modifiedFiles: string[]; offline: boolean; aborted?: undefined; error?: undefined }
  | { aborted: true; error?: undefined; summary?: undefined }
  | { error: string; aborted?: undefined; summary?: undefined };

export interface BranchSummaryOptions {
  summarizer: Summarizer;
  signal?: AbortSignal;
  customInstructions?: string;
  reserveTokens: number;
  /** model context window; 0 = unknown (the reference's 128000 default applies) */
  contextWindow: number;
}

export const NO_CONTENT_TO_SUMMARIZE = "No content to summarize";

/** generateBranchSummary (branch-summary.md §5) with the normative D1/D2 layout. */
export async function generateBranchSummary(entries: readonly SessionEntry[], options: BranchSummaryOptions): Promise<BranchSummaryOutcome> {
  const budget = branchSummaryTokenBudget(options.contextWindow, options.reserveTokens);
  const { messages, fileOps } = prepareBranchEntries(entries, budget);
  if (messages.length === 0) return { summary: NO_CONTENT_TO_SUMMARIZE, readFiles: [], modifiedFiles: [], offline: false };
  const text = branchSummaryPrompt(serializeConversation(convertToLlm(messages)), options.customInstructions);
  let response: SummarizeResponse;
  try {
    response = await complete(options.summarizer, prompt("system"), text, { maxTokens: BRANCH_SUMMARY_MAX_TOKENS, signal: options.signal, purpose: "branch" }, MAX_SUMMARY_REPLY_CHARS);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (response.stopReason === "aborted") return { aborted: true };
  if (response.stopReason === "error") return { error: response.errorMessage || "Summarization failed" };
  const { readFiles, modifiedFiles } = computeFileLists(fileOps);
  const summary = `${prompt("branchPreamble")}\n\n${response.text}${formatFileOperations(readFiles, modifiedFiles)}`;
  return { summary: summary || "No summary generated", readFiles, modifiedFiles, offline: options.summarizer.kind === "offline" };
}
