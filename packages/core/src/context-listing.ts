/**
 * How much of a long context a listing shows (a session never compacted has tens of thousands of
 * messages in its context): a context of more than CONTEXT_LIST_HEAD + CONTEXT_LIST_TAIL messages is
 * listed as its first CONTEXT_LIST_HEAD and its newest CONTEXT_LIST_TAIL, with the number between —
 * by the backend's context preview and the CLI's `context` listing alike.
 */
export const CONTEXT_LIST_HEAD = 50;
export const CONTEXT_LIST_TAIL = 450;
