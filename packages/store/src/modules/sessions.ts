/**
 * Sessions: the catalogue's rows (a new session, removal, the id a new file's session gets), titles,
 * the leaf, and the settings kept beside them.
 */
import { CURRENT_SESSION_VERSION, generateSessionId, type SessionHeader } from "@bonsai/core";
import type { SessionRow } from "../reads/sessions";
import { countSessionShape as countShape, readSessionTitles, writeSessionTitle } from "../session-meta";
import { StoreError, type SessionSummary } from "../session-store";
import { sha256 } from "../source/bytes";
import { addressableSessionId } from "../session-id";
import { nowIso, sql, type StoreContext } from "./context";
import { clearEntries } from "./entries";

/**
 * The header of a session as stored (the file's own, kept as read for a rewrite), typed: a field a
 * file gives another type (a `cwd` that is a number or an object) reads as the row's typed value.
 */
export function storedHeader(row: SessionRow): SessionHeader {
  const header = JSON.parse(row.header_json) as Record<string, unknown>;
  return { ...header, type: "session", id: typeof header.id === "string" ? header.id : row.header_id, timestamp: typeof header.timestamp === "string" ? header.timestamp : row.created_at, cwd: row.cwd };
}

export function sessionBySource(ctx: StoreContext, file: string): SessionRow | undefined {
  return sql(ctx, "SELECT * FROM sessions WHERE source_path = ?").get(file) as SessionRow | undefined;
}

/**
 * Thrown inside a first import's transaction when another connection (another `bonsai import`, the
 * app's worker) stored the same file after this one looked: the import is rolled back and the file
 * synced again as the session it now is (syncFile), never a UNIQUE constraint failure.
 */
export class ImportedMeanwhile extends Error {
  constructor(file: string) {
    super(`${file} was imported by another process meanwhile`);
    this.name = "ImportedMeanwhile";
  }
}

/** Called in a first import's write transaction, before its session row is inserted: refuses when `file` has a session now (ImportedMeanwhile). */
export function claimNewSource(ctx: StoreContext, file: string): void {
  if (sessionBySource(ctx, file) !== undefined) throw new ImportedMeanwhile(file);
}

/** The header id (made addressable: session-id.ts), unless another file already brought a session with that id. */
export function newSessionIdFor(ctx: StoreContext, fromHeader: string, file: string): string {
  const headerId = addressableSessionId(fromHeader);
  if (!ctx.sessions.row(headerId)) return headerId;
  const suffix = sha256(file).slice(0, 8);
  let id = `${headerId}-${suffix}`;
  for (let n = 2; ctx.sessions.row(id); n++) id = `${headerId}-${suffix}-${n}`;
  return id;
}

export function createSession(ctx: StoreContext, init: { cwd?: string; title?: string; id?: string } = {}): SessionSummary {
  const id = init.id ?? generateSessionId(ctx.random);
  if (ctx.sessions.row(id)) throw new StoreError(`a session ${id} already exists`);
  const timestamp = nowIso();
  const header: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id, timestamp, cwd: init.cwd ?? "" };
  if (init.title) header.title = init.title;
  sql(ctx,
    `INSERT INTO sessions (id, header_id, title, cwd, header_json, source_format, source_version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'bonsai', ?, ?, ?)`,
  ).run(id, id, init.title ?? null, header.cwd, JSON.stringify(header), CURRENT_SESSION_VERSION, timestamp, timestamp);
  return ctx.sessions.summary(id) as SessionSummary;
}

export function deleteSession(ctx: StoreContext, sessionId: string): void {
  ctx.sessions.require(sessionId);
  ctx.locks.run(sessionId, () =>
    ctx.db.transaction(() => {
      clearEntries(ctx, sessionId);
      sql(ctx, "DELETE FROM pruned_outputs WHERE session_id = ?").run(sessionId);
      sql(ctx, "DELETE FROM sessions WHERE id = ?").run(sessionId);
    })(),
  );
  ctx.events.emit("session-updated", { sessionId, reason: "removed" });
}

export function getSessionTitles(ctx: StoreContext): Map<string, string> {
  return readSessionTitles(ctx.db);
}

export function setSessionTitle(ctx: StoreContext, sessionId: string, title: string | null): void {
  ctx.sessions.require(sessionId);
  writeSessionTitle(ctx.db, sessionId, title);
}

export function countSessionShape(ctx: StoreContext, sessionId: string): { compactions: number; branches: number } {
  ctx.sessions.require(sessionId);
  return countShape(ctx.db, sessionId);
}

export function setLeaf(ctx: StoreContext, sessionId: string, leafId: string | null): void {
  ctx.locks.run(sessionId, () => setLeafHeld(ctx, sessionId, leafId));
}

function setLeafHeld(ctx: StoreContext, sessionId: string, leafId: string | null): void {
  ctx.sessions.require(sessionId);
  if (leafId !== null && !ctx.sessions.entryInfo(sessionId, leafId)) throw new StoreError(`Entry ${leafId} not found`);
  sql(ctx, "UPDATE sessions SET leaf_id = ? WHERE id = ?").run(leafId, sessionId);
  ctx.events.emit("session-updated", { sessionId, reason: "leaf" });
}

export function getSettingsJson(ctx: StoreContext): unknown {
  const v = sql(ctx, "SELECT value FROM settings WHERE key = 'settings'").pluck().get() as string | undefined;
  return v === undefined ? undefined : (JSON.parse(v) as unknown);
}

export function saveSettingsJson(ctx: StoreContext, value: unknown): void {
  const json = JSON.stringify(value);
  if (json === undefined) throw new StoreError("settings must be JSON-serializable");
  sql(ctx, "INSERT INTO settings (key, value) VALUES ('settings', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(json);
}

export function settingsSessionDirs(ctx: StoreContext): string[] {
  const s = getSettingsJson(ctx);
  const dirs = typeof s === "object" && s !== null ? (s as { sessionDirs?: unknown }).sessionDirs : undefined;
  return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === "string") : [];
}

