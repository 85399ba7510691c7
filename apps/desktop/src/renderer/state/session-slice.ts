/** The open session: its summary, its tree skeleton, and the selected entry. */
import { unpackSkeleton, type TreeSkeleton } from "@bonsai/core";
import type { EventPayload, SessionSummary } from "@bonsai/ipc";
import { api, errorMessage } from "../lib/api";
import type { Slice } from "./types";

export interface SessionSlice {
  openSessionId: string | null;
  session: SessionSummary | null;
  skeleton: TreeSkeleton | null;
  sessionLoading: boolean;
  sessionError: string | null;
  selectedEntryId: string | null;
  openSession(sessionId: string): Promise<void>;
  closeSession(): void;
  /** refetch the open session's skeleton (after the leaf moved, pruning, labels, ...) */
  reloadSkeleton(): Promise<void>;
  /** after entries were added: fetch only the nodes after those held (the whole skeleton if need be) */
  extendSkeleton(): Promise<void>;
  selectEntry(entryId: string | null): void;
  onSessionUpdated(p: EventPayload<"sessionUpdated">): void;
}

export const createSessionSlice: Slice<SessionSlice> = (set, get) => ({
  openSessionId: null,
  session: null,
  skeleton: null,
  sessionLoading: false,
  sessionError: null,
  selectedEntryId: null,

  async openSession(sessionId) {
    // the explorer benchmark reads these two marks (request sent -> skeleton unpacked)
    performance.mark("bonsai:open:start");
    set({ openSessionId: sessionId, session: null, skeleton: null, sessionLoading: true, sessionError: null, selectedEntryId: null });
    try {
      const { session, skeleton } = await api().openSession({ sessionId });
      if (get().openSessionId !== sessionId) return; // another session was opened meanwhile
      const unpacked = unpackSkeleton(skeleton);
      performance.mark("bonsai:open:answer");
      set({ session, skeleton: unpacked, sessionLoading: false });
    } catch (err) {
      if (get().openSessionId !== sessionId) return;
      set({ sessionLoading: false, sessionError: errorMessage(err) });
    }
  },

  closeSession() {
    set({ openSessionId: null, session: null, skeleton: null, sessionError: null, selectedEntryId: null });
  },

  async reloadSkeleton() {
    const sessionId = get().openSessionId;
    if (!sessionId) return;
    try {
      const skeleton = await api().getSkeleton({ sessionId });
      if (get().openSessionId === sessionId) set({ skeleton: unpackSkeleton(skeleton) });
    } catch (err) {
      get().notify("error", `Could not reload the session: ${errorMessage(err)}`);
    }
  },

  async extendSkeleton() {
    const sessionId = get().openSessionId;
    const held = get().skeleton;
    if (!sessionId || !held || held.sessionId !== sessionId) return get().reloadSkeleton();
    try {
      const { from, skeleton } = await api().getSkeletonTail({ sessionId, count: held.nodes.length, lastId: held.nodes.at(-1)?.id ?? null });
      if (get().openSessionId !== sessionId) return;
      const tail = unpackSkeleton(skeleton);
      if (from === 0) return set({ skeleton: tail });
      // answers come in order: this one is the newest; it fits what is held now if the prefix agrees
      const now = get().skeleton;
      if (!now || now.nodes.length < from || now.nodes[from - 1]!.id !== held.nodes[from - 1]!.id) return get().reloadSkeleton();
      set({ skeleton: { sessionId, leafId: tail.leafId, nodes: now.nodes.slice(0, from).concat(tail.nodes) } });
    } catch (err) {
      get().notify("error", `Could not reload the session: ${errorMessage(err)}`);
    }
  },

  selectEntry(entryId) {
    set({ selectedEntryId: entryId });
  },

  onSessionUpdated(p) {
    const held = get().skeleton;
    if (p.sessionId === get().openSessionId) {
      // a leaf move changes no node: the event says where the leaf is now (a leaf not held yet, an
      // entry just appended, comes with the nodes after those held)
      const leafHeld = (h: TreeSkeleton) => h.sessionId === p.sessionId && (p.leafId === null || h.nodes.some((n) => n.id === p.leafId));
      if (p.reason === "leaf-moved" && held && leafHeld(held)) {
        if (held.leafId !== p.leafId) set({ skeleton: { ...held, leafId: p.leafId } });
      } else if (p.reason === "entries-added" || p.reason === "leaf-moved") void get().extendSkeleton();
      else void get().reloadSkeleton();
    }
    // entry counts and dates in the list change too
    void get().refreshSessions();
  },
});
