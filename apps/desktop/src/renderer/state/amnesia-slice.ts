/**
 * The open session's amnesia report (backend getAmnesiaReport, computed off the backend's main
 * thread), loaded the first time a compaction node or the panel needs it and again when the tree
 * changes while it is shown (backend-events.ts); and the entries of the finding the user picked,
 * highlighted in the tree.
 */
import type { AmnesiaFindingDto, AmnesiaReportDto } from "@bonsai/ipc";
import { api, errorMessage } from "../lib/api";
import type { Slice } from "./types";

export interface AmnesiaState {
  sessionId: string | null;
  report: AmnesiaReportDto | null;
  status: "idle" | "loading" | "ready" | "failed";
  error: string | null;
  /** entries of the picked finding */
  highlight: ReadonlySet<string>;
  /** the picked finding */
  picked: AmnesiaFindingDto | null;
}

export interface AmnesiaSlice {
  amnesia: AmnesiaState;
  /** loads the report of a session (once, unless `force`) */
  loadAmnesia(sessionId: string, force?: boolean): Promise<void>;
  /** highlights a finding's entries and reveals its latest one */
  pickAmnesia(finding: AmnesiaFindingDto): void;
  resetAmnesia(): void;
}

const NONE: ReadonlySet<string> = new Set();
const IDLE: AmnesiaState = { sessionId: null, report: null, status: "idle", error: null, highlight: NONE, picked: null };
let seq = 0;

export const createAmnesiaSlice: Slice<AmnesiaSlice> = (set, get) => ({
  amnesia: IDLE,

  async loadAmnesia(sessionId, force = false) {
    const a = get().amnesia;
    if (!force && a.sessionId === sessionId && a.status !== "idle") return;
    const mine = ++seq;
    set({ amnesia: a.sessionId === sessionId ? { ...a, status: "loading" } : { ...IDLE, sessionId, status: "loading" } });
    try {
      const report = await api().getAmnesiaReport({ sessionId });
      if (mine === seq) set({ amnesia: { ...get().amnesia, report, status: "ready", error: null } });
    } catch (err) {
      if (mine === seq) set({ amnesia: { ...get().amnesia, status: "failed", error: errorMessage(err) } });
    }
  },

  pickAmnesia(finding) {
    set({ amnesia: { ...get().amnesia, highlight: new Set(finding.entryIds), picked: finding } });
    // every entry comes out of its collapsed segment; the latest ends selected and centred
    for (const id of finding.entryIds) get().reveal(id, "amnesia");
  },

  resetAmnesia() {
    seq++;
    set({ amnesia: IDLE });
  },
});
