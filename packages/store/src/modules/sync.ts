/**
 * Import and sync: a file or folders brought into the store, and one file brought up to date (no-op
 * when unchanged, the appended bytes when it only grew, everything again as a new generation when it
 * changed otherwise), through the SourceFormat that reads it.
 */
import fs from "node:fs";
import path from "node:path";
import { BUSY_TIMEOUT_MS, isDatabaseBusy } from "../database";
import { importFailureOf } from "../import-failure";
import type { SessionRow } from "../reads/sessions";
import { defaultSessionDirs } from "../paths";
import { scanPaths } from "../scan";
import type { ImportOptions, ImportPathsResult, ImportReport } from "../session-store";
import type { FileChange } from "../source/source-sync";
import { writeFailureSentence } from "../source/write-failure";
import { errorMessage, sql, type StoreContext } from "./context";
import { formatOfFile, formatOfSession } from "./formats";
import { failedReport, storeReport, unchanged, unkeptFailedReport } from "./import-reports";
import { isAbortError, throwIfAborted } from "./pi-format";
import { knownFileOf } from "./session-counts";
import { ImportedMeanwhile, sessionBySource, settingsSessionDirs } from "./sessions";
import type { SyncOptions, SyncSource, WholeReason } from "./source-format";

export async function importFile(ctx: StoreContext, file: string, options: ImportOptions = {}): Promise<ImportReport> {
  throwIfAborted(options.signal);
  await Promise.resolve();
  const resolved = path.resolve(file);
  const onProgress = options.onProgress;
  let size = 0;
  if (onProgress) {
    try {
      size = fs.statSync(resolved).size;
    } catch {
      // reported by the import itself
    }
  }
  // a big file reports its progress block by block
  const onBytes = onProgress ? (bytesDone: number) => onProgress({ filesDone: 0, filesTotal: 1, bytesDone, bytesTotal: size, currentFile: resolved }) : undefined;
  return syncWaitingForWriter(ctx, resolved, { signal: options.signal, onBytes }, options.onWaitForWriter);
}

/** how long a waiting import lets its event loop turn (Ctrl-C, timers) between two tries of a file */
const WRITER_POLL_MS = 50;

/**
 * syncFile for an import that waits for another process's write (ImportOptions.onWaitForWriter):
 * each try waits SQLite's busy timeout for the write lock; one that still finds it held told the
 * caller once, then lets the event loop turn and tries again. SQLite releases the lock of a process
 * that ends, so this waits exactly as long as a live writer holds it (or until the signal stops it).
 * Nothing of a try that found the lock held was stored (the data change is one transaction).
 */
async function syncWaitingForWriter(ctx: StoreContext, file: string, options: SyncOptions, onWait: ((file: string) => void) | undefined): Promise<ImportReport> {
  if (!onWait) return syncFile(ctx, file, "import", options);
  let told = false;
  for (;;) {
    try {
      return syncFile(ctx, file, "import", { ...options, waitForWriter: true });
    } catch (err) {
      if (!isDatabaseBusy(err)) throw err;
      if (!told) onWait(file);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, WRITER_POLL_MS));
      throwIfAborted(options.signal);
    }
  }
}

export async function importPaths(ctx: StoreContext, paths?: readonly string[], options: ImportOptions = {}): Promise<ImportPathsResult> {
  const targets = paths && paths.length > 0 ? paths : defaultSessionDirs(settingsSessionDirs(ctx)).filter((d) => fs.existsSync(d));
  const scan = scanPaths(targets);
  const reports: ImportReport[] = [];
  for (const m of scan.missing) {
    reports.push(storeReport(ctx, { sourcePath: m.path, sessionId: null, status: "failed", bytesRead: 0, entriesAdded: 0, issues: [], message: m.message, failure: { kind: "unreadable", code: m.code } }));
  }
  const bytesTotal = scan.files.reduce((n, f) => n + f.size, 0);
  const progress = { filesDone: 0, filesTotal: scan.files.length, bytesDone: 0, bytesTotal };
  const report = (currentFile?: string): void => {
    const p = currentFile ? { ...progress, currentFile } : { ...progress };
    options.onProgress?.(p);
    ctx.events.emit("import-progress", p);
  };
  report();
  let aborted = false;
  for (const f of scan.files) {
    if (options.signal?.aborted) {
      aborted = true;
      break;
    }
    report(f.path);
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      const onBytes = (bytes: number): void => {
        const p = { ...progress, bytesDone: progress.bytesDone + Math.min(bytes, f.size), currentFile: f.path };
        options.onProgress?.(p);
        ctx.events.emit("import-progress", p);
      };
      reports.push(await syncWaitingForWriter(ctx, f.path, { signal: options.signal, onBytes }, options.onWaitForWriter));
    } catch (err) {
      if (!isAbortError(err)) throw err;
      aborted = true;
      break;
    }
    progress.filesDone++;
    progress.bytesDone += f.size;
    report();
  }
  return { reports, filesTotal: scan.files.length, bytesTotal, aborted };
}

