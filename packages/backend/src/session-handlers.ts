/**
 * Handlers over the store (and pure core): sessions, tree and entry reads, search, labels, context
 * preview. Thin: each maps contract DTOs to store calls. Imports: import-handlers.ts; exports:
 * export-handlers.ts.
 */
import * as path from "node:path";
import { entryContextTokens, lazyPackedSkeleton, messageFromEntry, packSkeleton, unpackSkeleton, type BonsaiSettings, type PackedSkeleton, type SkeletonNode, type TreeSkeleton } from "@bonsai/core";
import { IpcError, withJson, type EntryDetail, type EventSink, type Handlers, type ImportResult, type SessionSummary } from "@bonsai/ipc";
import type { SessionStore, SessionSummary as StoredSummary, StoreJobs } from "@bonsai/store";
import { contextPreview } from "./context-preview";
import { requireWritable } from "./read-only";
import { contractSnippets } from "./search-snippet";
import type { SessionFolders } from "./session-folders";
import type { SessionCounts, SessionStats } from "./session-stats";
import type { UndoLog } from "./undo";

type SessionHandlerNames =
  | "listSessions"
  | "findSessionFolders"
  | "setSessionTitle"
  | "openSession"
  | "getSkeleton"
  | "getSkeletonTail"
  | "getPreviews"
  | "getEntry"
  | "getEntries"
  | "searchSessions"
  | "deleteSession"
  | "getContextPreview"
  | "setLabel";

export interface SessionHandlerDeps {
  store: SessionStore;
  /** bulk store work (deleting a session's rows) */
  jobs: StoreJobs;
  emit: EventSink;
  settings: () => BonsaiSettings;
  skeletons: SkeletonCache;
  stats: SessionStats;
  /** the agents' session folders (findSessionFolders) */
  folders: () => SessionFolders;
  /** the change each session can undo (a label is one) */
  undos: UndoLog;
  /** start following the source file of an opened session */
  follow: (sessionId: string) => void;
  /** a session was opened (remembered for the next start's read-ahead) */
  opened?: (sessionId: string) => void;
  /** the sessions were listed (after the answer is made) */
  listed?: () => void;
}

/** The session as the list shows it: Bonsai's title when one was given, else the file's, the first prompt, the file name. */
export function toSummary(s: StoredSummary, customTitle?: string, counts?: SessionCounts | null): SessionSummary {
  const firstLine = s.firstMessage.split("\n", 1)[0]?.trim() ?? "";
  const title = customTitle ?? s.title ?? (firstLine !== "" ? firstLine.slice(0, 120) : s.sourcePath ? path.basename(s.sourcePath) : s.id);
  return {
    id: s.id,
    title,
    cwd: s.cwd,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    entryCount: s.entryCount,
    leafId: s.leafId,
    sourcePath: s.sourcePath,
    ...(s.detached !== null ? { detached: s.detached } : {}),
    agent: s.agent,
    compactionCount: s.compactionCount,
    ...(s.readOnly !== null ? { readOnly: s.readOnly } : {}),
    parentSession: s.parentSession,
    customTitle: customTitle !== undefined,
    branches: counts?.branches ?? null,
    contextTokens: counts?.contextTokens ?? null,
    estimatedTokens: counts?.estimatedTokens ?? null,
  };
}

/** New nodes that change an older node: a label entry sets its target's label. */
function relabelsOlderNodes(added: readonly SkeletonNode[]): boolean {
  return added.some((n) => n.type === "label");
}

/** skeletons read ahead after an import (the last sessions of the import) */
const PREPARED_SKELETONS = 2;

/**
 * Skeletons per session, dropped when the store reports a change (the renderer refetches often),
 * with their packed wire form (what openSession and getSkeleton send). The packed form of a session not
 * held is read by a store job (`packedAsync`: on the store worker in the app and `bonsai serve`, so
 * reading 100,000 rows does not hold this thread); the node objects are unpacked from it only when
 * a call needs them.
 */
