/**
 * Errors the CLI reports as one line on stderr, without a stack trace: user mistakes (missing file,
 * not a session, unknown entry id, bad option). Anything else is an internal error.
 */
import { BonsaiError } from "@bonsai/core/errors";
import { writeFailureSentence } from "@bonsai/store/write-failure";
import type { Io } from "./output";

export class UserError extends Error {
  /** process exit status (1 = the request cannot be done, 2 = the command line is wrong) */
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "UserError";
    this.exitCode = exitCode;
  }
}

/** A wrong command line (unknown option, missing argument): exit status 2. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 2);
    this.name = "UsageError";
  }
}

/** Exit status for an unexpected internal failure (EX_SOFTWARE). */
export const INTERNAL_ERROR_EXIT = 70;

/**
 * The error policy of a command run: a user mistake is one line on stderr and its exit status;
 * a refusal of the engine or the store (a BonsaiError) and a write the disk refused are their one
 * sentence with exit status 1; anything else is reported as a bug (its stack with BONSAI_DEBUG) with INTERNAL_ERROR_EXIT.
 */
export function reportError(err: unknown, io: Pick<Io, "stderr">): number {
  if (err instanceof UserError) {
    io.stderr(`bonsai: ${err.message}\n`);
    return err.exitCode;
  }
  // a refusal of the engine or the store (any kind: busy, stale, nothing to do, the disk full …) says why in its message
  if (err instanceof BonsaiError) {
    io.stderr(`bonsai: ${err.message}\n`);
    return 1;
  }
  // a disk that refused a write (full, input/output error; SQLite's "database or disk is full"):
  // the store took back what it had begun (a transaction rolls back, a cut append is cut back)
  const diskSentence = writeFailureSentence(err);
  if (diskSentence !== null) {
    io.stderr(`bonsai: ${diskSentence}\n`);
    return 1;
  }
  const message = err instanceof Error ? err.message : String(err);
  io.stderr(`bonsai: unexpected error: ${message}\n`);
  if (process.env.BONSAI_DEBUG && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
  else io.stderr("bonsai: (this is a bug; set BONSAI_DEBUG=1 to see where it happened)\n");
  return INTERNAL_ERROR_EXIT;
}

interface NodeError {
  code?: string;
}

/** A readable reason for a file-system error ("no such file", "permission denied", …). */
export function describeFsError(err: unknown): string {
  switch ((err as NodeError | undefined)?.code) {
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory";
    case "ENOTDIR":
      return "a parent of the path is not a directory";
    case "ENOSPC":
      return "no space left on the device";
    case "EROFS":
      return "read-only file system";
    case "ERR_STRING_TOO_LONG":
      return "too large to load (more than about 512 MB of text)";
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
