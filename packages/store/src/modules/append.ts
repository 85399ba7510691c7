/**
 * Appending an entry (and a label): to a written-through session, the file first (a whole line,
 * source/safe-append.ts) and the store then reads it back like any appended line; to a store-only or
 * detached session, the store alone.
 */
import { EntryIdGenerator, type SessionEntry } from "@bonsai/core";
import { StoreError, type AppendOptions, type NewEntry } from "../session-store";
import { nowIso, sql, type StoreContext } from "./context";
import { storedIdLookups, writeEntries } from "./entries";
import { refreshSessionMeta } from "./session-counts";
import { syncFile } from "./sync";
import { checkExpectation, prepareWrite, syncForWrite, upgradeSourceFormat, writtenSource } from "./write-through";

export function appendEntry(ctx: StoreContext, sessionId: string, body: NewEntry, options: AppendOptions = {}): SessionEntry {
  return ctx.locks.run(sessionId, () => appendEntryHeld(ctx, sessionId, body, options));
}

function appendEntryHeld(ctx: StoreContext, sessionId: string, body: NewEntry, options: AppendOptions): SessionEntry {
  const row = prepareWrite(ctx, ctx.sessions.require(sessionId));
  // the commit's checks (expected state, parent): run before any write, and again on the line's build
  const checkedParent = (): string | null => {
    const current = ctx.sessions.require(sessionId);
    const parentId = options.parentId === undefined ? current.leaf_id : options.parentId;
    checkExpectation(ctx, sessionId, options.expect, parentId);
    if (parentId !== null && !ctx.sessions.entryInfo(sessionId, parentId)) throw new StoreError(`Entry ${parentId} not found`);
    return parentId;
  };
  const build = (): SessionEntry => {
    const parentId = checkedParent();
    const stored = storedIdLookups(ctx, sessionId);
    const taken = { has: (id: string): boolean => stored.get(id) !== undefined };
    const id = new EntryIdGenerator(ctx.random).next(taken);
    return shapeEntry(body, id, parentId, new Date(ctx.random.now()).toISOString());
  };
  const file = writtenSource(row);
  if (file === null) {
    const entry = build();
    const added = ctx.db
      .transaction(() => {
        const out = [entry];
        const written = writeEntries(ctx, sessionId, [{ entry, json: JSON.stringify(entry), line: null }]);
        refreshSessionMeta(ctx, ctx.sessions.require(sessionId), entry.id, written, false);
        sql(ctx, "UPDATE sessions SET updated_at = ? WHERE id = ?").run(nowIso(), sessionId);
        return out;
      })
      .immediate();
    ctx.events.entriesWritten();
    ctx.events.emit("entries-added", { sessionId, entries: added, source: "append" });
    return entry;
  }
  // the file first (source/safe-append.ts); the store then reads the line back like any appended line
  syncForWrite(ctx, row);
  // a refused commit (stale, unknown parent) writes nothing: no format upgrade, no backup
  checkedParent();
  upgradeSourceFormat(ctx, ctx.sessions.require(sessionId));
  let entry: SessionEntry | undefined;
  ctx.files.append({
    sessionId,
    file,
    absorb: () => syncForWrite(ctx, ctx.sessions.require(sessionId)),
    line: () => {
      entry = build();
      return { text: JSON.stringify(entry), ids: [entry.id] };
    },
    absorbAfter: () => {
      syncFile(ctx, file, "append");
    },
  });
  const id = (entry as SessionEntry).id;
  const stored = ctx.sessions.entryInfo(sessionId, id);
  if (!stored) throw new StoreError(`the entry was written to ${file} but could not be read back`);
  sql(ctx, "UPDATE sessions SET leaf_id = ? WHERE id = ?").run(id, sessionId);
  ctx.events.emit("session-updated", { sessionId, reason: "appended" });
  return stored.entry;
}

/** omp key order: type, id, parentId, timestamp, body — custom/custom_message put their body first. */
function shapeEntry(body: NewEntry, id: string, parentId: string | null, timestamp: string): SessionEntry {
  const { type, id: _i, parentId: _p, timestamp: _t, ...rest } = body;
  if (type === "custom" || type === "custom_message") return { type, ...rest, id, parentId, timestamp } as SessionEntry;
  return { type, id, parentId, timestamp, ...rest } as SessionEntry;
}

export function appendLabel(ctx: StoreContext, sessionId: string, targetId: string, label: string | undefined): SessionEntry {
  if (!ctx.sessions.entryInfo(sessionId, targetId)) throw new StoreError(`Entry ${targetId} not found`);
  const body: NewEntry = { type: "label", targetId };
  if (label !== undefined && label !== "") body.label = label;
  // the target is checked again once the file has been read up to date
  return appendEntry(ctx, sessionId, body, { expect: { exists: [targetId] } });
}

