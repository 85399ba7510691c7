/**
 * Sessions of other agents (Claude Code, Codex), which Bonsai never writes: "Continue in pi" (the
 * path to the leaf as a new pi session in pi's own folder, imported and opened), and the copies
 * made in this window (where each was written, shown on its view).
 */
import type { PiCopy } from "@bonsai/ipc";
import { api, failureSentence } from "../lib/api";
import type { Slice } from "./types";

export interface ForeignSlice {
  /** pi copies made in this window, by the copy's session id */
  piCopies: Record<string, PiCopy>;
  /** a Continue in pi call is running */
  continuing: boolean;
  /** writes the pi copy of the open session's path to its leaf, opens it, and says where it is */
  continueInPi(): Promise<void>;
}

export const createForeignSlice: Slice<ForeignSlice> = (set, get) => ({
  piCopies: {},
  continuing: false,
  async continueInPi() {
    const { openSessionId: sessionId, skeleton } = get();
    if (!sessionId || get().continuing) return;
    set({ continuing: true });
    try {
      const copy = await api().continueInPi({ sessionId, leafId: skeleton?.leafId ?? null });
      set({ piCopies: { ...get().piCopies, [copy.sessionId]: copy } });
      await get().openSession(copy.sessionId);
      // said in the copy's view (notifications are scoped to the open session)
      get().notify("info", copy.message, copy.sessionId);
    } catch (err) {
      get().notify("error", failureSentence(err, "no pi copy was written"), sessionId);
    } finally {
      set({ continuing: false });
    }
  },
});
