/**
 * pi / oh-my-pi session files, Bonsai's own format: read block by block (never whole in memory),
 * legacy versions migrated in the store, appended lines checked against the stored tree.
 */
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "@bonsai/core";
import { deferIdIndex } from "../import/deferred-index";
import { EntryWriter } from "../import/entry-writer";
import { AgentTally } from "../foreign/agents";
import type { SessionRow } from "../reads/sessions";
import type { ImportIssue, ImportReport } from "../session-store";
import type { AppendedBytes } from "../source/appended-bytes";
import { readAppended, streamAppended, streamWhole, type ReadEntry, type ReadResult } from "../source/reader";
import type { WholeFile } from "../source/source-sync";
import { nowIso, sql, type StoreContext } from "./context";
import { appendedChecks, clearEntries, dropStalePrunedOriginals, entryAppender, storedIdLookups, withIds } from "./entries";
import { storeReport } from "./import-reports";
import { refreshSessionMeta, sameFileState, saveFileState } from "./session-counts";
import { claimNewSource, newSessionIdFor } from "./sessions";
import type { SourceFormat, SyncOptions, SyncSource, WholeReason } from "./source-format";

/** pi's own files: written through, read by the store's own import. */
export const piFormat: SourceFormat = {
  name: "pi-jsonl",
  refuseWrite: () => null,
  importWhole: (ctx, r) => importWhole(ctx, r.file, r.whole, r.existing, r.options, r.reason, r.unknownReason),
  importAppended: (ctx, r) => importAppended(ctx, r.row, r.appended, r.offset, r.source, r.options.signal) ?? r.resync(false),
  renderJsonl: (ctx, sessionId) => ctx.sessions.jsonl(sessionId),
  leave: () => undefined,
};

function describeJsonValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "text";
  return `a ${typeof v}`;
}

/** A header Bonsai cannot read as a session (a version that is not a number): why, else null. */
function headerFieldProblem(header: SessionHeader): string | null {
  const v: unknown = (header as { version?: unknown }).version;
  if (v === undefined || (typeof v === "number" && Number.isInteger(v) && v >= 1)) return null;
  return `not a session Bonsai can read: the header's "version" is ${describeJsonValue(v)}, not a whole number (pi and oh-my-pi write 1, 2 or 3)`;
}

/** Header fields of the wrong type that Bonsai reads as empty: one warning each. */
function headerFieldWarnings(header: SessionHeader): ImportIssue[] {
  const out: ImportIssue[] = [];
  for (const field of ["cwd", "timestamp", "title"] as const) {
    const v: unknown = (header as Record<string, unknown>)[field];
    if (v === undefined || typeof v === "string") continue;
    out.push({ line: 1, kind: "invalid-header", message: `the header's "${field}" is ${describeJsonValue(v)}, not text: shown as empty` });
  }
  return out;
}

/** Why a file is not a session, in words that never quote the file (it may hold anything). */
function notASessionMessage(issues: readonly ImportIssue[]): string {
  const kind = issues.find((i) => i.kind === "missing-header" || i.kind === "invalid-header" || i.kind === "empty")?.kind;
  if (kind === "empty") return "not a session file: it has no JSON lines (pi and oh-my-pi sessions are JSON Lines starting with a session header)";
  if (kind === "invalid-header") return "not a session file: its session header has no valid id";
  return "not a session file: its first line is not a pi / oh-my-pi session header";
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === "AbortError";
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const err = new Error("import aborted");
    err.name = "AbortError";
    throw err;
  }
}

/**
 * Stores the entries of `appended` (the file's bytes from `offset`), and the file state it gives
 * for the consumed end. One transaction. Returns the report (null when another connection stored
 * these bytes first: read on from what is stored now); the entries added are emitted.
 */
