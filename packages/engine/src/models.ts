/**
 * The configured model: whether one is set, its API key (the host's provider, the environment
 * variable, none for a local server) and the summarizers built from it.
 */
import type { BonsaiSettings } from "@bonsai/core";
import { OfflineSummarizer, OpenAiSummarizer, RemoteSummarizer, type Candidate, type Summarizer } from "@bonsai/llm";
import { ModelUnavailableError } from "./errors";
import type { CreateEngineOptions } from "./types";

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]" || host === "::1";
  } catch {
    return false;
  }
}

export class Models {
  constructor(
    private readonly settings: () => BonsaiSettings,
    private readonly options: Pick<CreateEngineOptions, "offline" | "apiKeyProvider" | "env" | "summarizerFactory">,
  ) {}

  /** true when a model endpoint is configured and offline mode is off */
  get configured(): boolean {
    const m = this.settings().model;
    return !this.options.offline && m.baseUrl !== "" && m.model !== "";
  }

  /** The configured model or a ModelUnavailableError saying what to set. */
  requireConfigured(): void {
    if (!this.configured) throw new ModelUnavailableError("No model configured: set model.baseUrl and model.model in the settings (or --base-url and --model)");
  }

  async apiKey(): Promise<string | undefined> {
    const model = this.settings().model;
    if (this.options.apiKeyProvider) {
      const key = await this.options.apiKeyProvider(model);
      if (key) return key;
    }
    const env = this.options.env ?? process.env;
    const key = model.apiKeyEnv ? env[model.apiKeyEnv] : undefined;
    if (key) return key;
    // local servers (llama.cpp, Ollama, LM Studio) need no key
    return isLoopback(model.baseUrl) ? "" : undefined;
  }

  /** The key for the configured model, or `No API key for <model>`. */
  async requireApiKey(): Promise<string> {
    const key = await this.apiKey();
    const model = this.settings().model;
    if (key === undefined) throw new ModelUnavailableError(`No API key for ${model.model} (set ${model.apiKeyEnv || "an API key"})`);
    return key;
  }

  summarizer(model: string, apiKey: string): Summarizer {
    const settings = this.settings();
    if (this.options.summarizerFactory) return this.options.summarizerFactory({ model, settings, apiKey });
    return new OpenAiSummarizer({ baseUrl: settings.model.baseUrl, apiKey }, model);
  }

  /** The remote summarizer of compaction.remoteEndpoint, if one is set. */
  remote(): Summarizer | undefined {
    const url = this.settings().compaction.remoteEndpoint;
    return url ? new RemoteSummarizer(url) : undefined;
  }

  /** The current model's summarizer (manual compaction, branch summaries), or the offline one. */
  async current(): Promise<Summarizer> {
    if (!this.configured) return new OfflineSummarizer();
    const key = await this.requireApiKey();
    return this.summarizer(this.settings().model.model, key);
  }

  /** The summarizers automatic compaction tries in turn: the model, then its fallbacks (or the offline one). */
  async compactionCandidates(): Promise<Candidate<Summarizer>[]> {
    if (!this.configured) {
      const offline = new OfflineSummarizer();
      return [{ label: offline.label, available: true, run: async () => offline }];
    }
    const model = this.settings().model;
    const key = await this.apiKey();
    const ids = [...new Set([model.model, ...model.fallbackModels])];
    return ids.map((id) => ({ label: id, available: key !== undefined, run: async () => this.summarizer(id, key ?? "") }));
  }
}
