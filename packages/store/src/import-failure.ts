/**
 * Why an import stored nothing, as data: a host chooses what to show by its kind (and the system's
 * error code), never by reading the report's message, whose words may change and which may name
 * the file.
 */
import { BonsaiError } from "@bonsai/core";
import { isDatabaseBusy } from "./database";
import { writeFailureSentence } from "./write-failure-sentence";

export type ImportFailure =
  /** no session of a format Bonsai reads; `reason` is in the store's own words and never quotes the file */
  | { kind: "not-a-session"; reason: string }
  /** the file could not be read: the system's error code (ENOENT, EACCES, ...), null when it gave none */
  | { kind: "unreadable"; code: string | null }
  /** more text than an import can hold */
  | { kind: "too-large" }
  /** the disk refused the import's write; nothing of it was kept */
  | { kind: "disk" }
  /** another process held the store's write lock past the busy timeout; nothing of it was stored */
  | { kind: "busy" }
  /** anything else (the report's message says what) */
  | { kind: "other" };

/** The system's error code of `err` (ENOENT, EACCES, ...), or null. */
export function systemErrorCode(err: unknown): string | null {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" && /^E[A-Z]+$/u.test(code) ? code : null;
}

/** The failure an error thrown by an import stands for. */
export function importFailureOf(err: unknown): ImportFailure {
  if ((err as { code?: unknown } | null | undefined)?.code === "ERR_STRING_TOO_LONG") return { kind: "too-large" };
  if (writeFailureSentence(err) !== null || (err instanceof BonsaiError && err.kind === "disk")) return { kind: "disk" };
  if (isDatabaseBusy(err)) return { kind: "busy" };
  const code = systemErrorCode(err);
  return code !== null ? { kind: "unreadable", code } : { kind: "other" };
}
