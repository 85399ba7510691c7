/**
 * Typed errors that cross the boundary. A handler throws IpcError (or anything else, which becomes
 * "internal"); the transport carries IpcErrorData; the client throws an IpcError again.
 */

export const IPC_ERROR_CODES = [
  /** the payload did not match the contract (issues says where) */
  "invalid_payload",
  /** no such method in the contract */
  "unknown_method",
  /** a transport frame that is not a call (WebSocket only) */
  "bad_frame",
  /** the session, entry or file does not exist */
  "not_found",
  /** the operation cannot run now (e.g. a compaction is already running, nothing to compact) */
  "conflict",
  /**
   * the window may not do this: a capability of the host (run code, read or write a file outside the
   * allowed folders, name an environment variable, change a host folder). The message says how to do
   * it on the host (the `bonsai` command, or the desktop app's own dialogs).
   */
  "forbidden",
  /** the user or a hook aborted it */
  "aborted",
  /** the backend cannot do it here (e.g. no model configured, connection lost) */
  "unavailable",
  /** the model endpoint or another outside service failed */
  "upstream",
  /** a bug: the message says what broke; the backend keeps serving */
  "internal",
] as const;

export type IpcErrorCode = (typeof IPC_ERROR_CODES)[number];

export interface IpcIssue {
  /** dotted path into the payload ("patch.compaction.reserveTokens"), "" for the payload itself */
  path: string;
  message: string;
}

export interface IpcErrorData {
  code: IpcErrorCode;
  message: string;
  issues?: IpcIssue[];
}

export class IpcError extends Error {
  override readonly name = "IpcError";
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    readonly issues?: IpcIssue[],
  ) {
    super(message);
  }

  toData(): IpcErrorData {
    return this.issues ? { code: this.code, message: this.message, issues: this.issues } : { code: this.code, message: this.message };
  }

  static fromData(data: IpcErrorData): IpcError {
    return new IpcError(data.code, data.message, data.issues);
  }
}

export function isIpcErrorCode(v: unknown): v is IpcErrorCode {
  return typeof v === "string" && (IPC_ERROR_CODES as readonly string[]).includes(v);
}

/** The envelope every call returns over both transports (errors never travel as thrown exceptions). */
export type CallResult<T = unknown> = { ok: true; value: T } | { ok: false; error: IpcErrorData };
