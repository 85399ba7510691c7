/**
 * Size limits of what Bonsai stores from a model or accepts from the page. A model that answers
 * more than this is an error with a clear message, never a huge entry in the session.
 */

/** Longest model reply Bonsai stores as a summary (compaction history or turn prefix, branch summary), in characters. */
export const MAX_SUMMARY_REPLY_CHARS = 200_000;

/** Longest short summary of a compaction (the prompt asks for two or three sentences), in characters. */
export const MAX_SHORT_SUMMARY_CHARS = 4_000;

/**
 * Longest compaction summary a client may commit (a reviewed dry run): a model reply plus Bonsai's
 * file lists, in characters.
 */
export const MAX_COMMITTED_SUMMARY_CHARS = 500_000;

/** The refusal for a summary over its limit: says how long it was and that nothing was stored. */
export function summaryTooLong(what: string, chars: number, limit: number): string {
  return `${what} is ${chars.toLocaleString("en")} characters long, more than the ${limit.toLocaleString("en")} Bonsai stores; nothing was saved`;
}
