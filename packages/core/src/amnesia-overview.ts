/**
 * The amnesia report over many sessions (`bonsai amnesia --all`, the page's "Amnesia across
 * sessions", an archive's `GET /api/amnesia`): each session's amnesia report (amnesia.ts) folded
 * into one row (its compactions and prunings, their findings by kind, its score), then totals by
 * kind and the worst compactions and prunings of all. Pure: the caller reads the sessions (the
 * local store, or the archive's sessions the caller may read) and hands over their reports. The
 * answer has one shape wherever it is computed, so a script reads the local store and an archive
 * alike.
 */
import { amnesiaReport, SCORE_WEIGHTS, type AmnesiaKind, type AmnesiaReport } from "./amnesia";
import type { SessionEntry } from "./entries";

export const AMNESIA_KINDS = Object.keys(SCORE_WEIGHTS) as AmnesiaKind[];

export type AmnesiaKindCounts = Record<AmnesiaKind, number>;

/** Who a session is: `project` and `pushedBy` are null in the local store. */
export interface AmnesiaSessionInfo {
  sessionId: string;
  project: string | null;
  pushedBy: string | null;
  title: string | null;
  agent: string;
}

/** One compaction or pruning of a session, as the overview lists it. */
export interface AmnesiaPoint {
  /** a compaction, or a pruning (then `entryId` is the entry after which it ran) */
  kind: "compaction" | "pruning";
  /** the entry to open the session at: the compaction, or where the pruning ran */
  entryId: string;
  score: number;
  findings: AmnesiaKindCounts;
}

export interface AmnesiaSessionRow extends AmnesiaSessionInfo {
  compactions: number;
  prunings: number;
  /** Σ of its compactions' and prunings' scores */
  score: number;
  findings: AmnesiaKindCounts;
  /** its compactions and prunings, worst first */
  points: AmnesiaPoint[];
}

export interface AmnesiaWorstPoint extends AmnesiaPoint {
  sessionId: string;
  project: string | null;
  title: string | null;
}

export interface AmnesiaOverview {
  /** every session with at least one compaction or pruning, worst (highest score) first */
  sessions: AmnesiaSessionRow[];
  totals: { sessions: number; compactions: number; prunings: number; score: number; findings: AmnesiaKindCounts };
  /** the WORST_POINTS compactions and prunings with the highest scores over all sessions, worst first */
  worst: AmnesiaWorstPoint[];
}

/** how many compactions and prunings the overview's `worst` lists */
export const WORST_POINTS = 20;

export function emptyKindCounts(): AmnesiaKindCounts {
  return Object.fromEntries(AMNESIA_KINDS.map((k) => [k, 0])) as AmnesiaKindCounts;
}

function addCounts(into: AmnesiaKindCounts, from: AmnesiaKindCounts): void {
  for (const kind of AMNESIA_KINDS) into[kind] += from[kind];
}

function countsOf(findings: readonly { kind: AmnesiaKind }[]): AmnesiaKindCounts {
  const counts = emptyKindCounts();
  for (const f of findings) counts[f.kind] += 1;
  return counts;
}

/** by score, highest first; ties keep their order (the session's order of events, the list's order of sessions) */
function worstFirst<T extends { score: number }>(items: readonly T[]): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => b.item.score - a.item.score || a.i - b.i)
    .map(({ item }) => item);
}

/** One session's row, or null when it has no compaction or pruning (nothing to report). */
export function amnesiaSessionRow(info: AmnesiaSessionInfo, report: AmnesiaReport): AmnesiaSessionRow | null {
  if (report.compactions.length === 0 && report.prunings.length === 0) return null;
  const points: AmnesiaPoint[] = [
    ...report.compactions.map((c) => ({ kind: "compaction" as const, entryId: c.compactionId, score: c.score, findings: countsOf(c.findings) })),
    ...report.prunings.map((p) => ({ kind: "pruning" as const, entryId: p.atEntryId, score: p.score, findings: countsOf(p.findings) })),
  ];
  const findings = emptyKindCounts();
  for (const p of points) addCounts(findings, p.findings);
  return {
    sessionId: info.sessionId,
    project: info.project,
    pushedBy: info.pushedBy,
    title: info.title,
    agent: info.agent,
    compactions: report.compactions.length,
    prunings: report.prunings.length,
    score: points.reduce((sum, p) => sum + p.score, 0),
    findings,
    points: worstFirst(points),
  };
}

/**
 * One archived session's row from its entries as JSON lines in order, the last one its leaf (as the
 * archive has it): what a server scores, on its worker thread when it has one.
 */
export function amnesiaRowOfLines(info: AmnesiaSessionInfo, lines: readonly string[]): AmnesiaSessionRow | null {
  const entries = lines.map((line) => JSON.parse(line) as SessionEntry);
  return amnesiaSessionRow(info, amnesiaReport(entries, entries.at(-1)?.id ?? null));
}

/** The overview of the rows (amnesiaSessionRow's, nulls already left out), in any order. */
export function amnesiaOverview(rows: readonly AmnesiaSessionRow[]): AmnesiaOverview {
  const sessions = worstFirst(rows);
  const findings = emptyKindCounts();
  for (const s of sessions) addCounts(findings, s.findings);
  const worst = worstFirst(sessions.flatMap((s) => s.points.map((p) => ({ ...p, sessionId: s.sessionId, project: s.project, title: s.title })))).slice(0, WORST_POINTS);
  return {
    sessions,
    totals: {
      sessions: sessions.length,
      compactions: sessions.reduce((sum, s) => sum + s.compactions, 0),
      prunings: sessions.reduce((sum, s) => sum + s.prunings, 0),
      score: sessions.reduce((sum, s) => sum + s.score, 0),
      findings,
    },
    worst,
  };
}
