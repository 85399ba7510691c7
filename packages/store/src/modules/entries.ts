/**
 * Entries: writing rows (after the stored ones, in file order), the lookups an import makes of the
 * stored ids, the checks of appended entries against them, and the rewrite of one entry's JSON with
 * its derived columns. Callers hold the transaction.
 */
import type { SessionEntry } from "@bonsai/core";
import { deriveColumns, FLAG_PRUNED } from "../derive";
import { AgentTally } from "../foreign/agents";
import { lastWithId, settleRecentIds } from "../id-tiers";
import { EntryWriter, type PendingEntry, type WriterResult } from "../import/entry-writer";
import type { SessionRow } from "../reads/sessions";
import type { ImportIssue } from "../session-store";
import type { ReadEntry } from "../source/reader";
import { unindexEntry, unindexSession } from "../search-index";
import { sql, type StoreContext } from "./context";
import { clearUndoHistory } from "./undo-history";

/** the last stored entry with an id: where it is */
export interface StoredId {
  seq: number;
  line: number | null;
}

/** reads of stored entries by id, each id read once (one import's) */
export interface StoredIdLookups {
  get(id: string): StoredId | undefined;
}

/** Writes entries batch by batch; `finish` once after the last. */
export interface EntryAppender {
  add(pending: readonly PendingEntry[]): void;
  finish(): WriterResult;
}

/** Reads of "the last stored entry with this id" (seq and line), each id read once. */
export function storedIdLookups(ctx: StoreContext, sessionId: string): StoredIdLookups {
  const statement = sql(ctx, lastWithId("seq, line"));
  const read = new Map<string, StoredId | undefined>();
  return {
    get: (id) => {
      if (read.has(id)) return read.get(id);
      const found = statement.get(sessionId, id, sessionId, id) as StoredId | undefined;
      read.set(id, found);
      return found;
    },
  };
}

export function withIds(entries: readonly ReadEntry[], issues: ImportIssue[]): PendingEntry[] {
  const out: PendingEntry[] = [];
  for (const e of entries) {
    const id = (e.entry as { id?: unknown }).id;
    if (typeof id !== "string" || id === "") {
      issues.push({ line: e.line, kind: "missing-id", message: "entry without an id: not loaded (kept in this report)", text: e.json });
      continue;
    }
    out.push({ entry: e.entry, json: e.json, bytes: e.bytes, line: e.line });
  }
  return out;
}

/** Writes entries after the session's stored ones (file order). Caller holds the transaction. */
export function writeEntries(ctx: StoreContext, sessionId: string, pending: readonly PendingEntry[]): WriterResult {
  const writer = entryAppender(ctx, sessionId, storedIdLookups(ctx, sessionId));
  writer.add(pending);
  return writer.finish();
}

/**
 * Writes entries after the session's stored ones (file order), batch by batch; `finish` once after
 * the last. Caller holds the transaction. `lookups`: the append's reads of stored ids (shared with
 * its checks, so that no id is read twice).
 */
export function entryAppender(ctx: StoreContext, sessionId: string, lookups: StoredIdLookups): EntryAppender {
  const last = sql(ctx, "SELECT seq FROM entries WHERE session_id = ? ORDER BY seq DESC LIMIT 1").pluck().get(sessionId) as number | undefined;
  const count = last === undefined ? 0 : last + 1;
  const writer = new EntryWriter(ctx.db, sessionId, { seq: count, stored: count > 0 ? (id) => lookups.get(id)?.seq : false, checkTree: false });
  const tally = new AgentTally(); // the agent and compaction counts (session_agents), written once
  return {
    add: (pending) => {
      writer.add(pending);
      tally.add(pending.map((p) => p.entry));
    },
    finish: () => {
      const written = writer.finish();
      if (written.irregular) sql(ctx, "UPDATE sessions SET irregular = 1 WHERE id = ?").run(sessionId);
      if (count > 0) settleRecentIds(ctx.db, sessionId);
      ctx.agents.noteTally(sessionId, tally);
      return written;
    },
  };
}

export function clearEntries(ctx: StoreContext, sessionId: string): void {
  ctx.state.skeletons.delete(sessionId);
  ctx.agents.noteCleared(sessionId); // the agent and compaction counts (session_agents)
  unindexSession(ctx.statements, sessionId);
  sql(ctx, "DELETE FROM entry_json WHERE pk IN (SELECT pk FROM entries WHERE session_id = ?)").run(sessionId);
  sql(ctx, "DELETE FROM entries WHERE session_id = ?").run(sessionId);
  sql(ctx, "DELETE FROM labels WHERE session_id = ?").run(sessionId);
  sql(ctx, "UPDATE sessions SET irregular = 0 WHERE id = ?").run(sessionId);
  // what Bonsai's Undo would take back names entries of the file as it was: gone with them
  clearUndoHistory(ctx, sessionId);
}

