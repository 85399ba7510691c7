/**
 * Claude Code and Codex files in the store: read by the formats layer's readers, stored as their
 * entries (each entry's JSON as the reader gives it, its source lines included), never written.
 *
 * - A whole read (first import, or a file changed other than by appending) stores what
 *   `reader.read` gives, with the reader's leaf, title and header; a torn last line (not JSON yet)
 *   is left for the next read, as for pi files.
 * - Appends (live follow, a later import) go through one incremental reader per file, kept while
 *   the file is followed: the appended complete lines are pushed and only what they complete is
 *   stored — new entries inserted, entries a later line changed (a Claude Code microcompaction
 *   clears earlier tool outputs; a held Codex reply gets its token count) replaced by id. A reader's
 *   state lives in memory only: the first append after an open (or after the reader was dropped)
 *   reads the file once more and matches what it gives with the stored entries by id.
 */
import type { SessionEntry } from "@bonsai/core";
import { originalText, sourceLines, type IncrementalReader, type ReadChunk, type ReadState, type SessionReader } from "@bonsai/formats";
import type { ImportIssue, ImportReport } from "../session-store";
import { countNewlines } from "../source/bytes";
import type { WrittenState } from "../source/safe-rewrite";
import { readAll } from "../source/source-sync";
import { agentDisplayName, isForeignFormat, ReadOnlySessionError, type ForeignFormat } from "../foreign/read-only";
import { READERS_BY_FORMAT } from "../foreign/readers";
import { sql, nowIso, type StoreContext } from "./context";
import { clearEntries, replaceEntryJson, writeEntries } from "./entries";
import { storeReport } from "./import-reports";
import { recountSessionMeta, saveFileState } from "./session-counts";
import { claimNewSource, newSessionIdFor } from "./sessions";
import { readSession } from "./read-session";
import type { SourceFormat, SyncSource, WholeReason } from "./source-format";
import { byId, lastFirst } from "../id-tiers";

/** incremental readers kept (each holds its file's entries in memory) */
const LIVE_READERS = 16;

/** The columns of a session row this module reads. */
export interface ForeignRow {
  id: string;
  header_json: string;
  source_path: string | null;
  source_format: string;
  generation: number;
  file_offset: number | null;
  file_lines: number | null;
}

/** An entry ready to insert (the store's own shape). */
export interface PendingForeignEntry {
  entry: SessionEntry;
  json: string;
  line: number | null;
}

interface LiveReader {
  reader: IncrementalReader;
  /** bytes of the file pushed so far */
  offset: number;
  generation: number;
  /**
   * The last line pushed is complete JSON without its "\n" (a writer that has not written it yet,
   * or never does): it was pushed with one; a "\n" that arrives for it is not pushed again.
   */
  newlineOwed: boolean;
}

/** A stored entry changed its place in the tree: only a whole read can store that. */
class TreeChanged extends Error {}

/** why a stored foreign session was read again whole */
const REREAD = {
  recovered: "read again whole: the store now holds exactly what the file holds",
  rewritten: "the file changed other than by appending (rewritten, truncated or edited): it was read again as a new generation of the session",
} as const;

/** The bytes a read takes: everything, except a last line without "\n" that is not JSON yet (a torn write). */
function wholeReadEnd(bytes: Buffer): number {
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return bytes.length;
  const start = bytes.lastIndexOf(0x0a) + 1;
  const last = bytes.toString("utf8", start).replace(/^\uFEFF/, "");
  if (last.trim() === "") return bytes.length;
  try {
    JSON.parse(last);
    return bytes.length;
  } catch {
    return start;
  }
}

/**
 * What a follower pushes of `bytes` (appended after complete lines): the complete lines, plus a last
 * line without "\n" that is complete JSON (pushed with a "\n", which is then owed). `end` = bytes taken.
 */