export class SkeletonCache {
  readonly #cache = new Map<
    string,
    { skeleton?: TreeSkeleton; packed?: PackedSkeleton }
  >();
  /** bumped when a session's skeleton is dropped: a job's answer for an older one is not kept */
  readonly #generation = new Map<string, number>();
  /** store jobs reading a packed skeleton, by session */
  readonly #reading = new Map<string, { generation: number; packed: Promise<PackedSkeleton> }>();
  constructor(
    private readonly store: SessionStore,
    private readonly jobs?: StoreJobs,
  ) {}
  #put(sessionId: string, slot: { skeleton?: TreeSkeleton; packed?: PackedSkeleton }) {
    this.#cache.delete(sessionId);
    this.#cache.set(sessionId, slot);
    if (this.#cache.size > 8) this.#cache.delete(this.#cache.keys().next().value as string);
    return slot;
  }
  #slot(sessionId: string) {
    const slot = this.#cache.get(sessionId) ?? this.#put(sessionId, { skeleton: this.store.getSkeleton(sessionId) });
    slot.skeleton ??= unpackSkeleton(slot.packed as PackedSkeleton);
    return slot as { skeleton: TreeSkeleton; packed?: PackedSkeleton };
  }
  get(sessionId: string): TreeSkeleton {
    return this.#slot(sessionId).skeleton;
  }
  /** the skeleton in its wire form, with the previews of the entries drawn on their own only */
  packed(sessionId: string): PackedSkeleton {
    const held = this.#cache.get(sessionId);
    if (held?.packed) return held.packed;
    if (held?.skeleton) return (held.packed = packSkeleton(held.skeleton, { previews: "heads" }));
    // read into columns at once: no node objects built only to be packed
    const packed = this.store.getPackedSkeleton(sessionId);
    this.#put(sessionId, { packed });
    return packed;
  }
  /** the previews of these entries ("" for an id not in the session) */
  previews(sessionId: string, entryIds: readonly string[]): string[] {
    // from the store by id (indexed): the held skeleton may be the heads-only wire form a store job read
    return this.store.getPreviews(sessionId, entryIds);
  }
  /** the skeleton in its wire form, read by a store job when it is not held */
  async packedAsync(sessionId: string): Promise<PackedSkeleton> {
    const held = this.#cache.get(sessionId);
    if (held?.packed) {
      // the worker's background work (indexing an import) waits while the page draws this one
      this.jobs?.call("quiet").catch(() => undefined);
      return held.packed;
    }
    if (held?.skeleton || !this.jobs) return this.packed(sessionId);
    const generation = this.#generation.get(sessionId) ?? 0;
    // a read of the same skeleton already under way (the one an import starts, and the open that
    // follows it at once) is shared, not done twice
    const running = this.#reading.get(sessionId);
    if (running && running.generation === generation) return running.packed;
    // the worker's JSON text goes out in the answers as it is (withJson), and is parsed here only
    // when something reads the skeleton (lazyPackedSkeleton): not on the way of the open's answer
    const read = this.jobs.call("packedSkeleton", sessionId).then((json) => withJson(lazyPackedSkeleton(json), json));
    this.#reading.set(sessionId, { generation, packed: read });
    try {
      const packed = await read;
      // dropped meanwhile (the session changed): this one is only the answer to the calls that asked
      if ((this.#generation.get(sessionId) ?? 0) === generation && !this.#cache.get(sessionId)?.packed) this.#put(sessionId, { packed });
      return packed;
    } finally {
      if (this.#reading.get(sessionId)?.packed === read) this.#reading.delete(sessionId);
    }
  }
  invalidate(sessionId: string): void {
    this.#cache.delete(sessionId);
    this.#generation.set(sessionId, (this.#generation.get(sessionId) ?? 0) + 1);
  }
  /**
   * Entries were appended (by the engine, or read from a followed file): read only the new nodes
   * and add them. A label entry among them changes an older node's label: read everything again.
   */
  extend(sessionId: string): void {
    const slot = this.#cache.get(sessionId);
    if (!slot) return;
    const skeleton = slot.skeleton ?? unpackSkeleton(slot.packed as PackedSkeleton);
    const tail = this.store.getSkeletonTail(sessionId, skeleton.nodes.length);
    if (relabelsOlderNodes(tail)) {
      this.invalidate(sessionId);
      return;
    }
    this.#cache.set(sessionId, { skeleton: { sessionId, leafId: this.store.getLeaf(sessionId), nodes: skeleton.nodes.concat(tail) } });
  }
  /** The leaf moved: the nodes are the same. */
  moveLeaf(sessionId: string): void {
    const slot = this.#cache.get(sessionId);
    if (!slot) return;
    const leafId = this.store.getLeaf(sessionId);
    if (slot.skeleton && leafId !== slot.skeleton.leafId) this.#cache.set(sessionId, { skeleton: { ...slot.skeleton, leafId } });
    else if (!slot.skeleton && slot.packed && leafId !== slot.packed.leafId) this.#cache.set(sessionId, { packed: { ...slot.packed, leafId } });
  }
  /**
   * The nodes after the first `count` for a client that holds those (its last one `lastId`): packed
   * with `from` = count, or the whole skeleton (`from` 0) when what it holds is not a prefix of the
   * current one, or a label among the new nodes changed an older node.
   */
  tail(sessionId: string, count: number, lastId: string | null): { from: number; skeleton: PackedSkeleton } {
    const { nodes, leafId } = this.get(sessionId);
    const prefixHeld = count > 0 && count <= nodes.length && nodes[count - 1]!.id === lastId;
    const after = prefixHeld ? nodes.slice(count) : [];
    if (!prefixHeld || relabelsOlderNodes(after)) return { from: 0, skeleton: this.packed(sessionId) };
    return { from: count, skeleton: packSkeleton({ sessionId, leafId, nodes: after }) };
  }
}

/**
 * A session just imported is usually the next one opened: its packed skeleton is read (by a store
 * job) once the import's answer is on its way, so openSession finds it ready.
 */
export function prepareSkeletons(skeletons: SkeletonCache, results: readonly ImportResult[]): void {
  const ids = results.flatMap((r) => (r.ok && r.sessionId ? [r.sessionId] : [])).slice(-PREPARED_SKELETONS);
  if (ids.length === 0) return;
  setImmediate(() => {
    for (const id of ids) {
      // removed meanwhile: openSession will say so
      skeletons.packedAsync(id).catch(() => undefined);
    }
  });
}

export function requireSession(store: SessionStore, sessionId: string): StoredSummary {
  const s = store.getSession(sessionId);
  if (!s) throw new IpcError("not_found", `no session ${sessionId}`);
  return s;
}

/** entries a search indexes on the backend's thread before it looks (~40 ms); more are left to background indexing */
export const SEARCH_INDEX_BUDGET = 1000;

export function sessionHandlers(deps: SessionHandlerDeps): Pick<Handlers, SessionHandlerNames> {
  const { store, emit, skeletons, stats } = deps;
  const summaryOf = (s: StoredSummary): SessionSummary => toSummary(s, store.getSessionTitles().get(s.id), stats.of(s));

  const detail = (sessionId: string, entryId: string, onActivePath: boolean): EntryDetail => {
    const entry = store.getEntry(sessionId, entryId);
    if (!entry) throw new IpcError("not_found", `no entry ${entryId} in session ${sessionId}`);
    const message = messageFromEntry(entry);
    // only a pruned tool result has an original to show (listPruned reads every original of the session)
    const isPruned = message?.role === "toolResult" && message.prunedAt !== undefined;
    const pruned = isPruned ? store.listPruned(sessionId).find((p) => p.entryId === entryId) : undefined;
    const original = pruned ? (messageFromEntry(pruned.original) as { content?: unknown } | undefined) : undefined;
    return {
      entry,
      tokens: entryContextTokens(entry),
      prunedOriginal: Array.isArray(original?.content) ? (original.content as Record<string, unknown>[]) : null,
      onActivePath,
    };
  };
  return {
    listSessions: () => {
      const sessions = store.listSessions();
      const titles = store.getSessionTitles();
      const counts = stats.forList(sessions);
      const answer = { sessions: sessions.map((s) => toSummary(s, titles.get(s.id), counts.get(s.id))) };
      deps.listed?.();
      return answer;
    },

    findSessionFolders: () => ({ folders: deps.folders().found() }),

    setSessionTitle: ({ sessionId, title }) => {
      requireSession(store, sessionId);
      store.setSessionTitle(sessionId, title);
      emit("sessionsChanged", {});
      return { session: summaryOf(requireSession(store, sessionId)) };
    },

    openSession: async ({ sessionId }) => {
      const session = requireSession(store, sessionId);
      if (session.sourcePath) deps.follow(sessionId);
      deps.opened?.(sessionId);
      return { session: summaryOf(session), skeleton: await skeletons.packedAsync(sessionId) };
    },

    getSkeleton: ({ sessionId }) => {
      requireSession(store, sessionId);
      return skeletons.packedAsync(sessionId);
    },

    getPreviews: ({ sessionId, entryIds }) => {
      requireSession(store, sessionId);
      return { previews: skeletons.previews(sessionId, entryIds) };
    },

    getSkeletonTail: ({ sessionId, count, lastId }) => {
      requireSession(store, sessionId);
      return skeletons.tail(sessionId, count, lastId);
    },

    getEntry: ({ sessionId, entryId }) => {
      requireSession(store, sessionId);
      // from the path's seq ranges in the store: no skeleton is read or unpacked for it
      return detail(sessionId, entryId, store.isOnPath(sessionId, entryId));
    },

    getEntries: ({ sessionId, entryIds }) => {
      requireSession(store, sessionId);
      const active = store.areOnPath(sessionId, entryIds);
      return { entries: entryIds.map((id, i) => detail(sessionId, id, active[i] as boolean)) };
    },

    searchSessions: ({ query, sessionId, limit }) => {
      const snippet = contractSnippets(query);
      // what was stored a moment ago is indexed first, up to SEARCH_INDEX_BUDGET entries: a year of
      // sessions imported by the CLI (never indexed) would hold this thread for many seconds; the
      // rest is indexed in the background (the store worker's thread when there is one) and the
      // answer says how much is still to come
      const hits = store.search(query, { sessionId, limit, indexLimit: SEARCH_INDEX_BUDGET });
      const unindexed = store.unindexedCount(sessionId);
      if (unindexed > 0) deps.jobs.call("index").catch(() => undefined);
      return {
        unindexed,
        hits: hits.map((h) => ({
          sessionId: h.sessionId,
          sessionTitle: h.sessionTitle ?? h.sessionId,
          entryId: h.entryId,
          type: h.type,
          role: h.role,
          timestamp: h.timestamp,
          snippet: snippet(h.snippet),
        })),
      };
    },

    deleteSession: async ({ sessionId }) => {
      if (!store.getSession(sessionId)) return { deleted: false };
      // every row of a session of any size: a store job
      await deps.jobs.call("deleteSession", sessionId);
      skeletons.invalidate(sessionId);
      stats.forget(sessionId);
      emit("sessionsChanged", {});
      return { deleted: true };
    },

    getContextPreview: ({ sessionId, leafId, allMessages }) => {
      requireSession(store, sessionId);
      if (leafId && !store.getEntry(sessionId, leafId)) throw new IpcError("not_found", `no entry ${leafId} in session ${sessionId}`);
      const leaf = leafId === undefined ? store.getLeaf(sessionId) : leafId;
      return contextPreview(store, sessionId, leaf, deps.settings(), { allMessages: allMessages === true });
    },

    setLabel: ({ sessionId, entryId, label }) => {
      requireWritable(store, sessionId);
      if (!store.getEntry(sessionId, entryId)) throw new IpcError("not_found", `no entry ${entryId} in session ${sessionId}`);
      const previous = skeletons.get(sessionId).nodes.find((n) => n.id === entryId)?.label;
      const before = store.getLeaf(sessionId);
      const entry = store.appendLabel(sessionId, entryId, label ?? undefined);
      deps.undos.record(sessionId, { kind: "label", entryId: entry.id, before, after: entry.id, label: { targetId: entryId, previous } });
      return { labelEntryId: entry.id };
    },
  };
}
