/**
 * Skeletons: the compact tree a page draws (id, parent, type, role, tokens, preview, flags), packed
 * for the page. The one skeleton cache: the last few read are held in memory (nodes, packed JSON)
 * while the session's rows and leaf are as they were read in (skeletonState: another connection's
 * changes count too), appended rows read alone; a big session's packed one is also kept in the
 * database between starts (reads/skeleton-cache.ts).
 */
import { packSkeleton, relabelsOlderNodes, type PackedSkeleton, type SkeletonNode, type TreeSkeleton } from "@bonsai/core";
import { FLAG_FROM_EXTENSION, FLAG_OFFLINE, FLAG_PRUNED, FLAG_THINKING } from "../derive";
import { readPackedSkeleton } from "../reads/packed-skeleton";
import { packedSkeletonJson, skeletonState, type SkeletonJson, type SkeletonState } from "../reads/skeleton-cache";
import { sql, type HeldSkeleton, type StoreContext } from "./context";

const SKELETON_COLUMNS = "id, parent_id, type, role, timestamp, tokens, preview, tool_name, custom_type, stop_reason, ref_id, tokens_before, flags";
type SkeletonRow = [
  string,
  string | null,
  string,
  string | null,
  string,
  number,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  number | null,
  number,
];

/** skeletons held in memory (the sessions most recently drawn) */
const HELD_SKELETONS = 3;

/**
 * Rows added after the held ones and nothing else changed (same generation, same skeleton_rev):
 * the held nodes need only the new ones.
 */
function onlyAppended(held: SkeletonState, now: SkeletonState): boolean {
  return held.origin === now.origin && held.generation === now.generation && held.rev === now.rev && held.last < now.last;
}

const sameRows = (a: SkeletonState, b: SkeletonState): boolean => a.origin === b.origin && a.generation === b.generation && a.rev === b.rev && a.last === b.last;

/**
 * Holds a skeleton read outside any transaction of the caller's only: one read inside a write that
 * is rolled back would be of a state numbered like a later one.
 */
function hold(ctx: StoreContext, sessionId: string, skeleton: HeldSkeleton, inCallersTransaction: boolean): void {
  if (inCallersTransaction) return;
  const held = ctx.state.skeletons;
  held.delete(sessionId);
  held.set(sessionId, skeleton);
  while (held.size > HELD_SKELETONS) held.delete(held.keys().next().value as string);
}

function requireState(ctx: StoreContext, sessionId: string): SkeletonState {
  ctx.sessions.require(sessionId);
  return skeletonState(ctx.statements, sessionId) as SkeletonState;
}

/**
 * The session's skeleton: the held one while its rows are as they were read, the held one and the
 * rows appended since (unless a label among them changes an older node), else read whole. The state
 * and the rows are read in one transaction (one snapshot).
 */
export function getSkeleton(ctx: StoreContext, sessionId: string): TreeSkeleton {
  const inCallersTransaction = ctx.db.inTransaction;
  return ctx.db.transaction(() => {
    const now = requireState(ctx, sessionId);
    const held = ctx.state.skeletons.get(sessionId);
    let nodes = held?.nodes && sameRows(held.state, now) ? held.nodes : undefined;
    if (!nodes && held?.nodes && onlyAppended(held.state, now)) {
      const added = readSkeletonNodes(ctx, sessionId, held.nodes.length);
      if (!relabelsOlderNodes(added)) nodes = held.nodes.concat(added);
    }
    nodes ??= readSkeletonNodes(ctx, sessionId);
    const packed = held?.packed && sameRows(held.state, now) ? held.packed : undefined;
    hold(ctx, sessionId, { state: now, nodes, ...(packed ? { packed } : {}) }, inCallersTransaction);
    return { sessionId, leafId: now.leafId, nodes: [...nodes] };
  })();
}

export function getPackedSkeleton(ctx: StoreContext, sessionId: string): PackedSkeleton {
  const row = ctx.sessions.require(sessionId);
  return readPackedSkeleton(ctx.statements, sessionId, row.leaf_id, () => packSkeleton(getSkeleton(ctx, sessionId), { previews: "heads" }));
}

/**
 * getPackedSkeleton as JSON text, for a store job to send: the held one while the session is as
 * it was read in (rows and leaf), else a big session's kept in the database between starts
 * (reads/skeleton-cache.ts), else read; `keep` stores one just read (run it after answering).
 */
