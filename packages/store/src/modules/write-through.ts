/**
 * Write-through: the store's side of every change to a session's source file. Before a write the
 * file is read up to date and the commit's expectations are checked; entries' JSON changes (prune,
 * restore) go through one guarded rewrite (source/safe-rewrite.ts), a legacy file is upgraded to the
 * current format first; a file that cannot be written detaches the session (changes stay in the store).
 */
import fs from "node:fs";
import { CURRENT_SESSION_VERSION } from "@bonsai/core";
import type { SessionRow } from "../reads/sessions";
import { StaleCommitError, StoreError, type CommitExpectation } from "../session-store";
import { appendedDuringRewrite } from "../source/appended-bytes";
import { headerLineOf, replaceLines, type LineReplacement } from "../source/line-edit";
import { changeFromBytes } from "../source/source-sync";
import { errorMessage, sql, type StoreContext } from "./context";
import { formatOfSession } from "./formats";
import { importAppended } from "./pi-format";
import { knownFileOf, saveFileState } from "./session-counts";
import { applyChange, syncFile } from "./sync";

/** an original kept in pruned_outputs */
export interface KeptOriginal {
  originalJson: string;
  prunedJson: string;
  prunedAt: number;
}

/** one entry's JSON change (pruning, restore) */
export interface EntryEdit {
  entryId: string;
  seq: number;
  /** its line in the source file */
  line: number | null;
  /** the JSON now (and the line's text in the file) */
  before: string;
  after: string;
  prunedAt: number;
  kept: KeptOriginal | undefined;
}

/** a rewrite's store side: the lines to replace (given the file's bytes), the store change and its undo */
interface EntriesChange {
  edits(bytes: Buffer): Map<number, LineReplacement>;
  apply(): void;
  undo(): void;
  written(): void;
}

/** Before a write into the source file: the session must still have one, and it must be writable. */
export function prepareWrite(ctx: StoreContext, row: SessionRow): SessionRow {
  // Claude Code and Codex sessions are never written (not even in the store: a pi copy takes changes)
  const refused = formatOfSession(ctx, row.source_format).refuseWrite(row);
  if (refused) throw refused;
  if (row.source_path === null || row.detached !== null) return row;
  if (!fs.existsSync(row.source_path)) {
    throw new StoreError(`the source file ${row.source_path} of session ${row.id} is missing; export the session to keep working on it`);
  }
  return detachIfNotWritable(ctx, row);
}

/** Reads the source file up to date before a write; refuses when it cannot be read. */
export function syncForWrite(ctx: StoreContext, row: SessionRow): void {
  const file = writtenSource(row);
  if (file === null) return;
  const report = syncFile(ctx, file, "follow");
  if (report.status === "failed" || report.status === "not-a-session") {
    throw new StoreError(`cannot write session ${row.id}: its source file cannot be read (${report.message})`);
  }
}

/** A session whose source must not be written keeps its changes in the store from now on (detached). */
function detachIfNotWritable(ctx: StoreContext, row: SessionRow): SessionRow {
  if (row.source_path === null || row.detached !== null) return row;
  const reason = ctx.files.whyNotWritable(row.source_path);
  if (reason === null) return row;
  sql(ctx, "UPDATE sessions SET detached = ? WHERE id = ?").run(reason, row.id);
  ctx.events.emit("session-updated", { sessionId: row.id, reason: "detached" });
  return ctx.sessions.require(row.id);
}

/** the file a change is written to: null for store-only and detached sessions */
export function writtenSource(row: SessionRow): string | null {
  return row.detached === null ? row.source_path : null;
}

/**
 * Refuses a commit whose plan no longer holds (the store is up to date with the file when this
 * runs). `parentId` = where the new entry goes (null: a new root).
 */
export function checkExpectation(ctx: StoreContext, sessionId: string, expect: CommitExpectation | undefined, parentId: string | null): void {
  if (!expect) return;
  if (expect.leafId !== undefined) {
    const leaf = ctx.sessions.require(sessionId).leaf_id;
    if (leaf !== expect.leafId) {
      const planned = expect.leafId ?? "the root";
      const gone = expect.leafId !== null && !ctx.sessions.entryInfo(sessionId, expect.leafId);
      const now = leaf === null ? "the session has no leaf now" : `the leaf is now ${leaf}`;
      throw new StaleCommitError(
        `the session changed since this was planned: it was planned from ${planned}, ${gone ? "which is no longer in the session (the file was rewritten)" : "and the agent or another window moved on"}; ${now}. Nothing was written; plan it again`,
      );
    }
  }
  for (const id of expect.exists ?? []) {
    if (!ctx.sessions.entryInfo(sessionId, id)) {
      throw new StaleCommitError(`the session changed since this was planned: entry ${id} is no longer in it (the file was rewritten). Nothing was written; plan it again`);
    }
  }
  if (expect.onPath && expect.onPath.length > 0) {
    for (const id of expect.onPath) {
      if (parentId === null || !ctx.reader.isOnPath(sessionId, id, parentId)) {
        throw new StaleCommitError(
          `the session changed since this was planned: entry ${id} is no longer on the path to ${parentId ?? "the root"}. Nothing was written; plan it again`,
        );
      }
    }
  }
}

/**
 * Replaces entries' JSON in the store and, for a written-through session, in the source file
 * (one guarded rewrite; the file is read up to date first and `plan` runs on what it holds).
 * `done` runs with the commit (for a file: once the new file is in place). Returns how many.
 */
