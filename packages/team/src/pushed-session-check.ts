/**
 * What the archive checks of a pushed session before it stores anything, as the store checks a
 * file on import: the header is one line that core's session parser reads as a session header and
 * nothing else (a forged second line is refused, never kept to be served in the JSONL); the session
 * id is the one the store gives that header (its addressable id, or that id with the store's suffix
 * for a second file of one id), so a push cannot name its session with another session's id; and no
 * two entries share an id (the archive keeps one entry per id, so a duplicate is refused rather than
 * dropped and counted).
 */
import { parseSessionText } from "@bonsai/core";
import { addressableSessionId, isAddressableId } from "@bonsai/store";
import { ArchiveError } from "./errors";

/** Refuses a header that is not exactly one session header line for `sessionId`. */
export function checkPushedHeader(sessionId: string, header: string): void {
  if (!isAddressableId(sessionId)) throw new ArchiveError("bad-request", `the pushed session id ${JSON.stringify(sessionId.slice(0, 80))} is not one the store gives a session`);
  if (/[\r\n]/u.test(header)) throw new ArchiveError("bad-request", `the header of session ${sessionId} is more than one line`);
  const parsed = parseSessionText(header);
  const problem = parsed.issues[0];
  if (parsed.header === null || problem !== undefined || parsed.entries.length > 0) {
    throw new ArchiveError("bad-request", `the header of session ${sessionId} is not a session header: ${problem?.message ?? "it holds more than a header"}`);
  }
  const own = addressableSessionId(parsed.header.id);
  if (sessionId !== own && !sessionId.startsWith(`${own}-`)) {
    throw new ArchiveError("bad-request", `the header of session ${sessionId} names another session (${JSON.stringify(parsed.header.id.slice(0, 80))})`);
  }
}

/** The first entry id met twice among `ids` (in order), with both positions; null when every id is new. */
export function firstDuplicateId(ids: Iterable<string>, offset = 0): { id: string; first: number; second: number } | null {
  const seen = new Map<string, number>();
  let at = offset;
  for (const id of ids) {
    const before = seen.get(id);
    if (before !== undefined) return { id, first: before, second: at };
    seen.set(id, at++);
  }
  return null;
}

/** the one line a push with a duplicated entry id is refused with */
export function duplicateIdRefusal(sessionId: string, duplicate: { id: string; first: number; second: number }): string {
  return `session ${sessionId} has two entries with the id ${JSON.stringify(duplicate.id)} (entries ${duplicate.first + 1} and ${duplicate.second + 1}); the archive keeps one entry per id, so nothing of it was pushed`;
}