export function getPackedSkeletonJson(ctx: StoreContext, sessionId: string): SkeletonJson {
  const inCallersTransaction = ctx.db.inTransaction;
  const now = requireState(ctx, sessionId);
  const held = ctx.state.skeletons.get(sessionId);
  if (held?.packed && sameRows(held.state, now) && held.packed.leafId === now.leafId) {
    // not kept in the database yet (its caller had not run keep): the caller of this one may
    return { json: held.packed.json, keep: held.packed.keep, state: now };
  }
  const read = packedSkeletonJson(ctx.statements, sessionId, () => getPackedSkeleton(ctx, sessionId));
  if (!read.state) return read;
  // the nodes held stay only when they are of the same rows
  const nodes = held?.nodes && sameRows(held.state, read.state) ? held.nodes : undefined;
  const packed: NonNullable<HeldSkeleton["packed"]> = { leafId: read.state.leafId, json: read.json, keep: null };
  const keep = read.keep;
  if (keep) {
    packed.keep = () => {
      packed.keep = null;
      keep();
    };
  }
  hold(ctx, sessionId, { state: read.state, ...(nodes ? { nodes } : {}), packed }, inCallersTransaction);
  return { ...read, keep: packed.keep };
}

/** The packed skeleton's JSON held for the session as it is now (rows and leaf), without reading a row of it; else undefined. */
export function heldPackedSkeletonJson(ctx: StoreContext, sessionId: string): string | undefined {
  const held = ctx.state.skeletons.get(sessionId);
  if (!held?.packed) return undefined;
  const now = skeletonState(ctx.statements, sessionId);
  return now && sameRows(held.state, now) && held.packed.leafId === now.leafId ? held.packed.json : undefined;
}

/**
 * Holds a packed skeleton another connection read (the store worker's answer) with the state it was
 * read in, when the session is still in that state (else nothing: it is read again when asked).
 */
export function holdPackedSkeletonJson(ctx: StoreContext, sessionId: string, read: { json: string; state?: SkeletonState }): void {
  const now = skeletonState(ctx.statements, sessionId);
  if (!read.state || !now || !sameRows(read.state, now) || read.state.leafId !== now.leafId) return;
  const held = ctx.state.skeletons.get(sessionId);
  const nodes = held?.nodes && sameRows(held.state, now) ? held.nodes : undefined;
  hold(ctx, sessionId, { state: now, ...(nodes ? { nodes } : {}), packed: { leafId: now.leafId, json: read.json, keep: null } }, ctx.db.inTransaction);
}

export function getSkeletonTail(ctx: StoreContext, sessionId: string, from: number): SkeletonNode[] {
  ctx.sessions.require(sessionId);
  return readSkeletonNodes(ctx, sessionId, Math.max(0, Math.floor(from)));
}

function readSkeletonNodes(ctx: StoreContext, sessionId: string, from = 0): SkeletonNode[] {
  const labels = new Map<string, string>();
  for (const l of sql(ctx, "SELECT target_id, label FROM labels WHERE session_id = ? AND label IS NOT NULL").raw().all(sessionId) as [string, string][]) {
    labels.set(l[0], l[1]);
  }
  // one pass over the rows as they come (no array of 100,000 row arrays to collect afterwards)
  const nodes: SkeletonNode[] = [];
  const rows = sql(ctx, `SELECT ${SKELETON_COLUMNS} FROM entries WHERE session_id = ? ORDER BY seq LIMIT -1 OFFSET ?`)
    .raw()
    .iterate(sessionId, from) as IterableIterator<SkeletonRow>;
  for (const r of rows) {
    const [id, parentId, type, role, timestamp, tokens, preview, toolName, customType, stopReason, refId, tokensBefore, flags] = r;
    const node: SkeletonNode = { id, parentId, type, role, timestamp, tokens, preview };
    const label = labels.get(id);
    if (label !== undefined) node.label = label;
    if (toolName !== null) node.toolName = toolName;
    if (flags & FLAG_PRUNED) node.pruned = true;
    if (flags & FLAG_THINKING) node.thinking = true;
    if (flags & FLAG_FROM_EXTENSION) node.fromExtension = true;
    if (flags & FLAG_OFFLINE) node.offline = true;
    if (stopReason !== null) node.stopReason = stopReason;
    if (customType !== null) node.customType = customType;
    if (refId !== null) {
      if (type === "compaction") node.firstKeptEntryId = refId;
      else node.fromId = refId;
    }
    if (tokensBefore !== null) node.tokensBefore = tokensBefore;
    nodes.push(node);
  }
  return nodes;
}

