/**
 * The read half of the store: sessions, entries, paths, contexts and the rows plans need, read from
 * the narrow rows (src/reads/). SqliteSessionStore extends it with imports, writes and follow; a
 * short-lived reader (the CLI's read commands) opens only this (reader.ts, imported as
 * "@bonsai/store/reader"), without the file-side code.
 */
import type Database from "better-sqlite3";
import type { BranchPlan, CompactionPlanSettings, CompactionPlanSummary, FiguresOfPath, ContextSummary, PruneConfig, PruneContextChange, PrunePlan, PruneSummary, SessionEntry, SessionHeader, ToolResultOnPath } from "@bonsai/core";
import { buildSessionContext, contextOf, summarizeContext } from "@bonsai/core";
import { SessionAgents } from "./foreign/agents";
import { StoredReads, type ContextLists, type ContextMessageRows, type ContextWindow } from "./reads/index";
import { Statements, type SessionRef } from "./reads/path";
import { SessionRows } from "./reads/sessions";
import type { PathNode, SessionSummary, SizeSeries, StoredEntryInfo } from "./session-store";
import { byId, lastFirst } from "./id-tiers";
import { commitsBySession, commitsOfSession, type SessionCommit } from "./entire/git-rows";

/** What the read commands ask a stored session (SqliteSessionStore answers the same). */
export type StoredSessionReads = Pick<
  StoreReader,
  | "getSession"
  | "resolveSessionId"
  | "getHeader"
  | "hasEntry"
  | "getEntry"
  | "loadEntries"
  | "getPath"
  | "getContextEntries"
  | "getContextSummary"
  | "getContextLists"
  | "getContextMessages"
  | "getContextFigures"
  | "getCompactionWindow"
  | "getCompactionPlan"
  | "getPrunePlan"
  | "getPruneSummary"
  | "getPruneContextChange"
  | "getPruneDryRun"
  | "getBranchPlan"
  | "renderJsonl"
  | "getSessionCommits"
  | "getSettingsJson"
  | "close"
>;

export class StoreReader {
  protected readonly statements: Statements;
  protected readonly sessions: SessionRows;
  /** paths, contexts and plans read from the narrow rows (src/reads/) */
  protected readonly reads: StoredReads;
  /** which agent wrote each session (session_agents) */
  protected readonly agents: SessionAgents;

  constructor(readonly db: Database.Database) {
    this.statements = new Statements(db);
    this.agents = new SessionAgents(db);
    this.sessions = new SessionRows(this.statements, (row) => this.agents.fields(row));
    this.reads = new StoredReads(this.statements);
  }

  listSessions(): SessionSummary[] {
    return this.sessions.list();
  }

  /** the settings saved with the app or `bonsai config`, as JSON (undefined: none saved) */
  getSettingsJson(): unknown {
    const v = this.db.prepare("SELECT value FROM settings WHERE key = 'settings'").pluck().get() as string | undefined;
    return v === undefined ? undefined : (JSON.parse(v) as unknown);
  }

  getSession(sessionId: string): SessionSummary | undefined {
    return this.sessions.summary(sessionId);
  }

  /** The commits a session produced (imported from a checkpoint branch: entire/git-rows.ts); [] for others. */
  getSessionCommits(sessionId: string): SessionCommit[] {
    return commitsOfSession(this.db, sessionId);
  }

  /** Every session's commits, by session id (sessions without any are absent). */
  listSessionCommits(): Map<string, SessionCommit[]> {
    return commitsBySession(this.db);
  }

  resolveSessionId(idOrPrefix: string): string {
    return this.sessions.resolveId(idOrPrefix);
  }

  getHeader(sessionId: string): SessionHeader {
    return this.sessions.header(sessionId);
  }

  getLeaf(sessionId: string): string | null {
    return this.sessions.require(sessionId).leaf_id;
  }

  loadEntries(sessionId: string): SessionEntry[] {
    return this.sessions.entries(sessionId);
  }

  getEntry(sessionId: string, entryId: string): SessionEntry | undefined {
    return this.getEntryInfo(sessionId, entryId)?.entry;
  }

  getEntryInfo(sessionId: string, entryId: string): StoredEntryInfo | undefined {
    return this.sessions.entryInfo(sessionId, entryId);
  }

