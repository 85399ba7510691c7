/**
 * What the archive refuses, as classes the server and the CLI map to one-line sentences by their
 * `code`, never by their message text. An ArchiveError is a BonsaiError, so the CLI reports it as
 * every refusal: its one sentence, exit status 1.
 */
import { BonsaiError, type ErrorKind } from "@bonsai/core/errors";

/** every code an archive answers with (the client keeps only these) */
export const ARCHIVE_ERROR_CODES = [
  "schema-too-new",
  "unreachable",
  "bad-name",
  "bad-request",
  "exists",
  "not-found",
  "unauthorized",
  "forbidden",
  "too-large",
  "rate-limited",
  "read-only",
] as const;

export type ArchiveErrorCode = (typeof ARCHIVE_ERROR_CODES)[number];

const KIND: Record<ArchiveErrorCode, ErrorKind> = {
  "schema-too-new": "refused",
  unreachable: "unavailable",
  "bad-name": "invalid",
  "bad-request": "invalid",
  exists: "invalid",
  "not-found": "not_found",
  unauthorized: "refused",
  forbidden: "not_found",
  "too-large": "invalid",
  "rate-limited": "busy",
  "read-only": "read_only",
};

export class ArchiveError extends BonsaiError {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(KIND[code], message);
    this.name = "ArchiveError";
  }
}
