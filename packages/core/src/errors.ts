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
  /** the error's own fields (a SourceBusyError's file, a WriteFailedError's code), when they are plain values */
  fields?: Record<string, WireValue>;
}

type WireValue = string | number | boolean | null | readonly (string | number | boolean | null)[];

/** The error classes that cross a thread boundary as themselves, by class name: one registry for every worker. */
const WIRE_ERRORS = new Map<string, abstract new (...args: never[]) => Error>();

/** Registers error classes (by their instances' `name`, which must equal the class name) so that fromWireError rebuilds them. */
export function registerWireErrors(...classes: (abstract new (...args: never[]) => Error)[]): void {
  for (const cls of classes) WIRE_ERRORS.set(cls.name, cls);
}

function isWireValue(v: unknown): v is WireValue {
  const plain = (x: unknown) => x === null || ["string", "number", "boolean"].includes(typeof x);
  return plain(v) || (Array.isArray(v) && v.every(plain));
}

export function toWireError(err: unknown): WireError {
  if (!(err instanceof Error)) return { name: "Error", message: String(err) };
  const sent: WireError = { name: err.name, message: err.message };
  if (err instanceof BonsaiError) sent.kind = err.kind;
  const fields = Object.entries(err).filter(([key, value]) => key !== "kind" && key !== "name" && key !== "message" && isWireValue(value));
  if (fields.length > 0) sent.fields = Object.fromEntries(fields) as Record<string, WireValue>;
  return sent;
}

/**
 * The error again on this side: an instance of the registered class of that name (its kind and
 * fields as sent), else a BonsaiError of the same kind and name, else a plain Error with the sent
 * name (and fields: a Node error's `code`).
 */
export function fromWireError(sent: WireError): Error {
  const cls = WIRE_ERRORS.get(sent.name);
  let err: Error;
  if (cls) {
    err = Object.create(cls.prototype) as Error;
    Object.defineProperty(err, "message", { value: sent.message, writable: true, configurable: true });
    Object.defineProperty(err, "stack", { value: `${sent.name}: ${sent.message}`, writable: true, configurable: true });
    if (sent.kind !== undefined) (err as { kind?: ErrorKind }).kind = sent.kind;
  } else err = isErrorKind(sent.kind) ? new BonsaiError(sent.kind, sent.message) : new Error(sent.message);
  err.name = sent.name;
  Object.assign(err, sent.fields);
  return err;
}
