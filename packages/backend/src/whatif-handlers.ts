/**
 * Handlers of the what-if replay, the amnesia report and the dry-run summary check (core whatif.ts
 * and amnesia.ts). The replay of a session's active path is prepared once and kept (a few sessions)
 * until the store reports a change to the session, so each candidate setting costs only the replay
 * itself; the amnesia report of a whole session is computed on the planner's worker thread and kept
 * the same way. The store has no query for these: they are built from getPath and loadEntries.
 * The report over many sessions (getAmnesiaOverview) is core's amnesiaOverview of those reports,
 * for every stored session with a compaction or pruned output (the others have nothing to report).
 */
import {
  amnesiaOverview,
  amnesiaSessionRow,
  downsampleSeries,
  prepareCompaction,
  prepareWhatIf,
  replayWindowOf,
  runTotals,
  runWhatIf,
  sumTotals,
  summaryIdentifierCandidates,
  type AmnesiaReport,
  type AmnesiaSessionRow,
  type BonsaiSettings,
  type PreparedWhatIf,
  type WhatIfRun,
} from "@bonsai/core";
import type { CompactionPlanner } from "@bonsai/engine";
import { IpcError, type Handlers, type WhatIfResult, type WhatIfRunDto } from "@bonsai/ipc";
import type { SessionStore } from "@bonsai/store";
import { requireSession, toSummary } from "./session-handlers";

const DEFAULT_POINTS = 600;
const KEEP_SESSIONS = 8;

interface Replay {
  leafId: string | null;
  prepared: PreparedWhatIf;
  /** position on the path of each entry id */
  positions: Map<string, number>;
  /** the file's own run as sent (it does not depend on the settings), by maxPoints */
  actual: Map<number, WhatIfRunDto>;
}

/** A small most-recently-used map of per-session values, dropped when the session changes. */
class SessionCache<T> {
  readonly #values = new Map<string, T>();
  get(sessionId: string): T | undefined {
    const value = this.#values.get(sessionId);
    if (value !== undefined) {
      this.#values.delete(sessionId);
      this.#values.set(sessionId, value);
    }
    return value;
  }
  set(sessionId: string, value: T): void {
    this.#values.delete(sessionId);
    this.#values.set(sessionId, value);
    if (this.#values.size > KEEP_SESSIONS) this.#values.delete(this.#values.keys().next().value as string);
  }
  invalidate(sessionId: string): void {
    this.#values.delete(sessionId);
  }
}

export class WhatIfCaches {
  readonly replays = new SessionCache<Replay>();
  readonly amnesia = new SessionCache<{ leafId: string | null; report: Promise<AmnesiaReport> }>();

