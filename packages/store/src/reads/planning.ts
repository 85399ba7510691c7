/**
 * The rows a compaction plan and a branch summary plan need, for core to plan on (a pruning plan's:
 * pruning.ts):
 * - compaction: the path from the latest compaction (what the plan's window is made of), and the
 *   last assistant message with a usage before it when the window has none;
 * - branch summary: the abandoned branch's ids from the narrow rows, the budget walk on the token
 *   column, and the JSON of only what the file lists need (branch summaries, assistant messages
 *   calling read, write or edit).
 */
import {
  addBranchSummaryFileLists,
  addFileOpCode,
  addPreviousFileLists,
  branchBudgetStep,
  createFileOperations,
  getLastAssistantUsage,
  type IdList,
  outlineCompaction,
  planKindOf,
  PLAN_GIVES_MESSAGE,
  prepareCompaction,
  summarizeCompaction,
  summarizeOutline,
  type CompactionEntry,
  type CompactionPlanSettings,
  type CompactionPlanSummary,
  type BranchPlan,
  type FileOperations,
  type PlanRowIds,
  type SessionEntry,
} from "@bonsai/core";
import { AGENT_ROLES, sqlText } from "./context";
import { FLAG_ODD_MESSAGE } from "../derive";
import { clipRanges, rangesBefore, rangesFrom, rangeSeqs, rangesJson, rangeSize, type PathReader, type RowFilter, type SeqRange, type SessionRef, type Statements } from "./path";
import { seqsInRanges } from "./seqs-in-ranges";

export class PlanningReader {
  constructor(
    private readonly sql: Statements,
    private readonly paths: PathReader,
  ) {}

  /**
   * Entries that plan a compaction of the path to `leafSeq` exactly as the whole path does: the path
   * from its latest compaction (the whole path without one), preceded by the last assistant message
   * with a usage when none follows the compaction (the "context before" figure).
   */
  compactionWindow(session: SessionRef, leafSeq: number): SessionEntry[] {
    const path = this.paths.ranges(session, leafSeq);
    const anchor = session.irregular === 0 ? (this.sql.get("SELECT anchor_seq FROM entries WHERE session_id = ? AND seq = ?").pluck().get(session.id, leafSeq) as number | null) : null;
    const window = anchor === null ? undefined : rangesFrom(path, anchor);
    if (anchor === null || !window) return this.paths.entriesIn(session.id, path) as SessionEntry[];
    const entries = this.paths.entriesIn(session.id, window) as SessionEntry[];
    if (hasUsage(entries)) return entries;
    const before = this.lastUsageBefore(session.id, rangesBefore(path, anchor));
    return before ? [before, ...entries] : entries;
  }

  /** the last assistant message of the ranges with a usage (neither aborted nor an error) */
  private lastUsageBefore(sessionId: string, ranges: readonly SeqRange[]): SessionEntry | undefined {
    const candidates = this.sql.get(
      "SELECT seq FROM entries WHERE session_id = ? AND seq BETWEEN ? AND ? AND type = 'message' AND role = 'assistant' AND stop_reason IS NULL ORDER BY seq DESC",
    ).pluck();
    for (const r of [...ranges].reverse()) {
      for (const seq of candidates.iterate(sessionId, r.from, r.to) as IterableIterator<number>) {
        const entry = this.paths.entriesAt(sessionId, [seq])[0] as SessionEntry;
        if (hasUsage([entry])) return entry;
      }
    }
    return undefined;
  }

