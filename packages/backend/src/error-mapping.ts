/**
 * How a refusal reaches the page: each kind of Bonsai error (@bonsai/core's BonsaiError, thrown by
 * the engine and the store) becomes one IPC error code, its message the sentence shown. Mapped by
 * class and kind, never by the message's text.
 */
import { BonsaiError, type ErrorKind } from "@bonsai/core";
import { SettingsValidationError } from "@bonsai/engine";
import { IpcError, type IpcErrorCode } from "@bonsai/ipc";

export const IPC_CODE_OF_KIND: Readonly<Record<ErrorKind, IpcErrorCode>> = {
  not_found: "not_found",
  busy: "conflict",
  stale: "conflict",
  nothing_to_do: "conflict",
  cancelled: "aborted",
  invalid: "conflict",
  unavailable: "unavailable",
  model: "upstream",
  disk: "conflict",
  read_only: "conflict",
  refused: "conflict",
};

/** A file the request named cannot be opened (Node's error codes, not a message). */
const MISSING_FILE_CODES = new Set(["ENOENT", "EACCES", "EISDIR", "ENOTDIR", "EPERM"]);

/** The IPC error of a Bonsai error or a file that cannot be opened; undefined for anything else (an internal error). */
export function mapBackendError(err: unknown): IpcError | undefined {
  if (err instanceof SettingsValidationError) {
    return new IpcError("invalid_payload", err.message, err.errors.map((e) => ({ path: e.field ? `patch.${e.field}` : "patch", message: e.message })));
  }
  if (err instanceof BonsaiError) return new IpcError(IPC_CODE_OF_KIND[err.kind], err.message);
  if (err instanceof Error && MISSING_FILE_CODES.has(String((err as NodeJS.ErrnoException).code))) return new IpcError("not_found", err.message);
  return undefined;
}
