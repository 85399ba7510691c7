/**
 * Handlers over the store (and pure core): sessions, tree and entry reads, search, labels, context
 * preview. Thin: each maps contract DTOs to store calls. Imports: import-handlers.ts; exports:
 * export-handlers.ts.
 */
import * as path from "node:path";
import { entryContextTokens, messageFromEntry, sessionTitle, type BonsaiSettings } from "@bonsai/core";
import { IpcError, type EntryDetail, type EventSink, type Handlers, type SessionSummaryDto } from "@bonsai/ipc";
import type { CommitMatch, HostStore, SessionSummary as StoredSummary, StoreReads } from "@bonsai/store";
import { contextPreview } from "./context-preview";
import { requireWritable } from "./read-only";
import { contractSnippets } from "./search-snippet";
import type { SessionFolders } from "./session-folders";
import { packedSkeleton, skeletonTail } from "./skeleton-reads";
import type { SessionCounts, SessionStats } from "./session-stats";
import type { UndoLog } from "./undo";
import { usagePoints } from "./usage-points";

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
  | "getUsagePoints"
  | "setLabel";

export interface SessionHandlerDeps {
  store: HostStore;
  emit: EventSink;
  settings: () => BonsaiSettings;
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
  /** sessions imported from a checkpoint branch found by a commit's sha prefix or a file it changed (store sessionsByCommitOrFile) */
  commitMatches?: (query: string) => readonly CommitMatch[];
}

/** The session as the list shows it: core's title rule (sessionTitle), else the file name, else its id. */
export function toSummary(s: StoredSummary, customTitle?: string, counts?: SessionCounts | null): SessionSummaryDto {
  const title = sessionTitle({ given: customTitle, name: s.title, firstPrompt: s.firstMessage }) ?? (s.sourcePath ? path.basename(s.sourcePath) : s.id);
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

export function requireSession(store: Pick<StoreReads, "getSession">, sessionId: string): StoredSummary {
  const s = store.getSession(sessionId);
  if (!s) throw new IpcError("not_found", `no session ${sessionId}`);
  return s;
}

/** entries a search indexes on the backend's thread before it looks (~40 ms); more are left to background indexing */
export const SEARCH_INDEX_BUDGET = 1000;

export function sessionHandlers(deps: SessionHandlerDeps): Pick<Handlers, SessionHandlerNames> {
  const { store, emit, stats } = deps;
  const summaryOf = (s: StoredSummary): SessionSummaryDto => toSummary(s, store.getSessionTitles().get(s.id), stats.of(s));

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
      return { session: summaryOf(session), skeleton: await packedSkeleton(store, sessionId) };
    },

    getSkeleton: ({ sessionId }) => {
      requireSession(store, sessionId);
      return packedSkeleton(store, sessionId);
    },

    getPreviews: ({ sessionId, entryIds }) => {
      requireSession(store, sessionId);
      return { previews: store.getPreviews(sessionId, entryIds) };
    },

    getSkeletonTail: ({ sessionId, count, lastId }) => {
      requireSession(store, sessionId);
      return skeletonTail(store, sessionId, count, lastId);
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
      // each hit's session named as the list names it (the title rule), looked up once a session
      const given = store.getSessionTitles();
      const titles = new Map<string, string>();
      const titleOf = (id: string, stored: string | null): string => {
        let title = titles.get(id);
        if (title === undefined) {
          const s = store.getSession(id);
          title = s ? toSummary(s, given.get(id)).title : (stored ?? id);
          titles.set(id, title);
        }
        return title;
      };
      const unindexed = store.unindexedCount(sessionId);
      if (unindexed > 0) store.index().catch(() => undefined);
      // a session imported from a checkpoint branch is also found by its commits (sha prefix, a file
      // they changed): the hit opens the session at its leaf, as the CLI's search lists it first
      const commitHits = (deps.commitMatches?.(query) ?? []).flatMap((m) => {
        const s = sessionId === undefined || m.sessionId === sessionId ? store.getSession(m.sessionId) : undefined;
        if (!s || s.leafId === null) return [];
        const sha = m.commit.sha.slice(0, 10);
        const text = m.file ? `commit ${sha} ${m.commit.subject} (changed [${m.file}])` : `commit [${sha}] ${m.commit.subject}`;
        return [{ sessionId: s.id, sessionTitle: titleOf(s.id, s.title), entryId: s.leafId, type: "commit", role: null, timestamp: m.commit.date, snippet: snippet(text) }];
      });
      return {
        unindexed,
        hits: [...commitHits, ...hits.map((h) => ({
          sessionId: h.sessionId,
          sessionTitle: titleOf(h.sessionId, h.sessionTitle),
          entryId: h.entryId,
          type: h.type,
          role: h.role,
          timestamp: h.timestamp,
          snippet: snippet(h.snippet),
        }))],
      };
    },

    deleteSession: async ({ sessionId }) => {
      if (!store.getSession(sessionId)) return { deleted: false };
      // every row of a session of any size: a store job
      await store.deleteSession(sessionId);
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

    getUsagePoints: ({ sessionId, after }) => {
      requireSession(store, sessionId);
      return usagePoints(store, sessionId, after);
    },

    setLabel: ({ sessionId, entryId, label }) => {
      requireWritable(store, sessionId);
      if (!store.getEntry(sessionId, entryId)) throw new IpcError("not_found", `no entry ${entryId} in session ${sessionId}`);
      const previous = store.getLabel(sessionId, entryId);
      const before = store.getLeaf(sessionId);
      const entry = store.appendLabel(sessionId, entryId, label ?? undefined);
      deps.undos.record(sessionId, { kind: "label", entryId: entry.id, before, after: entry.id, label: { targetId: entryId, previous, next: label ?? undefined } });
      return { labelEntryId: entry.id };
    },
  };
}
