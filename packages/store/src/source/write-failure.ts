/**
 * A write the disk refused (full, quota, input/output error, file too large; SQLite's "database
 * or disk is full"): the one sentence a user sees, once Bonsai has put back what it had begun.
 */
import { StoreError } from "../session-store";

const SENTENCES: Readonly<Record<string, string>> = {
  ENOSPC: "the disk is full; nothing was written",
  EDQUOT: "the disk is full (your quota is used up); nothing was written",
  SQLITE_FULL: "the disk is full; nothing was written",
  EIO: "the disk reported an input/output error; nothing was written",
  SQLITE_IOERR: "the disk reported an input/output error; nothing was written",
  EFBIG: "the file would grow past the largest size the file system allows; nothing was written",
};

/** The sentence for an error the disk raised on a write, or null when `err` is something else. */
export function writeFailureSentence(err: unknown): string | null {
  if (err instanceof WriteFailedError) return err.message;
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== "string") return null;
  // SQLite's extended codes (SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC …) share their primary's sentence
  return SENTENCES[code] ?? SENTENCES[code.replace(/^(SQLITE_[A-Z]+)_.*$/u, "$1")] ?? null;
}

/** The disk refused a write and Bonsai put everything back as it was: nothing was written. */
export class WriteFailedError extends StoreError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "WriteFailedError";
  }
}

/** `err` as a WriteFailedError when the disk raised it, else `err` unchanged (to rethrow). */
export function asWriteFailure(err: unknown): unknown {
  if (err instanceof WriteFailedError) return err;
  const sentence = writeFailureSentence(err);
  return sentence === null ? err : new WriteFailedError(sentence, String((err as { code: string }).code));
}