  /**
   * What a compaction plan of the path to `leafSeq` decides and lists (core summarizeCompaction of
   * prepareCompaction on the whole path), from the narrow rows of the window (ids, types, roles,
   * token estimates: core's outlineCompaction on them), the file operations of the summarized part
   * (file_ops, distinct), and the JSON of only the last assistant message with a usage and the
   * previous compaction. An irregular session is planned from its window's entries.
   */
  compactionPlan(session: SessionRef, leafSeq: number, settings: CompactionPlanSettings): CompactionPlanSummary | undefined {
    if (session.irregular !== 0) {
      const preparation = prepareCompaction(this.compactionWindow(session, leafSeq), settings);
      return preparation && summarizeCompaction(preparation);
    }
    const path = this.paths.ranges(session, leafSeq);
    const anchor = this.sql.get("SELECT anchor_seq FROM entries WHERE session_id = ? AND seq = ?").pluck().get(session.id, leafSeq) as number | null;
    const window = (anchor === null ? undefined : rangesFrom(path, anchor)) ?? path;
    // per row its plan bits (computed by SQLite) and estimate: two number lists; ids only where the plan lists them
    const [kinds, tokens] = this.paths.columnsIn(session.id, window, [PLAN_KIND_SQL, "tokens"], []).numbers as [number[], number[]];
    for (let i = 0; i < kinds.length; i++) if (!((kinds[i] as number) & PLAN_GIVES_MESSAGE)) tokens[i] = 0;
    const rows = new WindowRows(this.paths, session.id, window);
    const usageEntry = this.lastUsageBefore(session.id, path);
    const outline = outlineCompaction({ ids: rows, kinds, tokens }, usageEntry && getLastAssistantUsage([usageEntry]), settings);
    if (!outline) return undefined;
    const fileOps = createFileOperations();
    const previous = outline.previousCompactionIndex < 0 ? undefined : (this.paths.entriesAt(session.id, [rows.seqAt(outline.previousCompactionIndex)])[0] as CompactionEntry);
    if (previous) addPreviousFileLists(previous, fileOps);
    // history and turn prefix: the rows from the boundary to the first kept one
    if (outline.firstKeptEntryIndex > outline.boundaryStart) this.addFileOpCodesIn(session.id, window, rows.seqAt(outline.boundaryStart), rows.seqAt(outline.firstKeptEntryIndex - 1), fileOps);
    return summarizeOutline(outline, fileOps, previous);
  }

  /**
   * The branch plan of moving from `fromSeq` to `toSeq` (core's planBranch: the abandoned branch
   * of collectEntriesForBranchSummary as prepareBranchEntries plans on it), from the rows: every id
   * from the narrow rows; the included ids and tokens from the columns the budget walk reads; the
   * JSON of only what the file lists need (branchFileOps).
   */
  branch(session: SessionRef, fromSeq: number, toSeq: number, budget: number): BranchPlan {
    const oldPath = this.paths.ranges(session, fromSeq);
    // a target on the old path (of a regular session: one entry per id) is the common ancestor: no second walk
    const common = session.irregular === 0 && oldPath.some((r) => r.from <= toSeq && toSeq <= r.to) ? toSeq : this.commonAncestor(session, oldPath, this.paths.ranges(session, toSeq));
    const abandoned = common === null ? oldPath : rangesAfter(oldPath, common);
    const commonId = common === null ? null : (this.sql.get("SELECT id FROM entries INDEXED BY entries_path WHERE session_id = ? AND seq = ?").pluck().get(session.id, common) as string);
    // three reads of pages spread over the file, one after the other in the resident set: the
    // path's runs (above), the branch summaries' JSON, then the abandoned rows (ids, budget walk)
    this.paths.releaseMappedPages();
    const fileOps = this.branchSummaryFileOps(session.id, abandoned);
    this.paths.releaseMappedPages();
    const entryIds = this.paths.idsIn(session.id, abandoned).ids;
    const walk = this.branchBudgetWalk(session.id, abandoned, budget, fileOps);
    return { commonAncestorId: commonId, entryIds, includedEntryIds: walk.included, totalTokens: walk.totalTokens, fileOps };
  }

