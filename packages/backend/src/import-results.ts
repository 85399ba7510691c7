/**
 * Import reports as the window sees them. The window may point an import at any file it is
 * allowed to (and an upload can be anything), so what comes back never quotes the file: a file that
 * is not a session gets a fixed reason by kind, never a line of it (a JSON parser's message quotes
 * the text it choked on), and skipped lines of a session are described by kind and line number.
 */
import type { ImportResult } from "@bonsai/ipc";
import { BUSY_TIMEOUT_MS, type ImportIssue, type ImportReport } from "@bonsai/store";

export const MAX_WARNINGS = 20;

/** Issue kinds whose message is about lines of the file (and may quote them). */
const LINE_ISSUES: Readonly<Record<string, string>> = {
  "invalid-json": "a line that is not valid JSON was skipped",
  "truncated-line": "the last line is incomplete (an interrupted write?) and was skipped",
  "not-an-object": "a line that is not a JSON object was skipped",
  "extra-header": "a second session header was skipped",
  "missing-id": "an entry without an id was skipped",
};

/** Why a file is not a session, by the kind of its problem (when the store gives no reason of its own). */
const NOT_A_SESSION: Readonly<Record<string, string>> = {
  "missing-header": "not a session file: its first line is not a session header",
  "invalid-header": "not a session file: its session header is not valid",
  empty: "not a session file: it has no line of JSON",
};

const ERRNO: Readonly<Record<string, string>> = {
  ENOENT: "no such file or folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a folder",
  ENOTDIR: "a parent of the path is not a folder",
  EMFILE: "too many open files",
  ENOSPC: "no space left on the device",
};

const NOT_IMPORTED = "the file could not be imported as a session (run `bonsai import FILE` on the host for the details)";

function issueText(issue: ImportIssue): string {
  const fixed = LINE_ISSUES[issue.kind];
  // tree problems (duplicate ids, missing parents, cycles) name entry ids only: the store's words
  const text = fixed ?? issue.message;
  return issue.line > 0 ? `line ${issue.line}: ${text}` : text;
}

/**
 * The reason a failed or rejected import gives, without a word of the file's content: from the
 * store's typed failure (ImportFailure), never from the report's message. A file that is not a
 * session gets the store's reason, which never quotes the file (packages/store: notASessionMessage,
 * headerFieldProblem, the formats' unknown-file description; the page's tests plant secrets in such
 * files to hold both sides to it).
 */
export function failureReason(report: Pick<ImportReport, "status" | "issues" | "failure">): string {
  const failure = report.failure;
  if (failure?.kind === "not-a-session") return failure.reason;
  if (report.status === "not-a-session") {
    // a report without its failure (one listed from the database): by the kind of its problem
    for (const issue of report.issues) {
      const reason = NOT_A_SESSION[issue.kind];
      if (reason) return reason;
    }
    return "not a session file";
  }
  if (failure?.kind === "busy") return `another Bonsai process was writing the store for more than ${BUSY_TIMEOUT_MS / 1000} seconds: nothing of this file was stored; import it again when that has finished`;
  const reason = failure?.kind === "unreadable" && failure.code !== null ? ERRNO[failure.code] : undefined;
  return reason ? `the file could not be read: ${reason}` : NOT_IMPORTED;
}

export function isImported(report: Pick<ImportReport, "status">): boolean {
  return report.status !== "failed" && report.status !== "not-a-session";
}

/** One report as the window's ImportResult. */
export function toImportResult(source: string, report: ImportReport, title: string | null): ImportResult {
  if (!isImported(report)) {
    return { source, ok: false, sessionId: null, title: null, entriesImported: 0, warnings: [], error: failureReason(report) };
  }
  const warnings = report.issues.slice(0, MAX_WARNINGS).map(issueText);
  if (report.issues.length > MAX_WARNINGS) warnings.push(`… and ${report.issues.length - MAX_WARNINGS} more issues`);
  return { source, ok: true, sessionId: report.sessionId, title, entriesImported: report.entriesAdded, warnings, error: null };
}

/** A path that could not be imported for a reason of our own (nothing was read). */
export function refusedResult(source: string, error: string): ImportResult {
  return { source, ok: false, sessionId: null, title: null, entriesImported: 0, warnings: [], error };
}
