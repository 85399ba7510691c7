/**
 * A push from a person's machine: for each session, ask the archive what it holds, redact what it
 * lacks, and send it in batches. The archive stores each batch in one transaction and moves its
 * count with it, so a push stopped anywhere and run again sends the rest, never an entry twice.
 * Nothing on the machine is changed: the source is only read.
 */
import type { ArchiveClient } from "./client";
import { findingsOf, makeRedactor, type RedactionFinding, type Redactor } from "./redact";
import { ArchiveError } from "./errors";
import { duplicateIdRefusal, firstDuplicateId } from "./pushed-session-check";
import type { PushedSession } from "./receive";

/** What a push reads from the local store (a narrow slice of it). */
export interface PushSource {
  session(sessionId: string): PushedSession;
  /** the session's entries in order, as stored */
  entries(sessionId: string): readonly unknown[];
}

export interface PushProgress {
  sessionId: string;
  sent: number;
  total: number;
}

export interface PushOptions {
  client: ArchiveClient;
  project: string;
  dryRun?: boolean;
  redactor?: Redactor;
  /** a batch is closed once its entries reach this many bytes (default 1 MiB) */
  batchBytes?: number;
  onProgress?: (progress: PushProgress) => void;
}

export interface SessionPushReport {
  sessionId: string;
  /** entries the archive held before this push */
  had: number;
  /** entries sent (or, in a dry run, that would be sent) */
  sent: number;
  /** entries the archive stored (0 in a dry run) */
  added: number;
  redacted: RedactionFinding[];
}

/** entries redacted in one pass (one secretlint run over all their strings) */
const REDACT_AT_ONCE = 64;

export async function pushSession(source: PushSource, sessionId: string, options: PushOptions): Promise<SessionPushReport> {
  const redactor = options.redactor ?? makeRedactor();
  const found = new Map<string, number>();
  // every field of the session and of each entry passes the redactor, whatever it is named
  const sessionFound = new Map<string, number>();
  const session: PushedSession = await redactor.redact(source.session(sessionId), sessionFound);
  const all = source.entries(sessionId);
  // refused before anything is sent: the archive keeps one entry per id, and a dropped entry would make "sent N" untrue
  const duplicate = firstDuplicateId(all.map((entry) => String((entry as { id?: unknown }).id)));
  if (duplicate) throw new ArchiveError("bad-request", duplicateIdRefusal(sessionId, duplicate));
  const had = await options.client.has(options.project, session.sessionId);
  const missing = all.slice(had);
  const batchBytes = options.batchBytes ?? 1024 * 1024;
  let sent = 0;
  let added = 0;
  let batch: string[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    if (!options.dryRun) {
      const answer = await options.client.batch({ project: options.project, session, from: had + sent, entries: batch });
      added += answer.added;
    }
    sent += batch.length;
    batch = [];
    bytes = 0;
    options.onProgress?.({ sessionId, sent, total: missing.length });
  };
  for (let at = 0; at < missing.length; at += REDACT_AT_ONCE) {
    const redacted = await redactor.redact(missing.slice(at, at + REDACT_AT_ONCE), found);
    for (const entry of redacted) {
      const json = JSON.stringify(entry);
      batch.push(json);
      bytes += json.length;
      if (bytes >= batchBytes) await flush();
    }
  }
  await flush();
  if (missing.length === 0 && (had === 0 || session.commits !== undefined) && !options.dryRun) {
    // an empty session is still listed in the archive; a session with nothing new still brings its current commit links
    await options.client.batch({ project: options.project, session, from: had, entries: [] });
  }
  // the session's own fields count once they are sent (with a batch, or as an empty session)
  if (missing.length > 0 || had === 0) for (const [kind, count] of sessionFound) found.set(kind, (found.get(kind) ?? 0) + count);
  return { sessionId, had, sent, added, redacted: findingsOf(found) };
}
