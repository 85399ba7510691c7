/**
 * Pruning and restore: tool outputs replaced in the store and the file (one guarded rewrite each),
 * the originals kept in pruned_outputs until a restore has put them back in the file.
 */
import type { SessionEntry } from "@bonsai/core";
import { StoreError, type PrunedOriginal, type PruneOptions } from "../session-store";
import { nowIso, sql, type StoreContext } from "./context";
import { replaceEntryJson } from "./entries";
import { changeEntries, checkExpectation, prepareWrite, type EntryEdit, type KeptOriginal } from "./write-through";

export function applyPruning(ctx: StoreContext, sessionId: string, results: readonly { entryId: string; message: unknown }[], options: PruneOptions = {}): number {
  return ctx.locks.run(sessionId, () => applyPruningHeld(ctx, sessionId, results, options));
}

function applyPruningHeld(ctx: StoreContext, sessionId: string, results: readonly { entryId: string; message: unknown }[], options: PruneOptions): number {
  const byId = new Map(results.map((r) => [r.entryId, r]));
  if (byId.size === 0) return 0;
  const row = prepareWrite(ctx, ctx.sessions.require(sessionId));
  /** each entry's JSON now and pruned, and its kept original row (a second pruning keeps the first original) */
  const plan = (): EntryEdit[] => {
    checkExpectation(ctx, sessionId, options.expect, ctx.sessions.require(sessionId).leaf_id);
    return [...byId.values()].map((r) => {
      const info = ctx.sessions.entryInfo(sessionId, r.entryId);
      if (!info || info.entry.type !== "message") throw new StoreError(`cannot prune ${r.entryId}: no such tool result in session ${sessionId}`);
      const before = sql(ctx, "SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.seq = ?").pluck().get(sessionId, info.seq) as string;
      const after = JSON.stringify({ ...info.entry, message: r.message });
      const prunedAt = (r.message as { prunedAt?: unknown }).prunedAt;
      return { entryId: r.entryId, seq: info.seq, line: info.line, before, after, prunedAt: typeof prunedAt === "number" ? prunedAt : Date.now(), kept: keptOriginal(ctx, sessionId, r.entryId) };
    });
  };
  const apply = (edits: readonly EntryEdit[]): void => {
    for (const e of edits) {
      sql(ctx,
        `INSERT INTO pruned_outputs (session_id, entry_id, original_json, pruned_json, pruned_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (session_id, entry_id) DO UPDATE SET pruned_json = excluded.pruned_json, pruned_at = excluded.pruned_at`,
      ).run(sessionId, e.entryId, e.before, e.after, e.prunedAt);
      replaceEntryJson(ctx, sessionId, e.seq, JSON.parse(e.after) as SessionEntry, e.after);
    }
    sql(ctx, "UPDATE sessions SET updated_at = ? WHERE id = ?").run(nowIso(), sessionId);
  };
  const undo = (edits: readonly EntryEdit[]): void => {
    for (const e of edits) {
      replaceEntryJson(ctx, sessionId, e.seq, JSON.parse(e.before) as SessionEntry, e.before);
      if (e.kept === undefined) sql(ctx, "DELETE FROM pruned_outputs WHERE session_id = ? AND entry_id = ?").run(sessionId, e.entryId);
      else sql(ctx, "UPDATE pruned_outputs SET pruned_json = ?, pruned_at = ? WHERE session_id = ? AND entry_id = ?").run(e.kept.prunedJson, e.kept.prunedAt, sessionId, e.entryId);
    }
  };
  const count = changeEntries(ctx, row, "prune", plan, apply, undo, () => undefined);
  ctx.events.emit("session-updated", { sessionId, reason: "pruned" });
  return count;
}

export function restorePruned(ctx: StoreContext, sessionId: string, entryIds?: readonly string[]): number {
  return ctx.locks.run(sessionId, () => restorePrunedHeld(ctx, sessionId, entryIds));
}

function restorePrunedHeld(ctx: StoreContext, sessionId: string, entryIds: readonly string[] | undefined): number {
  const row = prepareWrite(ctx, ctx.sessions.require(sessionId));
  const wanted = (): string[] => entryIds ? [...new Set(entryIds)] : (sql(ctx, "SELECT entry_id FROM pruned_outputs WHERE session_id = ?").pluck().all(sessionId) as string[]);
  const plan = (): EntryEdit[] => {
    const edits: EntryEdit[] = [];
    for (const id of wanted()) {
      const kept = keptOriginal(ctx, sessionId, id);
      const info = kept === undefined ? undefined : ctx.sessions.entryInfo(sessionId, id);
      if (kept === undefined || !info) continue;
      const before = sql(ctx, "SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.seq = ?").pluck().get(sessionId, info.seq) as string;
      edits.push({ entryId: id, seq: info.seq, line: info.line, before, after: kept.originalJson, prunedAt: kept.prunedAt, kept });
    }
    return edits;
  };
  const apply = (edits: readonly EntryEdit[]): void => {
    for (const e of edits) replaceEntryJson(ctx, sessionId, e.seq, JSON.parse(e.after) as SessionEntry, e.after);
  };
  const undo = (edits: readonly EntryEdit[]): void => {
    for (const e of edits) replaceEntryJson(ctx, sessionId, e.seq, JSON.parse(e.before) as SessionEntry, e.before);
  };
  // originals are forgotten only once the file holds them again (a killed rewrite keeps them)
  const forget = (edits: readonly EntryEdit[]): void => {
    for (const e of edits) sql(ctx, "DELETE FROM pruned_outputs WHERE session_id = ? AND entry_id = ?").run(sessionId, e.entryId);
    // originals of entries that are gone are dropped too
    for (const id of wanted()) if (!ctx.sessions.entryInfo(sessionId, id)) sql(ctx, "DELETE FROM pruned_outputs WHERE session_id = ? AND entry_id = ?").run(sessionId, id);
  };
  const count = changeEntries(ctx, row, "restore", plan, apply, undo, forget);
  if (count > 0) ctx.events.emit("session-updated", { sessionId, reason: "restored" });
  return count;
}

function keptOriginal(ctx: StoreContext, sessionId: string, entryId: string): KeptOriginal | undefined {
  const r = sql(ctx, "SELECT original_json, pruned_json, pruned_at FROM pruned_outputs WHERE session_id = ? AND entry_id = ?").get(sessionId, entryId) as
    | { original_json: string; pruned_json: string; pruned_at: number }
    | undefined;
  return r ? { originalJson: r.original_json, prunedJson: r.pruned_json, prunedAt: r.pruned_at } : undefined;
}

export function listPruned(ctx: StoreContext, sessionId: string): PrunedOriginal[] {
  const rows = sql(ctx, "SELECT entry_id, original_json, pruned_at FROM pruned_outputs WHERE session_id = ? ORDER BY pruned_at, entry_id").all(sessionId) as {
    entry_id: string;
    original_json: string;
    pruned_at: number;
  }[];
  return rows.map((r) => ({ entryId: r.entry_id, original: JSON.parse(r.original_json) as SessionEntry, prunedAt: r.pruned_at }));
}