  /** the one-line previews of these entries, in the order asked ("" for an id not in the session) */
  getPreviews(sessionId: string, entryIds: readonly string[]): string[] {
    const one = this.statements.get(`SELECT preview FROM entries WHERE ${byId()} ORDER BY ${lastFirst()} LIMIT 1`).pluck();
    return entryIds.map((id) => (one.get(sessionId, id) as string | undefined) ?? "");
  }

  /** the label the entry carries now (undefined: none) */
  getLabel(sessionId: string, entryId: string): string | undefined {
    const label = this.statements.get("SELECT label FROM labels WHERE session_id = ? AND target_id = ? AND label IS NOT NULL").pluck().get(sessionId, entryId);
    return (label as string | undefined) ?? undefined;
  }

  /** the id of the session's last entry in file order (null: it has none) */
  lastEntryId(sessionId: string): string | null {
    return (this.statements.get("SELECT id FROM entries WHERE session_id = ? ORDER BY seq DESC LIMIT 1").pluck().get(sessionId) as string | undefined) ?? null;
  }

  hasEntry(sessionId: string, entryId: string): boolean {
    return this.reads.paths.seqOf(sessionId, entryId) !== undefined;
  }

  /** the entries with these ids (the last one with each id; undefined for an unknown id), in the order asked */
  getEntries(sessionId: string, entryIds: readonly string[]): (SessionEntry | undefined)[] {
    const seqs = entryIds.map((id) => this.reads.paths.seqOf(sessionId, id));
    const found = seqs.filter((q): q is number => q !== undefined);
    const parsed = this.reads.paths.entriesAt(sessionId, found) as SessionEntry[];
    const bySeq = new Map(found.map((q, i) => [q, parsed[i]]));
    return seqs.map((q) => (q === undefined ? undefined : bySeq.get(q)));
  }

  /** whether the entry is on the path root -> `leafId` (default: the current leaf), from the path's seq ranges */
  isOnPath(sessionId: string, entryId: string, leafId?: string | null): boolean {
    return this.areOnPath(sessionId, [entryId], leafId)[0] as boolean;
  }

  /** isOnPath for each of these ids, from one read of the path's seq ranges */
  areOnPath(sessionId: string, entryIds: readonly string[], leafId?: string | null): boolean[] {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    const ranges = this.reads.pathRanges(ref, leaf);
    return entryIds.map((id) => {
      const seq = this.reads.seqOf(ref, id);
      return seq !== undefined && ranges.some((r) => r.from <= seq && seq <= r.to);
    });
  }

  /** the same text exportJsonl writes (pi sessions; SqliteSessionStore also gives Claude Code and Codex files back) */
  renderJsonl(sessionId: string): string {
    return this.sessions.jsonl(sessionId);
  }

  /** the session as the reads module needs it, and the leaf a read defaults to */
  protected readRef(sessionId: string, leafId: string | null | undefined): { ref: SessionRef; leaf: string | null } {
    const row = this.sessions.require(sessionId);
    return { ref: { id: row.id, irregular: row.irregular }, leaf: leafId === undefined ? row.leaf_id : leafId };
  }

  /** root -> leaf (default leaf: the current one); cycles stop at the repeated entry */
  getPath(sessionId: string, leafId?: string | null): SessionEntry[] {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.path(ref, leaf);
  }

  getPathNodes(sessionId: string, leafId?: string | null): PathNode[] {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.pathNodes(ref, leaf);
  }

  getSizeSeries(sessionId: string, leafId: string | null, buckets: number): SizeSeries {
    const { ref } = this.readRef(sessionId, leafId);
    return this.reads.sizeSeries(ref, leafId, buckets);
  }

  getContextEntries(sessionId: string, leafId?: string | null): SessionEntry[] {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.contextEntries(ref, leaf);
  }

  getContextSummary(sessionId: string, leafId?: string | null): ContextSummary {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    // an irregular session has no column summary: from its context entries, as core builds it
    return this.reads.contextSummary(ref, leaf) ?? summarizeContext(buildSessionContext(this.reads.contextEntries(ref, leaf)));
  }

