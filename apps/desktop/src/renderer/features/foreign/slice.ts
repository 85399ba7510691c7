/**
 * The explorer's part for sessions of other agents (Claude Code, Codex), which Bonsai never writes:
 * "Continue in pi" (the path to the leaf as a new pi session in pi's own folder, imported and
 * opened), and the copies made in this window (where each was written, shown on its view).
 */
import type { PiCopy } from "@bonsai/ipc";
import { api, errorMessage } from "../../lib/api";
import { useBonsai } from "../../state/store";
import type { ExplorerState } from "../store";

export interface ForeignSlice {
  /** pi copies made in this window, by the copy's session id */
  piCopies: Record<string, PiCopy>;
  /** a Continue in pi call is running */
  continuing: boolean;
  /** writes the pi copy of the open session's path to its leaf, opens it, and says where it is */
  continueInPi(): Promise<void>;
}

type Set = (patch: Partial<ExplorerState>) => void;
type Get = () => ExplorerState;

export function createForeignSlice(set: Set, get: Get): ForeignSlice {
  return {
    piCopies: {},
    continuing: false,
    async continueInPi() {
      const { sessionId, skeleton } = get();
      if (!sessionId || get().continuing) return;
      set({ continuing: true });
      try {
        const copy = await api().continueInPi({ sessionId, leafId: skeleton?.leafId ?? null });
        set({ piCopies: { ...get().piCopies, [copy.sessionId]: copy } });
        get().notify("info", copy.message);
        await useBonsai.getState().openSession(copy.sessionId);
      } catch (err) {
        get().notify("error", `Continue in pi failed: ${errorMessage(err)}`);
      } finally {
        set({ continuing: false });
      }
    },
  };
}
