/**
 * Skeletons: the compact tree a page draws (id, parent, type, role, tokens, preview, flags), the last
 * few kept in memory while nothing changed, packed for the page, and kept in the database for a big
 * session (reads/skeleton-cache.ts).
 */
import { packSkeleton, type PackedSkeleton, type SkeletonNode, type TreeSkeleton } from "@bonsai/core";
import { FLAG_FROM_EXTENSION, FLAG_OFFLINE, FLAG_PRUNED, FLAG_THINKING } from "../derive";
import { readPackedSkeleton } from "../reads/packed-skeleton";
import { packedSkeletonJson, type SkeletonJson } from "../reads/skeleton-cache";
import { sql, type StoreContext } from "./context";

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

/** skeletons kept in memory (the sessions most recently drawn) */
const SKELETON_CACHE = 3;

/** Changes when entries change here or another connection (CLI, worker) commits to the file. */
function skeletonStamp(ctx: StoreContext): string {
  return `${String(ctx.db.pragma("data_version", { simple: true }))}:${ctx.state.entryWrites}`;
}

export function getSkeleton(ctx: StoreContext, sessionId: string): TreeSkeleton {
  const row = ctx.sessions.require(sessionId);
  const stamp = skeletonStamp(ctx);
  const cached = ctx.state.skeletons.get(sessionId);
  if (cached && cached.stamp === stamp) return { sessionId, leafId: row.leaf_id, nodes: [...cached.nodes] };
  const nodes = readSkeletonNodes(ctx, sessionId);
  ctx.state.skeletons.delete(sessionId);
  ctx.state.skeletons.set(sessionId, { stamp, nodes });
  while (ctx.state.skeletons.size > SKELETON_CACHE) ctx.state.skeletons.delete(ctx.state.skeletons.keys().next().value as string);
  return { sessionId, leafId: row.leaf_id, nodes: [...nodes] };
}

export function getPackedSkeleton(ctx: StoreContext, sessionId: string): PackedSkeleton {
  const row = ctx.sessions.require(sessionId);
  return readPackedSkeleton(ctx.statements, sessionId, row.leaf_id, () => packSkeleton(getSkeleton(ctx, sessionId), { previews: "heads" }));
}

/**
 * getPackedSkeleton as JSON text, for a store job to send: a big session's is kept in the
 * database between starts and read again only when the session changed (reads/skeleton-cache.ts);
 * `keep` stores one just read (run it after answering).
 */
export function getPackedSkeletonJson(ctx: StoreContext, sessionId: string): SkeletonJson {
  return packedSkeletonJson(ctx.statements, sessionId, () => getPackedSkeleton(ctx, sessionId));
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

