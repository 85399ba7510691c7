/**
 * Reading stored sessions without loading them (docs/PERFORMANCE.md "Stored reads, not loads"): paths as seq
 * ranges, what the model sees, and the rows compaction, pruning and branch plans need. Every read
 * is a few indexed queries over the narrow rows plus the JSON of only the entries it must show.
 */
import { createFileOperations, IdList, planOfEligible, pruneChangeOfFigures, summarizePrunePlan, type PruneContextChange, type BranchPlan, type CompactionPlanSettings, type CompactionPlanSummary, type FiguresOfPath, type ContextSummary, type PruneConfig, type PrunePlan, type PruneSummary, type SessionEntry, type ToolResultOnPath } from "@bonsai/core";
import type { PathNode, SizeSeries } from "../session-store";
import { ContextReader, type ContextLists, type ContextMessageRows, type ContextWindow } from "./context";
import { PathReader, relinked, type SeqRange, type SessionRef, type Statements } from "./path";
import { SeriesReader, seriesOfNodes } from "./series";
import { PlanningReader } from "./planning";
import { PruningReader, type PrunableRows } from "./pruning";

export type { SeqRange, SessionRef } from "./path";
export type { ContextLists, ContextMessageRows, ContextWindow, UnlistedMessages } from "./context";

export class StoredReads {
  readonly paths: PathReader;
  private readonly contexts: ContextReader;
  private readonly planning: PlanningReader;
  private readonly pruning: PruningReader;
  private readonly series: SeriesReader;

  constructor(sql: Statements) {
    this.paths = new PathReader(sql);
    this.series = new SeriesReader(sql, this.paths);
    this.contexts = new ContextReader(sql, this.paths);
    this.planning = new PlanningReader(sql, this.paths);
    this.pruning = new PruningReader(sql, this.paths);
  }

  /** seq of the entry an id finds, undefined when none */
  seqOf(session: SessionRef, entryId: string | null): number | undefined {
    return entryId === null ? undefined : this.paths.seqOf(session.id, entryId);
  }

  pathRanges(session: SessionRef, leafId: string | null): SeqRange[] {
    const leaf = this.seqOf(session, leafId);
    return leaf === undefined ? [] : this.paths.ranges(session, leaf);
  }

  /** the path's nodes with what a size series needs (ids, types, token estimates, compactions' first kept entries) */
  pathNodes(session: SessionRef, leafId: string | null): PathNode[] {
    const ranges = this.pathRanges(session, leafId);
    const columns = this.paths.columnsIn(session.id, ranges, ["seq", "tokens"], ["id", "type"]);
    const [seqs, tokens] = columns.numbers as [number[], number[]];
    const [ids, types] = columns.texts as [string[], string[]];
    const kept = this.paths.keptIds(session.id, ranges);
    return ids.map((id, i): PathNode => {
      const node: PathNode = { id, type: types[i] as string, tokens: tokens[i] as number };
      const first = kept.get(seqs[i] as number);
      if (first !== undefined) node.firstKeptEntryId = first;
      return node;
    });
  }

  /** The context size along the path, at the positions a chart of `buckets` columns shows (series.ts). */
  sizeSeries(session: SessionRef, leafId: string | null, buckets: number): SizeSeries {
    if (session.irregular !== 0) return seriesOfNodes(this.pathNodes(session, leafId), buckets);
    return this.series.series(session.id, this.pathRanges(session, leafId), buckets);
  }

  path(session: SessionRef, leafId: string | null): SessionEntry[] {
    return this.paths.entriesIn(session.id, this.pathRanges(session, leafId)) as SessionEntry[];
  }

  contextEntries(session: SessionRef, leafId: string | null): SessionEntry[] {
    const leaf = this.seqOf(session, leafId);
    if (leaf === undefined) return [];
    // an irregular session's shortcuts cannot be trusted: its whole path (cycles stop at the repeated entry)
    if (session.irregular !== 0) return relinked(this.path(session, leafId));
    return this.contexts.contextEntries(session, leaf);
  }

  /** null for an irregular session (read its context entries instead) */
  contextSummary(session: SessionRef, leafId: string | null): ContextSummary | null {
    const leaf = this.seqOf(session, leafId);
    if (leaf === undefined) return { entryIds: [], roles: [], llmRoles: [], tokens: [], models: {}, thinkingLevel: "off" };
    return session.irregular !== 0 ? null : this.contexts.contextSummary(session, leaf);
  }

  /** the sum of contextSummary's token estimates (context.ts contextTokens); undefined for an irregular session or an odd message */
  contextTokens(session: SessionRef, leafId: string | null): number | undefined {
    const leaf = this.seqOf(session, leafId);
    if (leaf === undefined) return 0;
    return session.irregular !== 0 ? undefined : this.contexts.contextTokens(session, leaf);
  }

  /** the estimate and the last usage reported on the path, as core's contextOf gives them (context.ts contextFigures); undefined for an irregular session or an odd message */
  contextFigures(session: SessionRef, leafId: string | null): FiguresOfPath | undefined {
    const leaf = this.seqOf(session, leafId);
    if (leaf === undefined) return leafId === null ? { tokens: 0, usage: null, compactionTokensBefore: null } : undefined;
    return session.irregular !== 0 ? undefined : this.contexts.contextFigures(session, leaf);
  }

