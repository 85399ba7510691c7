/** The store's refusals, each a BonsaiError of its kind (registered so that they cross a worker's boundary as themselves). */
import { BonsaiError, registerWireErrors, type ErrorKind } from "@bonsai/core";

export class SessionLookupError extends BonsaiError {
  constructor(
    message: string,
    readonly candidates: readonly string[] = [],
  ) {
    super("not_found", message);
    this.name = "SessionLookupError";
  }
}

/** The store refused a change (by default: it could not prove it safe); the subclasses say why. Nothing was changed. */
export class StoreError extends BonsaiError {
  constructor(message: string, kind: ErrorKind = "refused") {
    super(kind, message);
    this.name = "StoreError";
  }
}

/** The session changed since the change was planned: nothing was written. */
export class StaleCommitError extends StoreError {
  constructor(message: string) {
    super(message, "stale");
    this.name = "StaleCommitError";
  }
}

/** The session file is being written by someone else and could not be written safely: nothing was changed. */
export class SourceBusyError extends StoreError {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`the session file is being written by a running agent; try again when it is idle (${file}: ${detail})`, "busy");
    this.name = "SourceBusyError";
  }
}

/** Another Bonsai process (or another store in this one) is writing the session (source/session-lock.ts): nothing was written. */
export class SessionLockedError extends StoreError {
  constructor(readonly sessionId: string) {
    super(`another Bonsai process is writing this session; try again (session ${sessionId})`, "busy");
    this.name = "SessionLockedError";
  }
}

/** The `.bonsai-original` backup cannot be relied on: the rewrite was refused, nothing was changed. */
export class BackupRefusal extends StoreError {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefusal";
  }
}

registerWireErrors(SessionLookupError, StoreError, StaleCommitError, SourceBusyError, SessionLockedError, BackupRefusal);