function pushable(bytes: Buffer): { text: string; end: number; newlineOwed: boolean } {
  const complete = bytes.lastIndexOf(0x0a) + 1;
  const end = wholeReadEnd(bytes);
  const text = bytes.toString("utf8", 0, complete);
  if (end === complete || bytes.subarray(complete).toString("utf8").trim() === "") return { text, end: complete, newlineOwed: false };
  return { text: `${text}${bytes.toString("utf8", complete, end)}\n`, end, newlineOwed: true };
}

/** The store's line of an entry: its first non-blank source line (null for entries a reader derived). */
function lineOf(entry: SessionEntry): number | null {
  return sourceLines(entry).find((l) => l.text.trim() !== "")?.n ?? null;
}

function pendingOf(entry: SessionEntry): PendingForeignEntry {
  return { entry, json: JSON.stringify(entry), line: lineOf(entry) };
}

function issuesOf(state: Pick<ReadState, "issues">): ImportIssue[] {
  return state.issues.map((i) => ({ line: i.line, kind: i.kind, message: i.message }));
}

/** The Claude Code and Codex files of one store, with the incremental readers of those it follows. */
export class ForeignSources {
  readonly #live = new Map<string, LiveReader>();

  constructor(private readonly ctx: StoreContext) {}

  /** Reads a whole Claude Code or Codex file into the store (first import, or the file was rewritten). */
  importWhole(
    file: string,
    bytes: Buffer,
    stateAt: (end: number, lines: number) => WrittenState,
    existing: ForeignRow | undefined,
    reader: SessionReader,
    reason: WholeReason,
  ): ImportReport {
    const end = wholeReadEnd(bytes);
    const read = reader.read(bytes.toString("utf8", 0, end));
    const state = stateAt(end, countNewlines(bytes, 0, end));
    const pending = read.entries.map(pendingOf);
    const issues = issuesOf(read);
    const format = reader.format as ForeignFormat;
    if (existing) issues.unshift({ line: 0, kind: "rewritten", message: REREAD[reason] });
    const header = read.header;
    const headerJson = JSON.stringify(header);
    let sessionId = "";
    const report = this.ctx.db
      .transaction(() => {
        if (!existing) claimNewSource(this.ctx, file);
        sessionId = existing ? existing.id : newSessionIdFor(this.ctx, header.id !== "" ? header.id : fallbackId(file), file);
        if (existing) {
          clearEntries(this.ctx, sessionId);
          // a file that held a pi session before: its pruned originals belong to entries that are gone
          sql(this.ctx, "DELETE FROM pruned_outputs WHERE session_id = ?").run(sessionId);
          sql(this.ctx, 
            "UPDATE sessions SET header_id = ?, header_json = ?, cwd = ?, source_format = ?, source_version = 3, created_at = ?, generation = generation + 1 WHERE id = ?",
          ).run(header.id, headerJson, header.cwd, format, header.timestamp, sessionId);
        } else {
          sql(this.ctx, 
            `INSERT INTO sessions (id, header_id, cwd, header_json, source_path, source_format, source_version, created_at, updated_at, imported_at)
             VALUES (?, ?, ?, ?, ?, ?, 3, ?, ?, ?)`,
          ).run(sessionId, header.id, header.cwd, headerJson, file, format, header.timestamp, header.timestamp, nowIso());
        }
        this.ctx.agents.setForeign(sessionId, read.agent, read);
        const added = this.#insert(sessionId, pending);
        recountSessionMeta(this.ctx, sessionId, read.leafId);
        saveFileState(this.ctx, sessionId, state);
        const summary = `${added.length} entries from ${read.stats.lines} lines (${agentDisplayName(format)}; read-only: Bonsai never writes it)`;
        return storeReport(this.ctx, {
          sourcePath: file,
          sessionId,
          status: existing ? "reimported" : "imported",
          bytesRead: bytes.length,
          entriesAdded: added.length,
          issues,
          message: `${summary}${issues.length > 0 ? `, ${issues.length} issues` : ""}`,
        });
      })
      .immediate();
    this.#live.delete(sessionId);
    this.ctx.events.entriesWritten();
    this.ctx.events.emit("session-updated", { sessionId, reason: existing ? "reimported" : "imported" });
    return report;
  }

