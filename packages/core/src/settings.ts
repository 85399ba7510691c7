/**
 * Bonsai settings: the seed's compaction and branch-summary settings plus model provider settings.
 * Defaults and validation are pure; the store persists them and the engine consumes them.
 * (Implementation of validateSettingsPatch lives with the rest of core's settings logic.)
 */

export interface CompactionSettings {
  /** gates automatic compaction and pruning; manual compaction ignores it */
  enabled: boolean;
  /** tokens kept free for the reply: threshold margin and summary maxTokens (0.8R / 0.5R / min(512, 0.2R)) */
  reserveTokens: number;
  /** estimated tokens of recent history kept verbatim */
  keepRecentTokens: number;
  /** after a threshold compaction send "Continue if you have next steps." */
  autoContinue: boolean;
  /** POST {systemPrompt, prompt} -> {summary} instead of calling the model; "" = unset */
  remoteEndpoint: string;
}

export interface BranchSummarySettings {
  /** default answer of "summarize the abandoned branch?" */
  enabled: boolean;
  /** budget = contextWindow - reserveTokens */
  reserveTokens: number;
}

export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
}

export interface ModelSettings {
  /** "" = no model configured: the offline summarizer is used */
  baseUrl: string;
  /** model id sent to the endpoint */
  model: string;
  /** further model ids tried in order when the first fails (compaction candidates) */
  fallbackModels: string[];
  contextWindow: number;
  maxOutputTokens: number;
  /** name of the environment variable holding the API key (the key itself never lives in settings) */
  apiKeyEnv: string;
}

export interface BonsaiSettings {
  compaction: CompactionSettings;
  branchSummary: BranchSummarySettings;
  retry: RetrySettings;
  model: ModelSettings;
  /** folder of user hook modules ("" = <data dir>/hooks) */
  hooksDir: string;
  /** extra session folders to import and watch, besides ~/.pi/agent/sessions and ~/.omp/agent/sessions */
  sessionDirs: string[];
  /** UI theme */
  theme: "system" | "light" | "dark";
}

export const DEFAULT_SETTINGS: BonsaiSettings = {
  compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000, autoContinue: true, remoteEndpoint: "" },
  branchSummary: { enabled: false, reserveTokens: 16384 },
  retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000 },
  model: { baseUrl: "", model: "", fallbackModels: [], contextWindow: 200000, maxOutputTokens: 8192, apiKeyEnv: "OPENAI_API_KEY" },
  hooksDir: "",
  sessionDirs: [],
  theme: "system",
};