export function importAppended(ctx: StoreContext, row: SessionRow, appended: AppendedBytes, offset: number, source: SyncSource, signal?: AbortSignal): ImportReport | null {
  const fileLines = row.file_lines ?? 0;
  // a legacy file's lines are migrated all at once before the transaction; a current one's are
  // read block by block inside it, each piece checked and stored as it comes (none kept alive)
  const legacy = row.source_version < CURRENT_SESSION_VERSION ? readAppended(appended.all(), offset, fileLines, row.header_json, row.source_version, ctx.random) : null;
  throwIfAborted(signal);
  const checkIssues = { missingIds: [] as ImportIssue[], tree: [] as ImportIssue[] };
  // the entries for the entries-added event: kept only when something listens
  const keep = ctx.events.listens("entries-added");
  const added: SessionEntry[] = [];
  let issues: ImportIssue[] = [];
  ctx.fault?.("sync:before-store");
  const report = ctx.db
    .transaction(() => {
      // another connection (the follower's worker, a commit, another process) stored these
      // bytes after `row` was read: store nothing; the caller reads on from the new offset
      if (!sameFileState(row, ctx.sessions.row(row.id))) return null;
      const lookups = storedIdLookups(ctx, row.id);
      const check = appendedChecks(ctx, row, checkIssues, lookups);
      const writer = entryAppender(ctx, row.id, lookups);
      const store = (entries: readonly ReadEntry[]): void => {
        throwIfAborted(signal);
        const pending = check(entries);
        writer.add(pending);
        if (keep) for (const p of pending) added.push(p.entry);
      };
      let read: ReadResult;
      if (legacy) {
        read = legacy;
        store(legacy.entries);
      } else {
        read = streamAppended(appended, offset, fileLines, row.header_json, row.source_version, store);
      }
      const written = writer.finish();
      issues = [...read.issues, ...checkIssues.missingIds, ...checkIssues.tree];
      refreshSessionMeta(ctx, row, written.lastId ?? undefined, written, false);
      saveFileState(ctx, row.id, appended.stateAt(read.endOffset, read.endLines));
      const report: Omit<ImportReport, "reportId" | "startedAt"> = {
        sourcePath: row.source_path ?? "",
        sessionId: row.id,
        status: "appended",
        bytesRead: appended.length,
        entriesAdded: written.added,
        issues,
        message: `${written.added} new entries${issues.length > 0 ? `, ${issues.length} issues` : ""}`,
      };
      // appends are frequent under live follow: a report row is kept only when there is something to report
      return issues.length > 0 ? storeReport(ctx, report) : { ...report, reportId: 0, startedAt: nowIso() };
    })
    .immediate();
  if (report === null) return null;
  ctx.events.entriesWritten();
  if (added.length > 0) ctx.events.emit("entries-added", { sessionId: row.id, entries: added, source });
  return report;
}

/**
 * Reads a whole file into the store as it is read (block by block: neither the file nor its
 * entries are ever held whole), one transaction. `existing`: the file's session, read again as a
 * new generation.
 */
