/** Errors the engine reports to its hosts (CLI: one line on stderr; backend: a typed IPC error). */

/** The request cannot be done (nothing to compact, a turn is running, an unknown entry, ...). */
export class EngineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EngineError";
  }
}

/** The model (or the remote summarizer) failed or answered something Bonsai will not store. */
export class ModelError extends EngineError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelError";
  }
}
