/**
 * Part of ArchiveStore (archive-store.ts), imported by nothing else: the page's single-entry reads (the inspector's entry, the previews of the drawn tree) answered
 * from PostgreSQL while this process holds no current copy of the session, so that they do not
 * wait for a whole copy (a 100,000-entry session: 10 s or more) after an open answered from a kept
 * answer. The caller has already checked the session against the caller's projects
 * (ArchiveStore's resolver); every statement here is limited to that session row and to the entries the
 * row counts (a push landing meanwhile adds entries past them).
 *
 * The answers are the app's own (packages/backend session-handlers.ts): the entry as stored, its
 * context tokens (core), whether it is on the path from the session's leaf (its last entry) to the
 * root, and the previews the store derives (store/derive). A pruned tool result is not answered
 * here: its original lives in the copy's store, so that read waits for the copy as before.
 */
import { entryContextTokens, messageFromEntry, type SessionEntry } from "@bonsai/core";
import { IpcError, type EntryDetail } from "@bonsai/ipc";
import { deriveColumns } from "@bonsai/store/derive";
import type pg from "pg";
import type { ArchivedSessionRow as ReadableSession } from "../archive-resolver";

/** an archived entry's JSON as a session entry; null when it is not one (the archive took only such, but the text is untrusted) */
function parseEntry(json: string): SessionEntry | null {
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
    const { id, type } = value as { id?: unknown; type?: unknown };
    return typeof id === "string" && typeof type === "string" ? (value as SessionEntry) : null;
  } catch {
    return null;
  }
}

/** whether `entryId` (at position `seq`) is on the path from the session's last entry to the root: a walk up from the leaf, stopped below `seq` */
async function onLeafPath(pool: pg.Pool, row: ReadableSession, entryId: string, seq: number): Promise<boolean> {
  const found = await pool.query<{ on_path: boolean }>(
    `WITH RECURSIVE up (entry_id, parent_id, seq) AS (
       (SELECT entry_id, parent_id, seq FROM entries WHERE session_pk = $1 AND seq < $2 ORDER BY seq DESC LIMIT 1)
       UNION ALL
       SELECT e.entry_id, e.parent_id, e.seq FROM up JOIN entries e ON e.session_pk = $1 AND e.entry_id = up.parent_id
        WHERE up.seq > $4 AND e.seq < up.seq
     )
     SELECT EXISTS (SELECT 1 FROM up WHERE entry_id = $3) AS on_path`,
    [row.pk, row.entryCount, entryId, seq],
  );
  return found.rows[0]?.on_path === true;
}

/**
 * The inspector's read of one entry, as the app answers getEntry; null when it must come from the
 * copy (a pruned tool result, whose original only the copy's store holds, or an entry the archive
 * holds as something other than an entry).
 */
export async function entryDetailFromArchive(pool: pg.Pool, row: ReadableSession, entryId: string): Promise<EntryDetail | null> {
  const found = (await pool.query<{ seq: number; entry: string }>("SELECT seq, entry FROM entries WHERE session_pk = $1 AND entry_id = $2 AND seq < $3", [row.pk, entryId, row.entryCount])).rows[0];
  if (!found) throw new IpcError("not_found", `no entry ${entryId} in session ${row.sessionId}`);
  const entry = parseEntry(found.entry);
  if (!entry) return null;
  const message = messageFromEntry(entry);
  if (message?.role === "toolResult" && message.prunedAt !== undefined) return null;
  return { entry, tokens: entryContextTokens(entry), prunedOriginal: null, onActivePath: await onLeafPath(pool, row, entryId, Number(found.seq)) };
}

/** The one-line previews of these entries, as the store derives them, in the order asked ("" for an id not in the session). */
export async function previewsFromArchive(pool: pg.Pool, row: ReadableSession, entryIds: readonly string[]): Promise<string[]> {
  const found = await pool.query<{ entry_id: string; entry: string }>("SELECT entry_id, entry FROM entries WHERE session_pk = $1 AND entry_id = ANY($2::text[]) AND seq < $3", [
    row.pk,
    entryIds,
    row.entryCount,
  ]);
  const previews = new Map<string, string>();
  for (const r of found.rows) {
    const entry = parseEntry(r.entry);
    if (entry) previews.set(r.entry_id, deriveColumns(entry, false).preview);
  }
  return entryIds.map((id) => previews.get(id) ?? "");
}
