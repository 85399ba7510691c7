/** The settings, runs and reports of the what-if replay (whatif.ts). */
import { DEFAULT_PRUNE_CONFIG } from "./prune";
import type { SessionEntry } from "./entries";
import type { BonsaiSettings } from "./settings";
import { compactionThreshold } from "./tokens";

/** Every value a replay runs with. */
export interface WhatIfSettings {
  compactionEnabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
  /** absolute threshold; 0 = contextWindow - reserveTokens */
  thresholdTokens: number;
  /** threshold in percent of the window; 0 = unset */
  thresholdPercent: number;
  pruningEnabled: boolean;
  protectTokens: number;
  minimumSavings: number;
  contextWindow: number;
}

/** The replay settings of Bonsai's settings (the engine runs with these). */
export function whatIfSettingsOf(settings: BonsaiSettings): WhatIfSettings {
  return {
    compactionEnabled: settings.compaction.enabled,
    reserveTokens: settings.compaction.reserveTokens,
    keepRecentTokens: settings.compaction.keepRecentTokens,
    thresholdTokens: settings.compaction.thresholdTokens,
    thresholdPercent: settings.compaction.thresholdPercent,
    pruningEnabled: settings.pruning.enabled,
    protectTokens: settings.pruning.protectTokens,
    minimumSavings: settings.pruning.minimumSavings,
    contextWindow: settings.model.contextWindow,
  };
}

/** Share of the summarized tokens a summary is estimated at when the session has no summary of its own. */
export const SUMMARY_RATIO = 0.03;

/** How summary sizes were estimated. */
export type SummaryEstimate =
  | { source: "session"; summaries: number; meanTokens: number }
  | { source: "ratio"; ratio: number };

export interface WhatIfCompaction {
  /** the entry the compaction follows on the path (the leaf when it ran) */
  atEntryId: string;
  tokensBefore: number;
  firstKeptEntryId: string;
  /** estimate (chars/4) of the history and turn-prefix messages it summarized */
  summarizedTokens: number;
  isSplitTurn: boolean;
}

export interface WhatIfRun {
  compactions: WhatIfCompaction[];
  peakContextTokens: number;
  summarizedTokens: number;
  /** estimated tokens removed by pruning (the rule's tokensSaved, summed) */
  prunedTokens: number;
  /** context size (tokens) with each path entry as the leaf, root -> leaf */
  series: [string, number][];
}

/** The settings of a replay with what follows from them. */
export interface WhatIfSettingsUsed extends WhatIfSettings {
  /** the threshold the trigger compares with */
  threshold: number;
  protectedTools: string[];
}

export function whatIfSettingsUsed(settings: WhatIfSettings): WhatIfSettingsUsed {
  return { ...settings, threshold: compactionThreshold(settings.contextWindow, thresholdSettingsOf(settings)), protectedTools: [...DEFAULT_PRUNE_CONFIG.protectedTools] };
}

export function thresholdSettingsOf(s: WhatIfSettings) {
  return { enabled: s.compactionEnabled, reserveTokens: s.reserveTokens, thresholdTokens: s.thresholdTokens, thresholdPercent: s.thresholdPercent };
}

export interface WhatIfReport {
  settings: WhatIfSettingsUsed & {
    summaryEstimate: SummaryEstimate;
    /** r: real tokens per estimated token, from the session's usages */
    tokensPerEstimatedToken: number;
  };
  /** what the file records */
  actual: WhatIfRun;
  /** the replay under the settings */
  candidate: WhatIfRun;
}

/** A session's path prepared once; runWhatIf replays it under any settings. */
export interface PreparedWhatIf {
  readonly path: readonly SessionEntry[];
  /** path entries as the candidate starts from: compactions null, pruned tool results unpruned */
  readonly clean: readonly (SessionEntry | null)[];
  /** estimate of each entry's context message when appended (pruned results: their original size) */
  readonly est: Float64Array;
  /** the file's live-context estimate after each entry */
  readonly liveActual: Float64Array;
  /** the file's context size (tokens) after each entry */
  readonly actualSeries: Float64Array;
  readonly actual: WhatIfRun;
  readonly tokensPerEstimatedToken: number;
  readonly ownSummaries: readonly number[];
  readonly entryTimes: Float64Array;
}

