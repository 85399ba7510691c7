/**
 * The one sentence a user sees for a write the disk refused (full, quota, input/output error, file
 * too large; SQLite's "database or disk is full"). No imports: the CLI's error reporter loads it at
 * start-up without the store.
 */
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
  // a WriteFailedError (write-failure.ts) already carries its sentence
  if (err instanceof Error && err.name === "WriteFailedError") return err.message;
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== "string") return null;
  // SQLite's extended codes (SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC …) share their primary's sentence
  return SENTENCES[code] ?? SENTENCES[code.replace(/^(SQLITE_[A-Z]+)_.*$/u, "$1")] ?? null;
}
