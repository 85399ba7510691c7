import type { CompactionPreparation, CompactionPlanSettings } from "../../src/prepare-compaction";

/** The headline numbers of a compaction plan, for one-line comparisons in conformance tests. */
export function planShape<S extends CompactionPlanSettings>(prep: CompactionPreparation<S> | undefined) {
  if (!prep) return undefined;
  return {
    firstKeptEntryId: prep.firstKeptEntryId,
    isSplitTurn: prep.isSplitTurn,
    tokensBefore: prep.tokensBefore,
    keep: prep.keepRecentTokens,
    summarize: prep.messagesToSummarize.length,
    prefix: prep.turnPrefixMessages.length,
    recent: prep.recentMessages.length,
  };
}
