/**
 * A session's derived row fields after its entries changed: counts, title, first message, updated
 * time, leaf; and the state of its source file as last read.
 */
import { isRealPrompt, sourceSessionId, type SessionEntry } from "@bonsai/core";
import { deriveColumns, oneLine } from "../derive";
import type { WriterResult } from "../import/entry-writer";
import type { SessionRow } from "../reads/sessions";
import type { WrittenState } from "../source/safe-rewrite";
import type { KnownFile } from "../source/source-sync";
import { nowIso, sql, type StoreContext } from "./context";
import { storedHeader } from "./sessions";

/** The store's record of a session's file (what readChanges compares the file with). */
export function knownFileOf(row: SessionRow): KnownFile {
  return { size: row.file_size, mtimeMs: row.file_mtime_ms, offset: row.file_offset, headHash: row.head_hash, tailHash: row.tail_hash };
}

/** Whether the store still holds what `before` recorded of its file (nobody stored more since). */
export function sameFileState(before: SessionRow, now: SessionRow | undefined): boolean {
  return (
    now !== undefined &&
    now.generation === before.generation &&
    now.file_offset === before.file_offset &&
    now.file_lines === before.file_lines &&
    now.tail_hash === before.tail_hash
  );
}

/**
 * Counts, title, first message, updated time after `written` was stored (`whole`: the session's
 * entries are exactly those); the leaf moves to `leafId` when given. Appends cost what they add:
 * counts are added up, and the title and first message are looked up only when they can change.
 */
export function refreshSessionMeta(ctx: StoreContext, row: SessionRow, leafId: string | null | undefined, written: WriterResult, whole: boolean): void {
  const sessionId = row.id;
  const entryCount = whole ? written.added : written.startSeq + written.added;
  const messageCount = whole ? written.messages : row.message_count + written.messages;
  let firstMessage = row.first_message;
  if (whole || (firstMessage === "" && written.types.has("message"))) {
    firstMessage = oneLine(firstRealPrompt(ctx, sessionId), 500);
  }
  const title = whole || written.types.has("session_info") ? resolveTitle(ctx, row) : row.title;
  const updated = written.latestTimestamp > row.updated_at ? written.latestTimestamp : row.updated_at;
  sql(ctx, "UPDATE sessions SET entry_count = ?, message_count = ?, first_message = ?, title = ?, updated_at = ? WHERE id = ?").run(
    entryCount,
    messageCount,
    firstMessage,
    title,
    updated,
    sessionId,
  );
  if (leafId !== undefined) sql(ctx, "UPDATE sessions SET leaf_id = ? WHERE id = ?").run(leafId, sessionId);
}

/** Counts, title, first message and leaf of a session from what is stored (a foreign reader's changes). */
export function recountSessionMeta(ctx: StoreContext, sessionId: string, leafId?: string | null): void {
  const counts = sql(ctx, "SELECT count(*) AS n, coalesce(sum(type = 'message'), 0) AS m, coalesce(max(timestamp), '') AS latest FROM entries WHERE session_id = ?").get(sessionId) as {
    n: number;
    m: number;
    latest: string;
  };
  const written: WriterResult = { startSeq: 0, added: counts.n, types: new Set(), messages: counts.m, latestTimestamp: counts.latest, lastId: null, irregular: false, issues: [] };
  refreshSessionMeta(ctx, ctx.sessions.require(sessionId), leafId, written, true);
}

/**
 * The first user message a person wrote in this session (core isRealPrompt), among the session's
 * first ones; never one read from a line of another session (core sourceSessionId: the agent's id
 * on the line, against the one on the session's last line); "" when none.
 */
function firstRealPrompt(ctx: StoreContext, sessionId: string): string {
  const last = sql(ctx, "SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? ORDER BY e.seq DESC LIMIT 1").pluck().get(sessionId) as string | undefined;
  const own = last === undefined ? undefined : sourceSessionId(JSON.parse(last) as SessionEntry);
  const rows = sql(ctx,
    "SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.type = 'message' AND e.role = 'user' ORDER BY e.seq LIMIT 50",
  ).pluck().iterate(sessionId) as IterableIterator<string>;
  for (const json of rows) {
    const entry = JSON.parse(json) as SessionEntry;
    const text = deriveColumns(entry).userText ?? "";
    if (!isRealPrompt(text)) continue;
    const lineSession = own === undefined ? undefined : sourceSessionId(entry);
    if (lineSession === undefined || lineSession === own) return text;
  }
  return "";
}

/** header title, else the latest session_info's name (the agent's or the user's; never a compaction's or branch summary's text) */
function resolveTitle(ctx: StoreContext, row: SessionRow): string | null {
  const header = storedHeader(row);
  if (typeof header.title === "string" && header.title !== "") return header.title;
  const info = sql(ctx, "SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.type = 'session_info' ORDER BY e.seq DESC LIMIT 1").pluck().get(row.id) as
    | string
    | undefined;
  const name = info ? (JSON.parse(info) as { name?: unknown }).name : undefined;
  return typeof name === "string" && name !== "" ? name : null;
}

export function saveFileState(ctx: StoreContext, sessionId: string, s: WrittenState): void {
  sql(ctx,
    "UPDATE sessions SET file_size = ?, file_mtime_ms = ?, file_offset = ?, file_lines = ?, head_hash = ?, tail_hash = ?, imported_at = ? WHERE id = ?",
  ).run(s.size, s.mtimeMs, s.offset, s.lines, s.headHash, s.tailHash, nowIso(), sessionId);
}

