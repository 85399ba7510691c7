/**
 * Summaries from an OpenAI-compatible chat-completions endpoint (OpenAI, llama.cpp, vLLM, Ollama,
 * LM Studio, OpenRouter, ...) through the `openai` SDK. One instance = one model; the engine tries
 * several instances in order (retry.ts). The SDK's own retries are off: Bonsai's policy decides.
 */
import OpenAI from "openai";
import { boundedFetch, SUMMARY_RESPONSE_LIMITS, type ResponseLimits } from "./bounded-fetch";
import { isAbortError, toModelCallError } from "./errors";
import { abortedResponse, joinTextBlocks, type SummarizeOptions, type SummarizeResponse, type Summarizer } from "./summarizer";

export interface OpenAiEndpoint {
  baseUrl: string;
  /** may be "" for local servers that need no key */
  apiKey: string;
  /** per-request timeout; default 10 minutes */
  timeoutMs?: number;
}

/** A client whose answers are read within `limits` (default: a summary's JSON body). */
export function createOpenAiClient(endpoint: OpenAiEndpoint, limits: ResponseLimits = SUMMARY_RESPONSE_LIMITS): OpenAI {
  return new OpenAI({
    baseURL: endpoint.baseUrl,
    // the SDK refuses an empty key; local servers ignore the header
    apiKey: endpoint.apiKey || "bonsai-no-key",
    maxRetries: 0,
    timeout: endpoint.timeoutMs ?? 600_000,
    fetch: boundedFetch(limits),
  });
}

/** Text of a chat-completion message: a string, or the text parts of a content array joined by "\n". */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text") {
      const text = (part as { text?: unknown }).text;
      if (typeof text === "string") texts.push(text);
    }
  }
  return joinTextBlocks(texts);
}

/**
 * Some servers reject parameters the OpenAI API accepts: `reasoning_effort` on models without
 * reasoning, `max_completion_tokens` on older servers. Such a 400 is answered once more without the
 * parameter (or with `max_tokens`), and the instance remembers it.
 */
function unsupportedParameter(error: unknown): "reasoning_effort" | "max_completion_tokens" | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status !== 400) return undefined;
  const text = `${error.message} ${error.param ?? ""}`;
  if (/reasoning_effort/i.test(text)) return "reasoning_effort";
  if (/max_completion_tokens/i.test(text)) return "max_completion_tokens";
  return undefined;
}

export class OpenAiSummarizer implements Summarizer {
  readonly kind = "openai" as const;
  readonly label: string;
  readonly #client: OpenAI;
  #sendReasoning = true;
  #useMaxCompletionTokens = true;

  constructor(
    readonly endpoint: OpenAiEndpoint,
    readonly model: string,
  ) {
    this.label = model;
    this.#client = createOpenAiClient(endpoint);
  }

  async complete(systemPrompt: string, prompt: string, options: SummarizeOptions): Promise<SummarizeResponse> {
    const { signal } = options;
    if (signal?.aborted) return abortedResponse();
    for (let attempt = 0; attempt < 3; attempt++) {
      const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
        model: this.model,
        messages: [
          { role: "system", content: systemPrompt },
          { role: "user", content: prompt },
        ],
      };
      if (this.#useMaxCompletionTokens) body.max_completion_tokens = options.maxTokens;
      else body.max_tokens = options.maxTokens;
      if (options.reasoning && this.#sendReasoning) body.reasoning_effort = options.reasoning;
      try {
        const response = await this.#client.chat.completions.create(body, { signal });
        const choice = Array.isArray(response?.choices) ? response.choices[0] : undefined;
        if (!choice?.message) {
          return { text: "", stopReason: "error", errorMessage: `Malformed response from ${this.model}: no choices`, model: this.model };
        }
        const text = messageText(choice.message.content);
        return { text, stopReason: choice.finish_reason === "length" ? "length" : "stop", model: this.model };
      } catch (error) {
        if (isAbortError(error, signal)) return abortedResponse();
        const unsupported = unsupportedParameter(error);
        if (unsupported === "reasoning_effort" && body.reasoning_effort !== undefined) {
          this.#sendReasoning = false;
          continue;
        }
        if (unsupported === "max_completion_tokens" && body.max_completion_tokens !== undefined) {
          this.#useMaxCompletionTokens = false;
          continue;
        }
        const failed = toModelCallError(error);
        return { text: "", stopReason: "error", errorMessage: failed.message, failure: failed.failure, model: this.model };
      }
    }
    return { text: "", stopReason: "error", errorMessage: `${this.model} rejected every parameter variant`, model: this.model };
  }
}
