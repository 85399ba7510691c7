/**
 * The store's id for a session read from a file. It is the id in the file's header when that id can
 * be typed as a command's SESSION argument and carried in an address; a header id that cannot
 * (`../../../etc`, one with `/`, `\`, NUL or another control character, one that starts like an
 * option or a hidden path, ends in `.jsonl`, or is very long) gets a store id made from its
 * readable part and a hash of it, so every such session is imported and addressable. The file and
 * its header are never changed: the header id stays the session's `headerId`.
 */
import { createHash } from "node:crypto";

/** longest header id kept as the store id */
export const MAX_SESSION_ID_LENGTH = 128;

// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const UNTYPEABLE = /[\u0000-\u001f\u007f-\u009f/\\]/u;

/** whether `id` can be a command's SESSION argument as it is */
export function isAddressableId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_SESSION_ID_LENGTH && !UNTYPEABLE.test(id) && !/^[-.\s]|\s$/u.test(id) && !id.endsWith(".jsonl");
}

/** The header id when it is addressable, else its readable part (at most 64 characters) and 12 hex digits of its hash. */
export function addressableSessionId(headerId: string): string {
  if (isAddressableId(headerId)) return headerId;
  const readable = headerId
    // eslint-disable-next-line no-control-regex -- control characters are what this replaces
    .replace(/[\u0000-\u001f\u007f-\u009f/\\\s]+/gu, "_")
    .replace(/\.jsonl$/u, "")
    .replace(/^[-._]+|_+$/gu, "")
    .slice(0, 64);
  const hash = createHash("sha256").update(headerId).digest("hex").slice(0, 12);
  return readable === "" ? `session-${hash}` : `${readable}-${hash}`;
}
