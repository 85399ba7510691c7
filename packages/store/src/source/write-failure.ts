/**
 * A write the disk refused (full, quota, input/output error, file too large; SQLite's "database
 * or disk is full"): the one sentence a user sees, once Bonsai has put back what it had begun.
 */
import { registerWireErrors } from "@bonsai/core";
import { StoreError } from "../session-store";
import { writeFailureSentence } from "../write-failure-sentence";

export { writeFailureSentence };

/** The disk refused a write and Bonsai put everything back as it was: nothing was written. */
export class WriteFailedError extends StoreError {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message, "disk");
    this.name = "WriteFailedError";
  }
}
registerWireErrors(WriteFailedError);

/** `err` as a WriteFailedError when the disk raised it, else `err` unchanged (to rethrow). */
export function asWriteFailure(err: unknown): unknown {
  if (err instanceof WriteFailedError) return err;
  const sentence = writeFailureSentence(err);
  return sentence === null ? err : new WriteFailedError(sentence, String((err as { code: string }).code));
}
