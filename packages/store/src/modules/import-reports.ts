/** The reports of imports: kept in import_reports (a failure, or a change worth reporting), read back by session or path. */
import path from "node:path";
import type { SessionRow } from "../reads/sessions";
import type { ImportFailure } from "../import-failure";
import type { ImportIssue, ImportReport, ImportStatus } from "../session-store";
import { writeFailureSentence } from "../source/write-failure";
import { nowIso, sql, type StoreContext } from "./context";

interface ReportRow {
  id: number;
  source_path: string;
  session_id: string | null;
  status: ImportStatus;
  started_at: string;
  bytes_read: number;
  entries_added: number;
  issues_json: string;
  message: string | null;
}

export function getImportReports(ctx: StoreContext, sessionIdOrPath: string, limit = 20): ImportReport[] {
  const rows = sql(ctx, "SELECT * FROM import_reports WHERE session_id = ? OR source_path = ? ORDER BY id DESC LIMIT ?").all(
    sessionIdOrPath,
    path.isAbsolute(sessionIdOrPath) ? sessionIdOrPath : path.resolve(sessionIdOrPath),
    limit,
  ) as ReportRow[];
  return rows.map((r) => ({
    reportId: r.id,
    sourcePath: r.source_path,
    sessionId: r.session_id,
    status: r.status,
    bytesRead: r.bytes_read,
    entriesAdded: r.entries_added,
    issues: JSON.parse(r.issues_json) as ImportIssue[],
    message: r.message ?? "",
    startedAt: r.started_at,
  }));
}

export function storeReport(ctx: StoreContext, r: Omit<ImportReport, "reportId" | "startedAt">): ImportReport {
  const startedAt = nowIso();
  let info: { lastInsertRowid: number | bigint };
  try {
    info = sql(ctx,
      "INSERT INTO import_reports (source_path, session_id, status, started_at, bytes_read, entries_added, issues_json, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(r.sourcePath, r.sessionId, r.status, startedAt, r.bytesRead, r.entriesAdded, JSON.stringify(r.issues), r.message);
  } catch (err) {
    // a disk too full to keep the report: the report is still given (id 0: not kept)
    if (writeFailureSentence(err) === null) throw err;
    info = { lastInsertRowid: 0 };
  }
  return { ...r, reportId: Number(info.lastInsertRowid), startedAt };
}

export function failedReport(ctx: StoreContext, file: string, existing: SessionRow | undefined, message: string, failure: ImportFailure): ImportReport {
  return storeReport(ctx, failedReportOf(file, existing, message, failure));
}

/** failedReport given but not kept: the store cannot be written (another process holds its write lock). */
export function unkeptFailedReport(file: string, existing: SessionRow | undefined, message: string, failure: ImportFailure): ImportReport {
  return { ...failedReportOf(file, existing, message, failure), reportId: 0, startedAt: nowIso() };
}

function failedReportOf(file: string, existing: SessionRow | undefined, message: string, failure: ImportFailure): Omit<ImportReport, "reportId" | "startedAt"> {
  return { sourcePath: file, sessionId: existing?.id ?? null, status: "failed", bytesRead: 0, entriesAdded: 0, issues: [{ line: 0, kind: "io-error", message }], message, failure };
}

export function unchanged(row: SessionRow, file: string, message = "unchanged since the last import"): ImportReport {
  return {
    reportId: 0,
    sourcePath: file,
    sessionId: row.id,
    status: "unchanged",
    bytesRead: 0,
    entriesAdded: 0,
    issues: [],
    message,
    startedAt: nowIso(),
  };
}