  /**
   * prepareBranchEntries' pass 2 on the columns: the rows that give a branch message, from the
   * newest, through core's branchBudgetStep (the `tokens` column is estimateTokens of the message;
   * token estimates are never negative, so a range whose rows all fit is taken whole, from one
   * aggregate, and only the range where the budget runs out is walked row by row): the included
   * ids (chronological) and tokens; the file operations of the messages it looks at, up to the one
   * it stops at, are added to `fileOps` (their `file_ops` codes, from entries_file_ops).
   */
  private branchBudgetWalk(sessionId: string, ranges: readonly SeqRange[], budget: number, fileOps: FileOperations): { included: string[]; totalTokens: number } {
    const rows = `FROM entries INDEXED BY entries_path WHERE session_id = ? AND seq BETWEEN ? AND ? AND ${BRANCH_MESSAGE_ROWS}`;
    const whole = this.sql.get(`SELECT total(tokens), json_group_array(id) ${rows}`).raw();
    // the rows that give a message and their kind (1: a summary)
    const newestFirst = this.sql.get(`SELECT seq, id, tokens, type IN ('compaction', 'branch_summary') ${rows} ORDER BY seq DESC`).raw();
    const taken: string[][] = [];
    let totalTokens = 0;
    // the ranges the walk looked at (path order): all of them, unless it stops in one
    let walked: readonly SeqRange[] = ranges;
    walk: for (let r = ranges.length - 1; r >= 0; r--) {
      const range = ranges[r] as SeqRange;
      const [sum, ids] = whole.get(sessionId, range.from, range.to) as [number, string];
      if (budget <= 0 || totalTokens + sum <= budget) {
        taken.push(JSON.parse(ids) as string[]);
        totalTokens += sum;
        continue;
      }
      const newest: string[] = [];
      taken.push(newest);
      for (const [seq, id, tokens, summary] of newestFirst.iterate(sessionId, range.from, range.to) as IterableIterator<[number, string, number, number]>) {
        walked = [{ from: seq, to: range.to }, ...ranges.slice(r + 1)];
        const step = branchBudgetStep(totalTokens, tokens, summary === 1, budget);
        if (step === "stop") break;
        newest.push(id);
        totalTokens += tokens;
        if (step === "last") break;
      }
      newest.reverse();
      break walk;
    }
    this.addFileOpCodesIn(sessionId, walked, 0, Number.MAX_SAFE_INTEGER, fileOps);
    return { included: taken.reverse().flat(), totalTokens };
  }

  /** the file operations (entries.file_ops codes, from entries_file_ops) of the rows of `ranges` with seqs from `lo` to `hi` */
  private addFileOpCodesIn(sessionId: string, ranges: readonly SeqRange[], lo: number, hi: number, fileOps: FileOperations): void {
    const clipped = clipRanges(ranges, lo, hi);
    if (clipped.length === 0) return;
    // one statement over every range (hundreds on a long window)
    const codes = this.sql
      .get(
        "SELECT DISTINCT j.value FROM json_each(?) AS r CROSS JOIN entries e INDEXED BY entries_file_ops ON e.session_id = ? AND e.seq BETWEEN r.value ->> 0 AND r.value ->> 1 CROSS JOIN json_each(e.file_ops) j WHERE e.file_ops IS NOT NULL",
      )
      .pluck()
      .all(rangesJson(clipped), sessionId) as string[];
    for (const code of codes) addFileOpCode(code, fileOps);
  }

  /** pass 1: the file lists of every branch summary of the abandoned `ranges`, from their JSON (a few) */
  private branchSummaryFileOps(sessionId: string, ranges: readonly SeqRange[]): FileOperations {
    const fileOps = createFileOperations();
    for (const entry of this.paths.entriesAt(sessionId, this.branchSummariesIn(sessionId, ranges)) as SessionEntry[]) addBranchSummaryFileLists(entry, fileOps);
    return fileOps;
  }

  /** the seqs of the branch summaries in the ranges, in path order (from all of the session's: a few) */
  private branchSummariesIn(sessionId: string, ranges: readonly SeqRange[]): number[] {
    const all = this.sql.get("SELECT seq FROM entries INDEXED BY entries_branch_summaries WHERE session_id = ? AND type = 'branch_summary' ORDER BY seq").pluck().all(sessionId) as number[];
    return seqsInRanges(all, ranges);
  }

  /** the deepest entry of the target's path that is on the old path (null when they share none) */
  private commonAncestor(session: SessionRef, oldPath: readonly SeqRange[], targetPath: readonly SeqRange[]): number | null {
    if (session.irregular !== 0) {
      // any order of seqs: by position, as core does
      const onOld = new Set(rangeSeqs(oldPath));
      const target = rangeSeqs(targetPath);
      for (let i = target.length - 1; i >= 0; i--) if (onOld.has(target[i] as number)) return target[i] as number;
      return null;
    }
    // a regular session's paths go up in seq, and two paths share a prefix: the deepest shared seq,
    // from one sweep over both lists of ranges (each in ascending, disjoint order)
    let best: number | null = null;
    let o = 0;
    for (const t of targetPath) {
      while (o < oldPath.length && (oldPath[o] as SeqRange).to < t.from) o++;
      for (let k = o; k < oldPath.length && (oldPath[k] as SeqRange).from <= t.to; k++) best = Math.min(t.to, (oldPath[k] as SeqRange).to);
    }
    return best;
  }
}

