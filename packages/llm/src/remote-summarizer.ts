/**
 * The remote summarization endpoint (`compaction.remoteEndpoint`, compaction.md §10): POST
 * `{systemPrompt, prompt}` as JSON, answer `{summary: string}`. No model, no key, no maxTokens are
 * sent. Unlike the reference, the request is cancelled by the abort signal (Bonsai deviation 8).
 */
import { readBoundedText, ResponseLimitError, SUMMARY_RESPONSE_LIMITS } from "./bounded-fetch";
import { CONNECTION_FAILURE, httpFailure, ModelCallError } from "./errors";
import { abortedResponse, type SummarizeOptions, type SummarizeResponse, type Summarizer } from "./summarizer";

export class RemoteSummarizer implements Summarizer {
  readonly kind = "remote" as const;
  readonly label: string;

  constructor(readonly url: string) {
    this.label = url;
  }

  /**
   * Throws a ModelCallError (`Remote compaction failed (<status> <statusText>)`, typed by the status
   * and retry headers, or a lost connection) or `Remote compaction response missing summary`.
   */
  async complete(systemPrompt: string, prompt: string, options: SummarizeOptions): Promise<SummarizeResponse> {
    const { signal } = options;
    if (signal?.aborted) return abortedResponse();
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ systemPrompt, prompt }),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) return abortedResponse();
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      throw new ModelCallError(`Remote compaction failed (connection error${cause})`, CONNECTION_FAILURE, { cause: error });
    }
    let text: string;
    try {
      text = await readBoundedText(response, SUMMARY_RESPONSE_LIMITS.maxBytes);
    } catch (error) {
      if (signal?.aborted) return abortedResponse();
      if (error instanceof ResponseLimitError) throw new Error(`Remote compaction failed (${error.message})`, { cause: error });
      // the connection broke while the answer was read
      throw new ModelCallError(`Remote compaction failed (${response.status} ${response.statusText})`, CONNECTION_FAILURE, { cause: error });
    }
    if (!response.ok) throw new ModelCallError(`Remote compaction failed (${response.status} ${response.statusText})`, httpFailure(response.status, response.headers));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const summary = typeof body === "object" && body !== null ? (body as { summary?: unknown }).summary : undefined;
    if (typeof summary !== "string") throw new Error("Remote compaction response missing summary");
    return { text: summary, stopReason: "stop" };
  }
}