export function replaceEntryJson(ctx: StoreContext, sessionId: string, seq: number, entry: SessionEntry, json: string): void {
  const d = deriveColumns(entry, false);
  const row = sql(ctx, "SELECT pk, indexed FROM entries WHERE session_id = ? AND seq = ?").get(sessionId, seq) as { pk: number; indexed: number };
  sql(ctx,
    "UPDATE entries SET tokens = ?, preview = ?, tool_name = ?, flags = ?, stop_reason = ?, custom_type = ?, ref_id = ?, tokens_before = ?, role = ?, file_ops = ?, indexed = 0 WHERE pk = ?",
  ).run(d.tokens, d.preview, d.toolName, d.flags, d.stopReason, d.customType, d.refId, d.tokensBefore, d.role, d.fileOps, row.pk);
  sql(ctx, "UPDATE entry_json SET json = ? WHERE pk = ?").run(json, row.pk);
  if (row.indexed === 1) unindexEntry(ctx.statements, row.pk);
  ctx.events.entriesWritten();
}

export function dropStalePrunedOriginals(ctx: StoreContext, sessionId: string): void {
  // keep an original only while its entry exists and is still pruned
  sql(ctx,
    `DELETE FROM pruned_outputs WHERE session_id = ? AND entry_id NOT IN
       (SELECT id FROM entries WHERE session_id = ? AND (flags & ${FLAG_PRUNED}) != 0)`,
  ).run(sessionId, sessionId);
}

/**
 * The appended entries with ids, and their issues against the stored ones and each other
 * (duplicate ids, missing parents, cycles); `lookups` remembers what it read of the stored
 * entries, for the writer to use instead of reading it again.
 */
export function appendedChecks(ctx: StoreContext, row: SessionRow, issues: { missingIds: ImportIssue[]; tree: ImportIssue[] }, lookups: StoredIdLookups): (entries: readonly ReadEntry[]) => PendingEntry[] {
  // a v1 file's lines have no ids of their own: the first appended one is linked to the last stored entry
  const linksFirstLine = row.source_version < 2;
  const inChunk = new Map<string, number | null>();
  let first = true;
  return (entries) => {
    const pending = withIds(entries, issues.missingIds);
    pending.forEach((p, i) => checkAppendedEntry(p, linksFirstLine && first && i === 0, inChunk, issues.tree, lookups));
    if (linksFirstLine && first) linkFirstLegacyLine(ctx, row.id, pending);
    if (pending.length > 0) first = false;
    return pending;
  };
}

/** `linked`: the first line of a v1 file's appended lines (linkFirstLegacyLine gives it its parent). */
function checkAppendedEntry(p: PendingEntry, linked: boolean, inChunk: Map<string, number | null>, issues: ImportIssue[], lookups: StoredIdLookups): void {
  const id = p.entry.id;
  const earlier = inChunk.has(id) ? inChunk.get(id) : lookups.get(id)?.line;
  if (earlier !== undefined) {
    issues.push({ line: p.line ?? 0, kind: "duplicate-id", entryId: id, message: `duplicate entry id ${id} (first on line ${earlier ?? "?"}): both are kept, lookups by id find this later one` });
  }
  inChunk.set(id, p.line);
  const parent = p.entry.parentId;
  if (linked) return;
  if (parent === null || parent === undefined || parent === "") return;
  if (!inChunk.has(parent) && lookups.get(parent) === undefined) {
    issues.push({ line: p.line ?? 0, kind: "missing-parent", entryId: id, message: `entry ${id}: parent ${String(parent)} is not in the file; the entry is treated as a root` });
  } else if (parent === id) {
    issues.push({ line: p.line ?? 0, kind: "parent-cycle", entryId: id, message: `entry ${id} is its own parent: paths stop there` });
  }
}

/** A v1 file's appended lines have no ids: core's migration chained them from null; the first hangs off the last stored entry. */
function linkFirstLegacyLine(ctx: StoreContext, sessionId: string, pending: PendingEntry[]): void {
  const first = pending[0];
  if (!first) return;
  const last = sql(ctx, "SELECT id FROM entries WHERE session_id = ? ORDER BY seq DESC LIMIT 1").pluck().get(sessionId) as string | undefined;
  first.entry.parentId = last ?? null;
  first.json = JSON.stringify(first.entry);
}