  /**
   * The file only grew (`chunk` = its bytes from `offset`): the complete lines go through the file's
   * incremental reader; without one (first append since the open) the file is read once more.
   * `whole` is called when the stored tree cannot be updated in place (a whole read is needed).
   */
  importAppended(
    row: ForeignRow,
    offset: number,
    chunk: Buffer,
    stateAt: (end: number, lines: number) => WrittenState,
    source: SyncSource,
    whole: () => ImportReport,
  ): ImportReport {
    try {
      const live = this.#live.get(row.id);
      if (!live || live.offset !== offset || live.generation !== row.generation) return this.#catchUp(row, source, whole);
      let bytes = chunk;
      let skipped = 0;
      if (live.newlineOwed) {
        // the line pushed last must end here: anything else means it was not complete after all
        if (chunk[0] !== 0x0a) throw new TreeChanged();
        bytes = chunk.subarray(1);
        skipped = 1;
        live.newlineOwed = false;
      }
      const next = pushable(bytes);
      const result = next.text === "" ? { entries: [], updated: [] } : live.reader.push(next.text);
      live.offset += skipped + next.end;
      live.newlineOwed = next.newlineOwed;
      this.#touch(row.id, live);
      const end = skipped + next.end;
      const lines = (row.file_lines ?? 0) + countNewlines(chunk, 0, end);
      const finalNewline = end === 0 ? undefined : !next.newlineOwed;
      return this.#store(row, live.reader, result, stateAt(offset + end, lines), end, source, finalNewline);
    } catch (err) {
      if (!(err instanceof TreeChanged)) throw err;
      this.#live.delete(row.id);
      return whole();
    }
  }