/**
 * Brings the store up to date with one file: no-op when unchanged, the appended bytes when it
 * only grew, everything again (same session, new generation) when it changed otherwise.
 * Synchronous; one transaction for the data change. `whole` reads the file whole whatever the
 * recorded state says (recovery after a killed file operation).
 */
export function syncFile(ctx: StoreContext, file: string, source: SyncSource, options: SyncOptions = {}): ImportReport {
  // a known session's rows are written holding its lock (a new one has no other writer yet)
  const id = sessionBySource(ctx, file)?.id;
  if (id !== undefined) return ctx.locks.run(id, () => syncFileHeld(ctx, file, source, options));
  try {
    return syncFileHeld(ctx, file, source, options);
  } catch (err) {
    // another process imported the file first: it is synced as the session that import made (unchanged, or what was appended since)
    if (!(err instanceof ImportedMeanwhile)) throw err;
    const report = syncFile(ctx, file, source, options);
    return report.status === "unchanged" ? { ...report, message: "already imported: another process imported it a moment ago" } : report;
  }
}

function syncFileHeld(ctx: StoreContext, file: string, source: SyncSource, options: SyncOptions): ImportReport {
  const existing = sessionBySource(ctx, file);
  if (existing?.detached != null) return unchanged(existing, file, `not read: the session is detached from its source (${existing.detached})`);
  const known = options.whole || !existing ? null : knownFileOf(existing);
  return applyChange(ctx, file, existing, ctx.files.readChanges(file, known), source, options, options.whole ? "recovered" : "rewritten");
}

/** Stores what readChanges (or a rewrite's read) found in the file. */
export function applyChange(
  ctx: StoreContext,
  file: string,
  existing: SessionRow | undefined,
  change: FileChange,
  source: SyncSource,
  options: SyncOptions,
  wholeReason: WholeReason,
): ImportReport {
  const signal = options.signal;
  if (change.kind === "unreadable") return failedReport(ctx, file, existing, change.message, change.failure);
  try {
    throwIfAborted(signal);
    if (existing && change.kind === "unchanged") return unchanged(existing, file);
    if (existing && change.kind === "touched") {
      sql(ctx, "UPDATE sessions SET file_size = ?, file_mtime_ms = ? WHERE id = ?").run(change.stat.size, change.stat.mtimeMs, existing.id);
      return unchanged(existing, file);
    }
    if (existing && change.kind === "appended") {
      const appended = change.open();
      try {
        const read = { row: existing, appended, offset: change.offset, source, options, resync: (whole: boolean) => syncFile(ctx, file, source, { signal, whole, waitForWriter: options.waitForWriter }) };
        return formatOfSession(ctx, existing.source_format).importAppended(ctx, read);
      } finally {
        appended.close();
      }
    }
    if (change.kind === "whole") {
      const whole = change.open();
      try {
        // the format is detected from the content (its first lines)
        const { format, unknownReason } = formatOfFile(ctx, whole);
        const before = existing && formatOfSession(ctx, existing.source_format);
        if (existing && before && before.name !== format.name) {
          // the file was rewritten by another agent (a Claude Code file became a pi file)
          before.leave(ctx, existing.id);
          sql(ctx, "UPDATE sessions SET source_format = ? WHERE id = ?").run(format.name, existing.id);
        }
        return format.importWhole(ctx, { file, whole, existing, options, reason: wholeReason, unknownReason });
      } finally {
        whole.close();
      }
    }
    return failedReport(ctx, file, existing, `import of ${file} failed: the store has no record of it`, { kind: "other" });
  } catch (err) {
    if (isAbortError(err) || err instanceof ImportedMeanwhile) throw err;
    // another process's write outlasted the busy timeout: the caller waits for it and tries again
    if (options.waitForWriter && isDatabaseBusy(err)) throw err;
    // nothing was changed (the data change is one transaction): say why, keep going with other files
    const failure = importFailureOf(err);
    switch (failure.kind) {
      case "too-large":
        return failedReport(ctx, file, existing, `${file} is too large to import (more than about 512 MB of text)`, failure);
      case "busy": {
        // the store's write lock is another process's: the report cannot be kept either (it would wait again)
        const message = `${file} was not imported: another process kept the store's write lock for more than ${BUSY_TIMEOUT_MS / 1000} s (another Bonsai import?); nothing of it was stored`;
        return unkeptFailedReport(file, existing, message, failure);
      }
      case "disk":
        // the disk refused a write (SQLite's "database or disk is full"): the transaction was rolled back
        return failedReport(ctx, file, existing, `${file} was not imported: ${writeFailureSentence(err) ?? errorMessage(err)}`, failure);
      case "unreadable":
        // the file could not be read (opening it, or a block of it)
        return failedReport(ctx, file, existing, `cannot read ${file}: ${errorMessage(err)}`, failure);
      default:
        return failedReport(ctx, file, existing, `import of ${file} failed: ${errorMessage(err)}`, failure);
    }
  }
}

