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
  /** refetch the open session's skeleton (after entries were added, the leaf moved, ...) */
  reloadSkeleton(): Promise<void>;
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

  selectEntry(entryId) {
    set({ selectedEntryId: entryId });
  },

  onSessionUpdated(p) {
    if (p.sessionId === get().openSessionId) void get().reloadSkeleton();
    // entry counts and dates in the list change too
    void get().refreshSessions();
  },
});
