/**
 * The open session's amnesia report (backend getAmnesiaReport, computed off the backend's main
 * thread), loaded the first time the panel needs it; its scores alone (getAmnesiaScores: the whole
 * report runs to megabytes on a long session, and taking it in while the tree pans cost a frame of
 * 200 ms), loaded the first time a compaction node is drawn. Each is loaded again when the tree
 * changes while it is held (backend-events.ts). And the entries of the finding the user picked,
 * highlighted in the tree.
 */
import type { AmnesiaFindingDto, AmnesiaReportDto, AmnesiaScoresDto } from "@bonsai/ipc";
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

export type AmnesiaScore = AmnesiaScoresDto["compactions"][number];

export interface AmnesiaScoresState {
  sessionId: string | null;
  /** by compaction id */
  byCompaction: ReadonlyMap<string, AmnesiaScore> | null;
  status: "idle" | "loading" | "ready" | "failed";
}

export interface AmnesiaSlice {
  amnesia: AmnesiaState;
  amnesiaScores: AmnesiaScoresState;
  /** loads the report of a session (once, unless `force`) */
  loadAmnesia(sessionId: string, force?: boolean): Promise<void>;
  /** loads the report's scores of a session (once, unless `force`) */
  loadAmnesiaScores(sessionId: string, force?: boolean): Promise<void>;
  /** highlights a finding's entries and reveals its latest one */
  pickAmnesia(finding: AmnesiaFindingDto): void;
  resetAmnesia(): void;
}

const NONE: ReadonlySet<string> = new Set();
const IDLE: AmnesiaState = { sessionId: null, report: null, status: "idle", error: null, highlight: NONE, picked: null };
const NO_SCORES: AmnesiaScoresState = { sessionId: null, byCompaction: null, status: "idle" };
let seq = 0;
let scoresSeq = 0;

export const createAmnesiaSlice: Slice<AmnesiaSlice> = (set, get) => ({
  amnesia: IDLE,
  amnesiaScores: NO_SCORES,

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

  async loadAmnesiaScores(sessionId, force = false) {
    const a = get().amnesiaScores;
    if (!force && a.sessionId === sessionId && a.status !== "idle") return;
    const mine = ++scoresSeq;
    set({ amnesiaScores: a.sessionId === sessionId ? { ...a, status: "loading" } : { ...NO_SCORES, sessionId, status: "loading" } });
    try {
      const { compactions } = await api().getAmnesiaScores({ sessionId });
      if (mine === scoresSeq) set({ amnesiaScores: { sessionId, byCompaction: new Map(compactions.map((c) => [c.compactionId, c])), status: "ready" } });
    } catch {
      // the badges stay away; the panel says why when it is opened
      if (mine === scoresSeq) set({ amnesiaScores: { ...get().amnesiaScores, status: "failed" } });
    }
  },

  pickAmnesia(finding) {
    set({ amnesia: { ...get().amnesia, highlight: new Set(finding.entryIds), picked: finding } });
    // every entry comes out of its collapsed segment; the latest ends selected and centred
    for (const id of finding.entryIds) get().reveal(id, "amnesia");
  },

  resetAmnesia() {
    seq++;
    scoresSeq++;
    set({ amnesia: IDLE, amnesiaScores: NO_SCORES });
  },
});
