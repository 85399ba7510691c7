/**
 * The open session's amnesia report (backend getAmnesiaReport, computed off the backend's main
 * thread), loaded the first time a compaction node or the panel needs it and again when the session
 * changes while it is shown; and the entries of the finding the user picked, highlighted in the tree.
 */
import { create } from "zustand";
import type { AmnesiaFindingDto, AmnesiaReportDto } from "@bonsai/ipc";
import { api, errorMessage } from "../../lib/api";
import { useExplorer } from "../store";

interface AmnesiaState {
  sessionId: string | null;
  report: AmnesiaReportDto | null;
  status: "idle" | "loading" | "ready" | "failed";
  error: string | null;
  /** entries of the picked finding */
  highlight: ReadonlySet<string>;
  /** the picked finding */
  picked: AmnesiaFindingDto | null;
  /** loads the report of a session (once, unless `force`) */
  load(sessionId: string, force?: boolean): Promise<void>;
  /** highlights a finding's entries and reveals its latest one */
  pick(finding: AmnesiaFindingDto): void;
}

const NONE: ReadonlySet<string> = new Set();
let seq = 0;

export const useAmnesia = create<AmnesiaState>()((set, get) => ({
  sessionId: null,
  report: null,
  status: "idle",
  error: null,
  highlight: NONE,
  picked: null,

  async load(sessionId, force = false) {
    const s = get();
    if (!force && s.sessionId === sessionId && s.status !== "idle") return;
    const mine = ++seq;
    set(s.sessionId === sessionId ? { status: "loading" } : { sessionId, report: null, status: "loading", error: null, highlight: NONE, picked: null });
    try {
      const report = await api().getAmnesiaReport({ sessionId });
      if (mine === seq) set({ report, status: "ready", error: null });
    } catch (err) {
      if (mine === seq) set({ status: "failed", error: errorMessage(err) });
    }
  },

  pick(finding) {
    set({ highlight: new Set(finding.entryIds), picked: finding });
    // every entry comes out of its collapsed segment; the latest ends selected and centred
    const explorer = useExplorer.getState();
    for (const id of finding.entryIds) explorer.reveal(id, "amnesia");
  },
}));

/** The explorer opened another session, or the open one changed: the report follows. */
useExplorer.subscribe((s, prev) => {
  const a = useAmnesia.getState();
  if (s.sessionId !== prev.sessionId) {
    useAmnesia.setState({ sessionId: null, report: null, status: "idle", error: null, highlight: NONE, picked: null });
  } else if (s.skeleton !== prev.skeleton && s.sessionId !== null && a.sessionId === s.sessionId && a.status === "ready") {
    void a.load(s.sessionId, true);
  }
});
