/**
 * How much of a long context a listing shows (a session never compacted has tens of thousands of
 * messages in its context): a context of more than CONTEXT_LIST_HEAD + CONTEXT_LIST_TAIL messages is
 * listed as its first CONTEXT_LIST_HEAD and its newest CONTEXT_LIST_TAIL, with the number between —
 * by the backend's context preview and the CLI's `context` listing alike.
 */
export const CONTEXT_LIST_HEAD = 50;
export const CONTEXT_LIST_TAIL = 450;

/** what a listing shows of `items`: all of them, or a list longer than head + tail as its first `head` and newest `tail` */
export function listedOf<T>(items: readonly T[], head = CONTEXT_LIST_HEAD, tail = CONTEXT_LIST_TAIL): T[] {
  return items.length <= head + tail ? [...items] : [...items.slice(0, head), ...items.slice(items.length - tail)];
}
