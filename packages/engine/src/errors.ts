/**
 * Errors the engine reports to its hosts (CLI: one line on stderr; backend: a typed IPC error),
 * one class per kind of refusal (@bonsai/core's BonsaiError: hosts map the kind, never the text).
 */
import { BonsaiError, type ErrorKind } from "@bonsai/core";

/** The request cannot be done; the subclasses say why. */
export class EngineError extends BonsaiError {
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(kind, message, options);
    this.name = "EngineError";
  }
}

/** The model (or the remote summarizer) failed or answered something Bonsai will not store. */
export class ModelError extends EngineError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("model", message, options);
    this.name = "ModelError";
  }
}

/** No model is configured, or no API key for it. */
export class ModelUnavailableError extends EngineError {
  constructor(message: string) {
    super("unavailable", message);
    this.name = "ModelUnavailableError";
  }
}

/** A compaction, a turn or a branch summary already runs on the session. */
export class SessionBusyError extends EngineError {
  constructor(message: string) {
    super("busy", message);
    this.name = "SessionBusyError";
  }
}

/** `Already compacted` or `Nothing to compact (session too small)`. */
export class NothingToCompactError extends EngineError {
  constructor(readonly alreadyCompacted: boolean) {
    super("nothing_to_do", alreadyCompacted ? "Already compacted" : "Nothing to compact (session too small)");
    this.name = "NothingToCompactError";
  }
}

/** A previewed compaction whose session changed since the preview. */
export class StaleCompactionError extends EngineError {
  constructor() {
    super("stale", "The session changed since the preview: run the compaction again");
    this.name = "StaleCompactionError";
  }
}

/** The user (or closing the engine) aborted a compaction or a prompt. */
export class CancelledError extends EngineError {
  constructor(message: string) {
    super("cancelled", message);
    this.name = "CancelledError";
  }
}

/** A `session_before_compact` hook returned `cancel: true`. */
export class RefusedByHookError extends CancelledError {
  constructor(message: string) {
    super(message);
    this.name = "RefusedByHookError";
  }
}

/** The entry named is not in the session. */
export class EntryNotFoundError extends EngineError {
  constructor(readonly entryId: string) {
    super("not_found", `Entry ${entryId} not found`);
    this.name = "EntryNotFoundError";
  }
}

/** The request does not fit the session (an empty prompt or summary, an entry off the branch). */
export class InvalidRequestError extends EngineError {
  constructor(message: string) {
    super("invalid", message);
    this.name = "InvalidRequestError";
  }
}