/** the ranges after `seq` (on them) */
function rangesAfter(ranges: readonly SeqRange[], seq: number): SeqRange[] {
  const i = ranges.findIndex((r) => r.from <= seq && seq <= r.to);
  if (i < 0) return [...ranges];
  const r = ranges[i] as SeqRange;
  return r.to > seq ? [{ from: seq + 1, to: r.to }, ...ranges.slice(i + 1)] : ranges.slice(i + 1);
}



/**
 * The rows whose entry gives a branch message (core's getBranchMessageFromEntry; its token estimate
 * is the `tokens` column): a message other than a tool result — or an odd one (FLAG_ODD_MESSAGE,
 * whose role is NULL: it gives a message of its own) — a custom message, a branch summary, a
 * compaction. Tool results are told apart on the index (type, role) without reading their rows.
 */
const BRANCH_MESSAGE_ROWS = `(type IN ('custom_message', 'branch_summary', 'compaction') OR (type = 'message' AND (role <> 'toolResult' OR (role IS NULL AND (flags & ${FLAG_ODD_MESSAGE}) <> 0))))`;

/** some assistant message of the entries has a usage the plan counts (core's rule) */
function hasUsage(entries: readonly SessionEntry[]): boolean {
  return getLastAssistantUsage(entries) !== undefined;
}

/**
 * planKindOf of a row (its columns type, role, flags) in SQL, built from planKindOf itself: a
 * `message` row has its message when the columns hold its role or it is odd (FLAG_ODD_MESSAGE:
 * present, without a text role); the other types' bits do not depend on the row.
 */
export const PLAN_KIND_SQL = (() => {
  const message = (has: boolean): string =>
    `CASE role ${Object.keys(AGENT_ROLES)
      .map((role) => `WHEN ${sqlText(role)} THEN ${planKindOf("message", role, has)}`)
      .join(" ")} ELSE ${planKindOf("message", null, has)} END`;
  const others = ["custom_message", "branch_summary", "compaction"].map((type) => `WHEN ${sqlText(type)} THEN ${planKindOf(type, null, false)}`).join(" ");
  return `CASE type WHEN 'message' THEN CASE WHEN role IS NOT NULL OR flags & ${FLAG_ODD_MESSAGE} THEN ${message(true)} ELSE ${message(false)} END ${others} ELSE 0 END`;
})();

/** the rows that give a compaction-variant message (planKindOf's PLAN_GIVES_MESSAGE) */
const GIVES_MESSAGE: RowFilter = { where: `(${PLAN_KIND_SQL}) & ${PLAN_GIVES_MESSAGE}` };

/**
 * The ids of a compaction window's rows (core PlanRowIds) by their place in the window, read when a
 * plan lists them: the window's ranges map a place to its seq, the covering index gives the ids.
 */
class WindowRows implements PlanRowIds {
  /** the place of each range's first row */
  private readonly starts: number[] = [];

  constructor(
    private readonly paths: PathReader,
    private readonly sessionId: string,
    private readonly window: readonly SeqRange[],
  ) {
    let place = 0;
    for (const r of window) {
      this.starts.push(place);
      place += rangeSize(r);
    }
  }

  /** the seq of the row at `place` */
  seqAt(place: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= place) lo = mid;
      else hi = mid - 1;
    }
    return (this.window[lo] as SeqRange).from + place - (this.starts[lo] as number);
  }

  at(place: number): string | undefined {
    return this.paths.idsAt(this.sessionId, [this.seqAt(place)])[0];
  }

  range(start: number, end: number): string[] {
    return this.idsOf(start, end);
  }

  messages(start: number, end: number): string[] {
    return this.idsOf(start, end, GIVES_MESSAGE);
  }

  messageList(start: number, end: number): IdList {
    return this.paths.idsIn(this.sessionId, this.rangesOf(start, end), GIVES_MESSAGE).ids;
  }

  /** the ids of the rows at places [start, end) that pass `filter` */
  private idsOf(start: number, end: number, filter?: RowFilter): string[] {
    // ids are never NULL
    return this.paths.columnsIn(this.sessionId, this.rangesOf(start, end), [], ["id"], filter).texts[0] as string[];
  }

  /** the window's ranges of the rows at places [start, end) */
  private rangesOf(start: number, end: number): SeqRange[] {
    return end <= start ? [] : clipRanges(this.window, this.seqAt(start), this.seqAt(end - 1));
  }
}
