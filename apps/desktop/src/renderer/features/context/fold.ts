/**
 * Long message lists (a session never compacted has tens of thousands of messages in its context):
 * the backend lists a long context's first and newest messages and says what it left out between
 * them (ContextPreview.unlisted); the page draws the listed ones in their places, one row for the
 * rest, and asks for them all only when the user does.
 */
import type { ContextPreview } from "@bonsai/ipc";

export interface ListedMessages<T> {
  /** the listed messages, each with its index in the whole context */
  listed: { item: T; index: number }[];
  /** how many messages are not listed (0: all are) */
  hidden: number;
  /** the index in the whole context of the first message listed after the hidden ones */
  resumesAt: number;
  /** every message of the context, listed or not */
  total: number;
}

/** the messages of `messages` (listed with `unlisted` left out at unlisted.at) in their places in the whole context */
export function placeListed<T>(messages: readonly T[], unlisted: ContextPreview["unlisted"]): ListedMessages<T> {
  const hidden = unlisted?.count ?? 0;
  const at = unlisted?.at ?? messages.length;
  return {
    listed: messages.map((item, i) => ({ item, index: i < at ? i : i + hidden })),
    hidden,
    resumesAt: at + hidden,
    total: messages.length + hidden,
  };
}

/** the largest value, at least 1 (no spread: a list may hold more items than a call takes arguments) */
export function largest(values: Iterable<number>): number {
  let max = 1;
  for (const v of values) if (v > max) max = v;
  return max;
}