  /** A new incremental reader over the whole file as it is now; what it gives is matched with the store by id. */
  #catchUp(row: ForeignRow, source: SyncSource, whole: () => ImportReport): ImportReport {
    const file = row.source_path ?? "";
    const change = this.ctx.files.readChanges(file, null);
    if (change.kind === "unreadable") throw new Error(change.message);
    if (change.kind !== "whole") return whole();
    const format = row.source_format;
    const factory = isForeignFormat(format) ? READERS_BY_FORMAT[format] : undefined;
    if (!factory) return whole();
    const reader = factory.incremental();
    const opened = change.open();
    let bytes: Buffer;
    let next: ReturnType<typeof pushable>;
    let state: WrittenState;
    try {
      bytes = readAll(opened);
      next = pushable(bytes);
      state = opened.stateAt(next.end, countNewlines(bytes, 0, next.end));
    } finally {
      opened.close();
    }
    const result = reader.push(next.text);
    const live: LiveReader = { reader, offset: next.end, generation: row.generation, newlineOwed: next.newlineOwed };
    this.#touch(row.id, live);
    return this.#store(row, reader, result, state, next.end, source, !next.newlineOwed);
  }

  #touch(sessionId: string, live: LiveReader): void {
    this.#live.delete(sessionId);
    this.#live.set(sessionId, live);
    while (this.#live.size > LIVE_READERS) this.#live.delete(this.#live.keys().next().value as string);
  }

  /**
   * Stores what a push gave: new entries inserted, known ones replaced where they changed.
   * `finalNewline`: whether the stored lines now end with "\n" (undefined: as before).
   */
  #store(
    row: ForeignRow,
    reader: IncrementalReader,
    result: ReadChunk,
    file: WrittenState,
    bytesRead: number,
    source: SyncSource,
    finalNewline: boolean | undefined,
  ): ImportReport {
    const state = reader.state();
    const original = finalNewline === undefined ? (this.ctx.agents.foreignFacts(row.id)?.original ?? { finalNewline: true }) : { finalNewline };
    const issues = issuesOf({ issues: state.issues.filter((i) => i.line > (row.file_lines ?? 0)) });
    let added: SessionEntry[] = [];
    let changed = 0;
    const stored = sql(this.ctx, 
      `SELECT e.seq, e.parent_id, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE ${byId("e")} ORDER BY ${lastFirst("e")} LIMIT 1`,
    );
    const report = this.ctx.db
      .transaction(() => {
        const fresh: PendingForeignEntry[] = [];
        const seen = new Set<string>();
        // held entries are stored as they are now; they come out of a later push with the same ids
        for (const entry of [...result.entries, ...result.updated, ...reader.held()]) {
          const p = pendingOf(entry);
          const known = seen.has(entry.id) ? undefined : (stored.get(row.id, entry.id) as { seq: number; parent_id: string | null; json: string } | undefined);
          seen.add(entry.id);
          if (!known) {
            fresh.push(p);
            continue;
          }
          if (known.json === p.json) continue;
          if ((known.parent_id ?? null) !== (entry.parentId ?? null)) throw new TreeChanged();
          replaceEntryJson(this.ctx, row.id, known.seq, entry, p.json);
          changed++;
        }
        added = this.#insert(row.id, fresh);
        const headerJson = JSON.stringify(state.header);
        if (headerJson !== row.header_json) {
          sql(this.ctx, "UPDATE sessions SET header_json = ?, cwd = ? WHERE id = ?").run(headerJson, state.header.cwd, row.id);
        }
        this.ctx.agents.setForeign(row.id, state.agent, { ...state, original });
        recountSessionMeta(this.ctx, row.id, state.leafId);
        saveFileState(this.ctx, row.id, file);
        const r: Omit<ImportReport, "reportId" | "startedAt"> = {
          sourcePath: row.source_path ?? "",
          sessionId: row.id,
          status: "appended",
          bytesRead,
          entriesAdded: added.length,
          issues,
          message: `${added.length} new entries${changed > 0 ? `, ${changed} changed` : ""}${issues.length > 0 ? `, ${issues.length} issues` : ""}`,
        };
        return issues.length > 0 ? storeReport(this.ctx, r) : { ...r, reportId: 0, startedAt: nowIso() };
      })
      .immediate();
    this.ctx.events.entriesWritten();
    if (added.length > 0) this.ctx.events.emit("entries-added", { sessionId: row.id, entries: added, source });
    if (changed > 0) this.ctx.events.emit("session-updated", { sessionId: row.id, reason: "pruned" });
    return report;
  }

  #insert(sessionId: string, pending: PendingForeignEntry[]): SessionEntry[] {
    writeEntries(this.ctx, sessionId, pending);
    return pending.map((p) => p.entry);
  }

  /** The store's format of files this reader reads (modules/source-format.ts). */
  format(reader: SessionReader): SourceFormat {
    const name = reader.format as ForeignFormat;
    return {
      name,
      refuseWrite: (row) => new ReadOnlySessionError(row.id, name),
      importWhole: (_ctx, r) => this.importWhole(r.file, readAll(r.whole), (end, lines) => r.whole.stateAt(end, lines), r.existing, reader, r.reason),
      importAppended: (_ctx, r) =>
        this.importAppended(r.row, r.offset, r.appended.all(), (end, lines) => r.appended.stateAt(end, lines), r.source, () => r.resync(true)),
      renderJsonl: (ctx, sessionId) => originalText(readSession(ctx, sessionId)), // the agent's own lines
      leave: (ctx, sessionId) => {
        ctx.agents.clearForeign(sessionId);
        this.forget(sessionId);
      },
    };
  }

  /** The session is gone or was read again as a pi file: its reader is dropped. */
  forget(sessionId: string): void {
    this.#live.delete(sessionId);
  }
}

/** A header without a session id (a file cut before its first id): the file name stands in. */
function fallbackId(file: string): string {
  const name = file.split(/[/\\]/).pop() ?? "session";
  return name.replace(/\.jsonl$/, "") || "session";
}
