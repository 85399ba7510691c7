/**
 * The skeleton reads the page asks for. The store holds the skeletons it read (in memory while the
 * session is as it was read in, and a big session's in its `skeleton_cache` table between starts:
 * packages/store/src/modules/skeletons.ts); the backend keeps none of its own. A whole skeleton not
 * held is read by a store job (on the store worker in the app and `bonsai serve`, so reading 100,000
 * rows does not hold this thread); a tail is a narrow read here.
 */
import { lazyPackedSkeleton, packSkeleton, relabelsOlderNodes, type PackedSkeleton } from "@bonsai/core";
import { withJson, type ImportResult } from "@bonsai/ipc";
import type { HostStore } from "@bonsai/store";

/** skeletons read ahead after an import (the last sessions of the import) */
const PREPARED_SKELETONS = 2;

/**
 * The session's skeleton in its wire form: the one this thread's store holds while the session is
 * as it was read (no row read; the store worker may be busy with an import meanwhile), else read
 * by a store job, whose answer this thread's store then holds. Its JSON text goes out in the
 * answers as it is (withJson), and is parsed here only when something reads the skeleton
 * (lazyPackedSkeleton).
 */
export async function packedSkeleton(store: HostStore, sessionId: string): Promise<PackedSkeleton> {
  let json = store.heldPackedSkeletonJson(sessionId);
  if (json !== undefined) {
    // the worker's background work (indexing an import) waits while the page draws this one
    store.quiet().catch(() => undefined);
  } else {
    json = await readAndHold(store, sessionId);
  }
  return withJson(lazyPackedSkeleton(json), json);
}

async function readAndHold(store: HostStore, sessionId: string): Promise<string> {
  const read = await store.packedSkeleton(sessionId);
  store.holdPackedSkeletonJson(sessionId, read);
  return read.json;
}

/** Reads the session's skeleton ahead of its open (a store job), unless this thread's store holds it. */
export async function readSkeletonAhead(store: HostStore, sessionId: string): Promise<void> {
  if (store.heldPackedSkeletonJson(sessionId) === undefined) await readAndHold(store, sessionId);
}

/**
 * The nodes after the first `count` for a client that holds those (its last one `lastId`): packed
 * with `from` = count, or the whole skeleton (`from` 0) when what it holds is not a prefix of the
 * current one, or a label among the new nodes changed an older node. Reads the rows from the
 * client's last one on only.
 */
export async function skeletonTail(
  store: HostStore,
  sessionId: string,
  count: number,
  lastId: string | null,
): Promise<{ from: number; skeleton: PackedSkeleton }> {
  const fromLast = count > 0 ? store.getSkeletonTail(sessionId, count - 1) : [];
  const after = fromLast.slice(1);
  if (fromLast[0]?.id !== lastId || relabelsOlderNodes(after)) return { from: 0, skeleton: await packedSkeleton(store, sessionId) };
  return { from: count, skeleton: packSkeleton({ sessionId, leafId: store.getLeaf(sessionId), nodes: after }) };
}

/**
 * A session just imported is usually the next one opened: its packed skeleton is read (by a store
 * job, which holds it) once the import's answer is on its way, so openSession finds it ready.
 */
export function prepareSkeletons(store: HostStore, results: readonly ImportResult[]): void {
  const ids = results.flatMap((r) => (r.ok && r.sessionId ? [r.sessionId] : [])).slice(-PREPARED_SKELETONS);
  if (ids.length === 0) return;
  setImmediate(() => {
    for (const id of ids) {
      // removed meanwhile: openSession will say so
      readSkeletonAhead(store, id).catch(() => undefined);
    }
  });
}