  /** contextSummary as the `context` command reports it (context.ts contextLists); undefined for an irregular session or an odd message */
  contextLists(session: SessionRef, leafId: string | null): ContextLists | undefined {
    const leaf = this.seqOf(session, leafId);
    if (leaf === undefined || session.irregular !== 0) return undefined;
    return this.contexts.contextLists(session, leaf);
  }

  /** what a context preview lists (context.ts contextMessages); null for an irregular session (read its context entries instead) */
  contextMessages(session: SessionRef, leafId: string | null, window?: ContextWindow): ContextMessageRows | null {
    const leaf = this.seqOf(session, leafId);
    return leaf === undefined || session.irregular !== 0 ? null : this.contexts.contextMessages(session, leaf, window);
  }

  compactionWindow(session: SessionRef, leafId: string | null): SessionEntry[] {
    const leaf = this.seqOf(session, leafId);
    return leaf === undefined ? [] : this.planning.compactionWindow(session, leaf);
  }

  /** what a compaction plan of the path decides and lists (core summarizeCompaction), from the narrow rows; undefined when it plans nothing */
  compactionPlan(session: SessionRef, leafId: string | null, settings: CompactionPlanSettings): CompactionPlanSummary | undefined {
    const leaf = this.seqOf(session, leafId);
    return leaf === undefined ? undefined : this.planning.compactionPlan(session, leaf, settings);
  }

  toolResults(session: SessionRef, leafId: string | null): ToolResultOnPath[] {
    const leaf = this.seqOf(session, leafId);
    return leaf === undefined ? [] : this.pruning.toolResults(session, leaf);
  }

  /** planPruningOf's plan of the path's tool results, from the columns of only those it may prune (no path: no result, nothing to prune) */
  prunePlan(session: SessionRef, leafId: string | null, config: PruneConfig): PrunePlan {
    const leaf = this.seqOf(session, leafId);
    return leaf === undefined ? planOfEligible([], config) : this.pruning.prunePlan(session, leaf, config);
  }

  /** what a dry run reports of prunePlan's plan (its ids and figures) */
  pruneSummary(session: SessionRef, leafId: string | null, config: PruneConfig): PruneSummary {
    const leaf = this.seqOf(session, leafId);
    return leaf === undefined ? summarizePrunePlan(planOfEligible([], config)) : this.pruning.summaryOf(session, this.pruning.prunableRows(session, this.paths.ranges(session, leaf), config), config);
  }

  /**
   * pruneSummary and pruneContextChange of one plan, from one read of the path and of the rows it
   * may prune (what `prune --dry-run --json` reports).
   */
  pruneDryRun(session: SessionRef, leafId: string | null, config: PruneConfig): { summary: PruneSummary; change: PruneContextChange | undefined } {
    const leaf = this.seqOf(session, leafId);
    if (leaf === undefined) return { summary: this.pruneSummary(session, leafId, config), change: undefined };
    const path = this.paths.ranges(session, leaf);
    const rows = this.pruning.prunableRows(session, path, config);
    const summary = this.pruning.summaryOf(session, rows, config);
    return { summary, change: this.pruneChangeOf(session, leaf, path, rows, summary.prunedCount > 0, config) };
  }

  /**
   * What prunePlan's plan changes in what the model sees from the leaf (core pruneContextChange over
   * the path), from the context's figures and sums over the rows it prunes; undefined for an
   * irregular session, an odd message or no leaf (read it from the path).
   */
  pruneContextChange(session: SessionRef, leafId: string | null, config: PruneConfig): PruneContextChange | undefined {
    const leaf = this.seqOf(session, leafId);
    if (leaf === undefined) return undefined;
    const path = this.paths.ranges(session, leaf);
    const rows = this.pruning.prunableRows(session, path, config);
    return this.pruneChangeOf(session, leaf, path, rows, this.pruning.prunes(session, rows, config), config);
  }

  private pruneChangeOf(session: SessionRef, leaf: number, path: SeqRange[], rows: PrunableRows, prunes: boolean, config: PruneConfig): PruneContextChange | undefined {
    if (session.irregular !== 0) return undefined;
    const at = this.contexts.figuresAndStart(session, leaf, path);
    if (!at) return undefined;
    const usage = at.figures.usage;
    const usageSeq = usage === null ? null : (this.seqOf(session, usage.entryId) ?? null);
    return pruneChangeOfFigures(at.figures, this.pruning.shrinkOf(session, rows, prunes, at.keptFrom, usageSeq), config.minimumSavings);
  }

  branch(session: SessionRef, fromId: string | null, toId: string, budget: number): BranchPlan {
    const from = this.seqOf(session, fromId);
    const to = this.seqOf(session, toId);
    if (from === undefined || to === undefined) return { commonAncestorId: null, entryIds: IdList.of([]), includedEntryIds: [], totalTokens: 0, fileOps: createFileOperations() };
    return this.planning.branch(session, from, to, budget);
  }
}

