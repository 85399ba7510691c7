/**
 * Defaults of the settings and the plans, in a module without code of its own to import: the
 * command line shows them in its help and loads this alone ("@bonsai/core/defaults"), not core.
 */
import type { PruneConfig } from "./prune";
import type { BonsaiSettings } from "./settings";

export { CURRENT_SESSION_VERSION } from "./entries";

export const DEFAULT_SETTINGS: BonsaiSettings = {
  compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000, autoContinue: true, remoteEndpoint: "", thresholdTokens: 0, thresholdPercent: 0 },
  pruning: { enabled: true, protectTokens: 40_000, minimumSavings: 20_000 },
  branchSummary: { enabled: false, reserveTokens: 16384 },
  retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000 },
  model: { baseUrl: "", model: "", fallbackModels: [], contextWindow: 200000, contextWindowOverrides: [], maxOutputTokens: 8192, apiKeyEnv: "OPENAI_API_KEY" },
  hooksDir: "",
  sessionDirs: [],
  theme: "system",
  team: { redactPatterns: [] },
};

/** Normative protected tools (design document, upstream oh-my-pi; decision D3). */
export const NORMATIVE_PROTECTED_TOOLS: readonly string[] = ["skill", "read"];

export const DEFAULT_PRUNE_CONFIG: PruneConfig = {
  protectTokens: 40_000,
  minimumSavings: 20_000,
  protectedTools: NORMATIVE_PROTECTED_TOOLS,
};

/** The token budget of a branch summary plan when none is given (`bonsai branch`; 0 means unlimited). */
export const DEFAULT_BRANCH_BUDGET = 100_000;
