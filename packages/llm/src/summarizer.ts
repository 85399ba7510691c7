/**
 * One interface for every way Bonsai turns a prompt into a summary: an OpenAI-compatible model, the
 * remote summarization endpoint, or the offline extractive summarizer.
 *
 * The contract follows the spec's response handling (compaction.md §8.3): the text is returned with a
 * stop reason; a failed call is `stopReason: "error"` with an `errorMessage` (callers turn it into
 * `Summarization failed: ...`); a cancelled call is `stopReason: "aborted"` with whatever text arrived,
 * and the caller detects the cancellation through its own signal.
 */
import type { ModelFailure } from "./errors";

/** What a summary is for; the offline summarizer picks its layout from it, model summarizers ignore it. */
export type SummaryPurpose = "history" | "update" | "turnPrefix" | "short" | "branch";

export interface SummarizeOptions {
  maxTokens: number;
  /** `"high"` for the three compaction calls, absent for branch summaries */
  reasoning?: "high";
  signal?: AbortSignal;
  purpose?: SummaryPurpose;
}

export type SummaryStopReason = "stop" | "length" | "error" | "aborted";

export interface SummarizeResponse {
  text: string;
  stopReason: SummaryStopReason;
  errorMessage?: string;
  /** with `stopReason: "error"` from a model call: what retry and overflow recovery decide from */
  failure?: ModelFailure;
  /** the model that answered (absent for the offline summarizer and the remote endpoint) */
  model?: string;
}

export type SummarizerKind = "openai" | "remote" | "offline";

export interface Summarizer {
  readonly kind: SummarizerKind;
  /** a short human label: model id, endpoint URL or "offline" */
  readonly label: string;
  complete(systemPrompt: string, prompt: string, options: SummarizeOptions): Promise<SummarizeResponse>;
}

/** Text blocks of an answer are joined with "\n" (compaction.md §8.3). */
export function joinTextBlocks(blocks: readonly string[]): string {
  return blocks.join("\n");
}

export function abortedResponse(text = ""): SummarizeResponse {
  return { text, stopReason: "aborted" };
}