export function changeEntries(
  ctx: StoreContext,
  row: SessionRow,
  why: string,
  plan: () => EntryEdit[],
  apply: (edits: readonly EntryEdit[]) => void,
  undo: (edits: readonly EntryEdit[]) => void,
  done: (edits: readonly EntryEdit[]) => void,
): number {
  if (writtenSource(row) === null) {
    return ctx.db
      .transaction(() => {
        const edits = plan();
        apply(edits);
        done(edits);
        return edits.length;
      })
      .immediate();
  }
  syncForWrite(ctx, row);
  if (plan().length === 0) {
    ctx.db.transaction(() => done([])).immediate();
    return 0;
  }
  let edits: EntryEdit[] = [];
  rewriteSource(ctx, ctx.sessions.require(row.id), why, {
    edits: () => {
      edits = plan();
      const lines = new Map<number, LineReplacement>();
      for (const e of edits) {
        if (e.line === null) throw new StoreError(`entry ${e.entryId} has no line in ${row.source_path}: import the session again`);
        lines.set(e.line, { text: e.after, expect: e.before });
      }
      return lines;
    },
    apply: () => apply(edits),
    undo: () => undo(edits),
    written: () => done(edits),
  });
  return edits.length;
}

/** The stored JSON of entries by line, for lines [from, to] (line numbers of the source file). */
function storedLines(ctx: StoreContext, sessionId: string, from: number, to: number): Map<number, string> {
  const out = new Map<number, string>();
  const rows = sql(ctx, "SELECT e.line, j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.line BETWEEN ? AND ? ORDER BY e.seq")
    .raw()
    .iterate(sessionId, from, to) as IterableIterator<[number, string]>;
  for (const [l, json] of rows) out.set(l, json);
  return out;
}

/**
 * A legacy (v1/v2) file in the store's v3 form: the header line and every entry line as the store
 * holds them (migrated, with the ids generated at import); other lines kept as they are.
 * `firstLine` = the line number of bytes[0] in the file.
 */
function renderMigrated(ctx: StoreContext, row: SessionRow, bytes: Buffer, firstLine: number): Buffer {
  const lines = bytes.reduce((n, b) => (b === 0x0a ? n + 1 : n), 0) + 1;
  const edits = new Map<number, LineReplacement>();
  for (const [l, json] of storedLines(ctx, row.id, firstLine, firstLine + lines - 1)) edits.set(l - firstLine + 1, { text: json, expect: null });
  if (firstLine === 1) {
    const headerLine = headerLineOf(bytes);
    if (headerLine > 0) edits.set(headerLine, { text: row.header_json, expect: null });
  }
  return replaceLines(bytes, edits);
}

/**
 * A guarded rewrite of the session's source file (source/safe-rewrite.ts): `edits(bytes)` gives
 * the lines to replace once the store has read the file up to date; `apply`/`undo` change the
 * store (apply commits with the journal intent); `written` runs with the intent's clearing.
 */
export function rewriteSource(ctx: StoreContext, row: SessionRow, why: string, change: EntriesChange): void {
  const file = writtenSource(row);
  if (file === null) throw new StoreError(`session ${row.id} has no source file to rewrite`);
  try {
    runRewrite(ctx, row, file, why, change);
  } catch (err) {
    if (err instanceof StoreError) throw err;
    throw new StoreError(`could not write ${file}: ${errorMessage(err)}; the store was left unchanged`);
  }
}

function runRewrite(ctx: StoreContext, row: SessionRow, file: string, why: string, change: EntriesChange): void {
  let migrating = false;
  ctx.files.rewrite({
    sessionId: row.id,
    file,
    why,
    absorb: (bytes, stat) => {
      const report = applyChange(ctx, file, ctx.sessions.require(row.id), changeFromBytes(bytes, stat, knownFileOf(ctx.sessions.require(row.id))), "follow", {}, "rewritten");
      if (report.status === "failed" || report.status === "not-a-session") {
        throw new StoreError(`cannot write session ${row.id}: its source file cannot be read (${report.message})`);
      }
      migrating = ctx.sessions.require(row.id).source_version < CURRENT_SESSION_VERSION;
    },
    render: (bytes) => {
      const base = migrating ? renderMigrated(ctx, ctx.sessions.require(row.id), bytes, 1) : bytes;
      return replaceLines(base, change.edits(bytes));
    },
    catchUp: (delta, offset, linesBefore, fileAfter) => {
      const current = ctx.sessions.require(row.id);
      // bytes another connection stored first are read on from what is stored
      if (importAppended(ctx, current, appendedDuringRewrite(delta, fileAfter), offset, "follow") === null) syncFile(ctx, file, "follow");
      return migrating ? renderMigrated(ctx, current, delta, linesBefore + 1) : delta;
    },
    apply: change.apply,
    undo: change.undo,
    written: (state) => {
      saveFileState(ctx, row.id, state);
      if (migrating) sql(ctx, "UPDATE sessions SET source_version = ? WHERE id = ?").run(CURRENT_SESSION_VERSION, row.id);
      change.written();
    },
  });
}

/** A legacy (v1/v2) source is rewritten in the current format before the first append to it. */
export function upgradeSourceFormat(ctx: StoreContext, row: SessionRow): SessionRow {
  if (writtenSource(row) === null || row.source_version >= CURRENT_SESSION_VERSION) return row;
  const noEdits = new Map<number, LineReplacement>();
  rewriteSource(ctx, row, "format upgrade to v3", { edits: () => noEdits, apply: () => undefined, undo: () => undefined, written: () => undefined });
  return ctx.sessions.require(row.id);
}