function importWhole(
  ctx: StoreContext,
  file: string,
  whole: WholeFile,
  existing: SessionRow | undefined,
  options: SyncOptions,
  reason: WholeReason,
  unknownReason: string | null = null,
): ImportReport {
  const signal = options.signal;
  let headerProblem: string | null = null;
  let sessionId = "";
  let writer: EntryWriter | undefined;
  let rebuildIndex: (() => void) | null = null;
  const missingIds: ImportIssue[] = [];
  const tally = new AgentTally(); // the agent and compaction counts (session_agents), written once
  const report = ctx.db
    .transaction(() => {
      const read = streamWhole(
        () => whole.reader(),
        {
          header: (header, fromVersion) => {
            headerProblem = headerFieldProblem(header);
            if (headerProblem !== null) return false;
            sessionId = startWholeImport(ctx, file, header, fromVersion, existing);
            rebuildIndex = deferIdIndex(ctx.db, whole.stat.size);
            writer = new EntryWriter(ctx.db, sessionId, { seq: 0, stored: false, checkTree: true });
            return true;
          },
          entries: (batch) => {
            if (!writer) return;
            const pending = withIds(batch, missingIds);
            writer.add(pending);
            tally.add(pending.map((p) => p.entry));
          },
          progress: (bytes) => {
            throwIfAborted(signal);
            options.onBytes?.(bytes);
          },
        },
        ctx.random,
      );
      throwIfAborted(signal);
      if (!read.header || !writer) {
        // not a session: say so without echoing the file's content (it may be anything)
        const message = headerProblem ?? unknownReason ?? notASessionMessage(read.issues);
        return storeReport(ctx, {
          sourcePath: file,
          sessionId: existing?.id ?? null,
          status: "not-a-session",
          bytesRead: whole.stat.size,
          entriesAdded: 0,
          issues: [{ line: read.issues[0]?.line ?? 0, kind: read.issues[0]?.kind ?? "missing-header", message }],
          message,
          failure: { kind: "not-a-session", reason: message },
        });
      }
      const written = writer.finish();
      rebuildIndex?.();
      ctx.agents.noteTally(sessionId, tally);
      if (written.irregular) sql(ctx, "UPDATE sessions SET irregular = 1 WHERE id = ?").run(sessionId);
      const issues = [...read.issues, ...headerFieldWarnings(read.header), ...missingIds, ...written.issues];
      if (existing) {
        issues.unshift({
          line: 0,
          kind: "rewritten",
          message:
            reason === "recovered"
              ? "read again whole: a Bonsai process was stopped during a change to this file, and the store now holds exactly what the file holds; pruned originals of entries that are still pruned were kept"
              : "the file changed other than by appending (rewritten, truncated or edited): it was read again as a new generation of the session; pruned originals of entries that are still pruned were kept",
        });
        dropStalePrunedOriginals(ctx, sessionId);
      }
      refreshSessionMeta(ctx, ctx.sessions.require(sessionId), written.lastId, written, true);
      saveFileState(ctx, sessionId, whole.stateAt(read.endOffset, read.endLines));
      return storeReport(ctx, {
        sourcePath: file,
        sessionId,
        status: existing ? "reimported" : "imported",
        bytesRead: whole.stat.size,
        entriesAdded: written.added,
        issues,
        message: `${written.added} entries (format v${read.fromVersion}${read.fromVersion < CURRENT_SESSION_VERSION ? `, migrated to v${CURRENT_SESSION_VERSION} in the store only` : ""})${issues.length > 0 ? `, ${issues.length} issues` : ""}`,
      });
    })
    .immediate();
  if (report.status === "not-a-session") return report;
  ctx.events.entriesWritten();
  ctx.events.emit("session-updated", { sessionId, reason: existing ? "reimported" : "imported" });
  return report;
}

/** The session row of a whole read: a new session, or `existing` emptied for its next generation. Returns its id. */
function startWholeImport(ctx: StoreContext, file: string, header: SessionHeader, fromVersion: number, existing: SessionRow | undefined): string {
  const cwd = typeof header.cwd === "string" ? header.cwd : "";
  const created = typeof header.timestamp === "string" ? header.timestamp : "";
  if (existing) {
    clearEntries(ctx, existing.id);
    sql(ctx, "UPDATE sessions SET header_id = ?, header_json = ?, cwd = ?, source_version = ?, created_at = ?, generation = generation + 1 WHERE id = ?").run(
      header.id,
      JSON.stringify(header),
      cwd,
      fromVersion,
      created,
      existing.id,
    );
    return existing.id;
  }
  claimNewSource(ctx, file);
  const sessionId = newSessionIdFor(ctx, header.id, file);
  sql(ctx,
    `INSERT INTO sessions (id, header_id, cwd, header_json, source_path, source_format, source_version, created_at, updated_at, imported_at)
     VALUES (?, ?, ?, ?, ?, 'pi-jsonl', ?, ?, ?, ?)`,
  ).run(sessionId, header.id, cwd, JSON.stringify(header), file, fromVersion, created, created, nowIso());
  return sessionId;
}