  /** Drops what was computed for a session whose entries, leaf or pruning changed. */
  follow(store: SessionStore): () => void {
    const drop = ({ sessionId }: { sessionId: string }) => {
      this.replays.invalidate(sessionId);
      this.amnesia.invalidate(sessionId);
    };
    const offs = [store.on("entries-added", drop), store.on("session-updated", drop)];
    return () => offs.forEach((off) => off());
  }
}

function runDto(run: WhatIfRun, positions: Map<string, number>, maxPoints: number): WhatIfRunDto {
  return {
    compactions: run.compactions.map((c) => ({ ...c, atIndex: positions.get(c.atEntryId) ?? 0 })),
    peakContextTokens: run.peakContextTokens,
    summarizedTokens: run.summarizedTokens,
    prunedTokens: run.prunedTokens,
    points: downsampleSeries(run.series, maxPoints),
  };
}

export interface WhatIfHandlerDeps {
  store: SessionStore;
  planner: CompactionPlanner;
  caches: WhatIfCaches;
  settings: () => BonsaiSettings;
}

export function whatIfHandlers(deps: WhatIfHandlerDeps): Pick<Handlers, "whatIf" | "getAmnesiaReport" | "getAmnesiaScores" | "getAmnesiaOverview" | "getSummaryCheck"> {
  const { store, caches } = deps;

  const replayOf = (sessionId: string, leafId: string | null): Replay => {
    const held = caches.replays.get(sessionId);
    if (held && held.leafId === leafId) return held;
    const path = leafId === null ? [] : store.getPath(sessionId, leafId);
    const replay: Replay = { leafId, prepared: prepareWhatIf(path), positions: new Map(path.map((e, i) => [e.id, i])), actual: new Map() };
    caches.replays.set(sessionId, replay);
    return replay;
  };

  /** the report at the session's leaf: computed once per leaf (a failed computation is not kept) */
  const amnesiaReport = (sessionId: string) => {
    requireSession(store, sessionId);
    const leafId = store.getLeaf(sessionId);
    const held = caches.amnesia.get(sessionId);
    if (held && held.leafId === leafId) return held.report;
    const report = deps.planner.amnesia({ sessionId, leafId });
    caches.amnesia.set(sessionId, { leafId, report });
    report.catch(() => caches.amnesia.invalidate(sessionId));
    return report;
  };

  return {
    whatIf: ({ sessionIds, settings, maxPoints = DEFAULT_POINTS, window = "session" }) => {
      const started = performance.now();
      const sessions: WhatIfResult["sessions"] = [];
      let used: WhatIfResult["settings"] | undefined;
      for (const sessionId of sessionIds) {
        const summary = requireSession(store, sessionId);
        const replay = replayOf(sessionId, summary.leafId);
        // the page's window for this session (core replayWindowOf), the request's for a model nobody knows
        const own = window === "fixed" ? settings : { ...settings, contextWindow: replayWindowOf(replay.prepared.path, { contextWindow: settings.contextWindow, contextWindowOverrides: deps.settings().model.contextWindowOverrides }).contextWindow };
        const report = runWhatIf(replay.prepared, own);
        const { summaryEstimate, tokensPerEstimatedToken, ...rest } = report.settings;
        used = rest;
        let actual = replay.actual.get(maxPoints);
        if (!actual) {
          actual = runDto(report.actual, replay.positions, maxPoints);
          replay.actual.set(maxPoints, actual);
        }
        sessions.push({
          sessionId,
          title: toSummary(summary).title,
          pathLength: replay.prepared.path.length,
          summaryEstimate,
          tokensPerEstimatedToken,
          contextWindow: rest.contextWindow,
          threshold: rest.threshold,
          actual,
          candidate: runDto(report.candidate, replay.positions, maxPoints),
        });
      }
      return {
        settings: used as WhatIfResult["settings"],
        sessions,
        totals: { actual: sumTotals(sessions.map((s) => runTotals(s.actual))), candidate: sumTotals(sessions.map((s) => runTotals(s.candidate))) },
        computeMs: performance.now() - started,
      };
    },

    getAmnesiaReport: ({ sessionId }) => amnesiaReport(sessionId),

    getAmnesiaScores: async ({ sessionId }) => {
      const report = await amnesiaReport(sessionId);
      return { compactions: report.compactions.map((c) => ({ compactionId: c.compactionId, score: c.score, findings: c.findings.length })) };
    },

    getAmnesiaOverview: async ({ project }) => {
      if (project !== undefined) throw new IpcError("invalid_payload", "the local store has no projects (they are a team archive's)");
      const titles = store.getSessionTitles();
      const rows: AmnesiaSessionRow[] = [];
      for (const s of store.listSessions()) {
        if (s.compactionCount === 0 && s.prunedCount === 0) continue;
        const info = { sessionId: s.id, project: null, pushedBy: null, title: toSummary(s, titles.get(s.id)).title, agent: s.agent };
        const row = amnesiaSessionRow(info, await amnesiaReport(s.id));
        if (row) rows.push(row);
      }
      return amnesiaOverview(rows);
    },

    getSummaryCheck: ({ sessionId, leafId }) => {
      requireSession(store, sessionId);
      const leaf = leafId === undefined ? store.getLeaf(sessionId) : leafId;
      const path = leaf === null ? [] : store.getPath(sessionId, leaf);
      const plan = prepareCompaction(path, deps.settings().compaction);
      if (!plan) return { candidates: [] };
      // the history and the split turn's prefix are summarized; the agent goes on with the rest
      const summarized = path.slice(plan.boundaryStart, plan.firstKeptEntryIndex);
      return { candidates: summaryIdentifierCandidates(summarized, path.slice(plan.firstKeptEntryIndex)) };
    },
  };
}
