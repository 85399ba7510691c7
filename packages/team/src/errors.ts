/**
 * What the archive refuses, as classes the server and the CLI map to one-line sentences by their
 * `code`, never by their message text.
 */
export type ArchiveErrorCode =
  | "schema-too-new"
  | "unreachable"
  | "bad-name"
  | "bad-request"
  | "exists"
  | "not-found"
  | "unauthorized"
  | "forbidden"
  | "too-large"
  | "rate-limited";

export class ArchiveError extends Error {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ArchiveError";
  }
}
