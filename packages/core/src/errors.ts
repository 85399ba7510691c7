/**
 * The errors Bonsai reports to a user: each class says what kind of refusal it is, and the hosts
 * turn the kind into their own answer (the backend: an IPC error code; the CLI: one line on stderr
 * and exit status 1), never by reading the message. Across a thread boundary an error travels as
 * `WireError` (its class name, kind and message) and is rebuilt on the other side.
 *
 * No imports: the CLI's error reporter loads this at start-up (`@bonsai/core/errors`).
 */

export const ERROR_KINDS = [
  /** the session, entry or file does not exist */
  "not_found",
  /** another operation runs on the session (a compaction, a turn, a branch summary, another Bonsai process, a live agent) */
  "busy",
  /** the session changed since the change was planned or previewed */
  "stale",
  /** there is nothing to do (nothing to compact, already compacted) */
  "nothing_to_do",
  /** the user aborted it, or a hook cancelled it */
  "cancelled",
  /** the request does not fit the session (an empty prompt, an entry off the branch, a bad setting) */
  "invalid",
  /** nothing can run it here: no model configured, no API key */
  "unavailable",
  /** the model endpoint (or the remote summarizer) failed */
  "model",
  /** the disk refused a write; what had begun was put back */
  "disk",
  /** Bonsai never writes this session (another agent's) */
  "read_only",
  /** the store refused a change it could not prove safe; nothing was changed */
  "refused",
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export function isErrorKind(v: unknown): v is ErrorKind {
  return typeof v === "string" && (ERROR_KINDS as readonly string[]).includes(v);
}

/** A refusal a user can read: its message is the sentence shown, its kind what a host makes of it. */
export class BonsaiError extends Error {
  readonly kind: ErrorKind;

  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = "BonsaiError";
  }
}

/** An error as it crosses a thread boundary (a worker's answer). */
export interface WireError {
  name: string;
  message: string;
  /** set for a BonsaiError */
  kind?: ErrorKind;
}

export function toWireError(err: unknown): WireError {
  if (err instanceof BonsaiError) return { name: err.name, message: err.message, kind: err.kind };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: "Error", message: String(err) };
}

/**
 * The error again on this side: a BonsaiError of the same kind and name (a caller that knows the
 * class by name may rebuild it first), else a plain Error with the sent name.
 */
export function fromWireError(sent: WireError): Error {
  const err = isErrorKind(sent.kind) ? new BonsaiError(sent.kind, sent.message) : new Error(sent.message);
  err.name = sent.name;
  return err;
}