  getContextTokens(sessionId: string, leafId: string | null): number | undefined {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.contextTokens(ref, leaf);
  }

  /**
   * The estimate and the last usage reported on the path to `leafId` (default: the current leaf),
   * what core's contextOf gives over that path for contextFigureOf, from an aggregate and the JSON of
   * the few entries they need; undefined where they must come from the path (an irregular session,
   * a message without a role in the columns).
   */
  getContextFigures(sessionId: string, leafId?: string | null): FiguresOfPath | undefined {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.contextFigures(ref, leaf);
  }

  /**
   * getContextFigures at the current leaf of each of these sessions (contextOf over its context
   * entries where the columns cannot answer; none for a session not in the database), read at once:
   * the sessions' rows by one statement, every figure in one read transaction (one snapshot, the
   * statements prepared once). What a session list shows.
   */
  getLeafContextFigures(sessionIds: readonly string[]): Map<string, FiguresOfPath> {
    const read = this.db.transaction(() => {
      const out = new Map<string, FiguresOfPath>();
      const rows = this.statements
        .get("SELECT s.id, s.irregular, s.leaf_id FROM json_each(?) AS w CROSS JOIN sessions s ON s.id = w.value")
        .raw()
        .all(JSON.stringify(sessionIds)) as [string, number, string | null][];
      for (const [id, irregular, leaf] of rows) {
        const ref = { id, irregular };
        out.set(id, this.reads.contextFigures(ref, leaf) ?? contextOf(this.reads.contextEntries(ref, leaf), leaf));
      }
      return out;
    });
    return read.deferred();
  }

  /** getContextSummary as the `context` command reports it, its lists as read (ContextLists); undefined where getContextSummary must answer (an irregular session, a message without a role in the columns) */
  getContextLists(sessionId: string, leafId?: string | null): ContextLists | undefined {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.contextLists(ref, leaf);
  }

  /** What a context preview lists of the context of `leafId` (all of it, or a window's part), from the narrow rows; null for an irregular session (build it from getContextEntries). */
  getContextMessages(sessionId: string, leafId: string | null, window?: ContextWindow): ContextMessageRows | null {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.contextMessages(ref, leaf, window);
  }

  getCompactionWindow(sessionId: string, leafId?: string | null): SessionEntry[] {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.compactionWindow(ref, leaf);
  }

  /** What a compaction plan of the path to `leafId` decides and lists (core summarizeCompaction of prepareCompaction), from the narrow rows. */
  getCompactionPlan(sessionId: string, leafId: string | null | undefined, settings: CompactionPlanSettings): CompactionPlanSummary | undefined {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.compactionPlan(ref, leaf, settings);
  }

  getToolResultsOnPath(sessionId: string, leafId?: string | null): ToolResultOnPath[] {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.toolResults(ref, leaf);
  }

  getPrunePlan(sessionId: string, leafId: string | null | undefined, config: PruneConfig): PrunePlan {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.prunePlan(ref, leaf, config);
  }

  getPruneSummary(sessionId: string, leafId: string | null | undefined, config: PruneConfig): PruneSummary {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.pruneSummary(ref, leaf, config);
  }

  /** getPruneSummary and getPruneContextChange of one plan, read together (what `prune --dry-run --json` reports) */
  getPruneDryRun(sessionId: string, leafId: string | null | undefined, config: PruneConfig): { summary: PruneSummary; change: PruneContextChange | undefined } {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.pruneDryRun(ref, leaf, config);
  }

  /** What getPrunePlan's plan changes in what the model sees from `leafId` (core pruneContextChange), read without the path; undefined where it must come from the path (an irregular session, a message without a role in the columns, no leaf). */
  getPruneContextChange(sessionId: string, leafId: string | null | undefined, config: PruneConfig): PruneContextChange | undefined {
    const { ref, leaf } = this.readRef(sessionId, leafId);
    return this.reads.pruneContextChange(ref, leaf, config);
  }

  getBranchPlan(sessionId: string, fromId: string | null, toId: string, budget: number): BranchPlan {
    const { ref } = this.readRef(sessionId, undefined);
    return this.reads.branch(ref, fromId, toId, budget);
  }

  close(): void {
    this.db.close();
  }
}
