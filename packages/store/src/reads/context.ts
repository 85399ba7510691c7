/**
 * What the model sees from a leaf of a stored session, read without loading the session:
 * - `contextEntries`: the entries buildSessionContext needs, as one root -> leaf chain: the path
 *   from the latest compaction's first kept entry, preceded by the older part's settings entries
 *   (thinking/model/mode changes, ttsr injections) and its first and last assistant messages (the
 *   default model, in the order the whole path sets it). The same context, a fraction of the JSON.
 * - `contextSummary`: the messages' entry ids, roles, LLM roles and token estimates straight from
 *   the derived columns (no entry JSON but the settings entries' and two assistant messages'), for
 *   the same answer as building the context and converting it.
 * - `contextFigures`: the estimate and the last usage reported on the path (core contextOf's, which
 *   contextFigureOf takes) from one aggregate and the JSON of the few entries they need.
 */
import { buildSessionContext, convertMessageToLlm, estimateTokens, IdList, llmRoleOf, messageFromEntry, reportedContextTokens, reportedUsageWith } from "@bonsai/core";
import type { AgentRole, CompactionEntry, ContextSummary, FiguresOfPath, ReportedUsage, SessionEntry } from "@bonsai/core";
import { FLAG_EMPTY_SUMMARY, FLAG_EXCLUDED, FLAG_ODD_MESSAGE } from "../derive";
import { SETTINGS_ROWS } from "../migrations/014-settings-rows";
import { clipRanges, rangesBefore, rangesFrom, rangesJson, relinked, type PathReader, type SeqRange, type SessionRef, type Statements } from "./path";
import { seqsInRanges } from "./seqs-in-ranges";

export type { ContextLists, ContextMessageRows, ContextWindow, UnlistedMessages } from "./context-types";
import type { ContextFold, ContextLists, ContextMessageRows, ContextWindow } from "./context-types";

/** every role a message has (core's AgentRole): the SQL below maps each as core's llmRoleOf does */
export const AGENT_ROLES: Record<AgentRole, true> = {
  user: true,
  assistant: true,
  toolResult: true,
  bashExecution: true,
  pythonExecution: true,
  fileMention: true,
  custom: true,
  hookMessage: true,
  branchSummary: true,
  compactionSummary: true,
};

export const sqlText = (text: string): string => `'${text.replaceAll("'", "''")}'`;
/** the SQL literal of a value's JSON text (what json_quote gives for it) */
const sqlJson = (value: string | undefined): string => (value === undefined ? "NULL" : sqlText(JSON.stringify(value)));

/** json_quote(role) of the column `role`, the known roles as literals */
export const ROLE_JSON_SQL = `CASE role ${Object.keys(AGENT_ROLES)
  .map((role) => `WHEN ${sqlText(role)} THEN ${sqlJson(role)}`)
  .join(" ")} ELSE json_quote(role) END`;

/**
 * json_quote(llmRoleOf(role, excluded)) of the columns `role` and `flags` (NULL where llmRoleOf gives
 * undefined: an unknown role too), built from llmRoleOf itself.
 */
export const LLM_ROLE_JSON_SQL = `CASE role ${Object.keys(AGENT_ROLES)
  .map((role) => {
    const [sent, excluded] = [llmRoleOf(role, false), llmRoleOf(role, true)];
    return `WHEN ${sqlText(role)} THEN ${sent === excluded ? sqlJson(sent) : `CASE WHEN flags & ${FLAG_EXCLUDED} THEN ${sqlJson(excluded)} ELSE ${sqlJson(sent)} END`}`;
  })
  .join(" ")} END`;

/** contextRoleOf of the row `e` (its columns type, role, flags) in SQL */
function contextRoleSql(e: string): string {
  return `CASE ${e}.type WHEN 'message' THEN ${e}.role WHEN 'custom_message' THEN 'custom'
    WHEN 'branch_summary' THEN CASE WHEN ${e}.flags & ${FLAG_EMPTY_SUMMARY} THEN NULL ELSE 'branchSummary' END END`;
}

/**
 * The context's message rows over ranges (the statement's first parameter, rangesJson; the session
 * its second), in path order, as the CTE `m`: seq, id, tokens, flags and `role`, the role of the message
 * the row gives the context (contextRoleOf; NULL when it gives none, or when its message has no
 * role in the columns: FLAG_ODD_MESSAGE, which the caller checks for).
 */
const CONTEXT_MESSAGE_ROWS = `r(lo, hi) AS (SELECT value ->> 0, value ->> 1 FROM json_each(?)),
         m AS (
           SELECT e.seq, e.id, e.tokens, e.flags, ${contextRoleSql("e")} AS role
           FROM r CROSS JOIN entries e INDEXED BY entries_path ON e.session_id = ? AND e.seq BETWEEN r.lo AND r.hi
           WHERE e.type IN ('message', 'custom_message', 'branch_summary')
         )`;

/** Where the context of a leaf starts on its path. */
interface ContextPlan {
  /** the whole path, root first */
  path: SeqRange[];
  /** the latest compaction on the path, if any */
  anchor: number | null;
  /** the path from the first message kept (the whole path without a compaction) */
  kept: SeqRange[];
}

export class ContextReader {
  constructor(
    private readonly sql: Statements,
    private readonly paths: PathReader,
  ) {}

  /** (`path`: the path's ranges, when the caller has read them) */
  private plan(session: SessionRef, leafSeq: number, path: SeqRange[] = this.paths.ranges(session, leafSeq)): ContextPlan {
    const anchor = this.sql.get("SELECT anchor_seq FROM entries WHERE session_id = ? AND seq = ?").pluck().get(session.id, leafSeq) as number | null;
    if (anchor === null || anchor === undefined) return { path, anchor: null, kept: path };
    const keptId = this.sql.get("SELECT ref_id FROM entries WHERE session_id = ? AND seq = ?").pluck().get(session.id, anchor) as string | null;
    const keptSeq = keptId ? this.paths.seqOf(session.id, keptId) : undefined;
    // kept from the first kept entry when it is on the path before the compaction, else from the compaction
    const fromKept = keptSeq !== undefined && keptSeq < anchor ? rangesFrom(path, keptSeq) : undefined;
    return { path, anchor, kept: fromKept ?? rangesFrom(path, anchor) ?? [] };
  }

  /**
   * The path's entries that set what the context reports besides its messages, on `path` (the
   * ranges up to the entry the context is built at, `below`), ascending: the settings entries
   * (`modelsOnly`: only the model changes and the nearest thinking level change, all the models and
   * the thinking level need), and the first and last assistant messages (the default model, in the
   * order the path sets it).
   */
  private settingsPart(sessionId: string, path: readonly SeqRange[], below: number | null, modelsOnly: boolean): number[] {
    const seqs = new Set(this.settingsIn(sessionId, path, modelsOnly));
    if (modelsOnly && below !== null) {
      const thinking = this.paths.thinkingAt(sessionId, below);
      if (thinking !== undefined) seqs.add(thinking);
    }
    const first = this.paths.findInRanges(sessionId, path, "message", "assistant", false);
    const last = this.paths.findInRanges(sessionId, path, "message", "assistant", true);
    if (first !== undefined) seqs.add(first);
    if (last !== undefined) seqs.add(last);
    return [...seqs].sort((a, b) => a - b);
  }

  /** the settings entries (`modelsOnly`: the model changes) in the ranges, from the session's few (entries_settings) */
  private settingsIn(sessionId: string, ranges: readonly SeqRange[], modelsOnly: boolean): number[] {
    const all = this.sql
      .get(`SELECT seq FROM entries INDEXED BY entries_settings WHERE session_id = ? AND ${SETTINGS_ROWS} AND (? = 0 OR type = 'model_change') ORDER BY seq`)
      .pluck()
      .all(sessionId, modelsOnly ? 1 : 0) as number[];
    return seqsInRanges(all, ranges);
  }

  /** the estimate of the latest compaction's summary (undefined without one) */
  private anchorTokens(session: SessionRef, plan: ContextPlan): number | undefined {
    return plan.anchor === null ? undefined : (this.sql.get("SELECT tokens FROM entries WHERE session_id = ? AND seq = ?").pluck().get(session.id, plan.anchor) as number | undefined);
  }

  /** The entries buildSessionContext needs for the entry at `leafSeq`, relinked as one chain (regular sessions). */
  contextEntries(session: SessionRef, leafSeq: number): SessionEntry[] {
    const plan = this.plan(session, leafSeq);
    const start = plan.kept[0]?.from;
    const older = start === undefined || plan.anchor === null ? [] : this.settingsPart(session.id, rangesBefore(plan.path, start), this.parentOf(session.id, start), false);
    const entries = [...(this.paths.entriesAt(session.id, older) as SessionEntry[]), ...(this.paths.entriesIn(session.id, plan.kept) as SessionEntry[])];
    return relinked(entries);
  }

  private parentOf(sessionId: string, seq: number): number | null {
    return (this.sql.get("SELECT parent_seq FROM entries INDEXED BY entries_path WHERE session_id = ? AND seq = ?").pluck().get(sessionId, seq) as number | null | undefined) ?? null;
  }

  /** The context's messages from the derived columns (regular sessions). */
  contextSummary(session: SessionRef, leafSeq: number): ContextSummary {
    return this.messageRows(session, this.plan(session, leafSeq), leafSeq, false).summary;
  }

  /** the sum of contextSummary's token estimates, from one aggregate (undefined: a message without a role in the columns) */
  contextTokens(session: SessionRef, leafSeq: number): number | undefined {
    return this.tokensOf(session, this.plan(session, leafSeq));
  }

  /**
   * What core's contextOf gives over the whole path to the entry at `leafSeq` for contextFigureOf:
   * the estimate (contextTokens' aggregate) and the last usage a model reported on the path, with
   * its age against the latest compaction and the estimate of the context's messages after it. The
   * JSON read is that of the newest assistant messages on the path up to the first with a usage,
   * and of the latest compaction. Undefined when a message has no role in the columns.
   */
  contextFigures(session: SessionRef, leafSeq: number): FiguresOfPath | undefined {
    return this.figuresAndStart(session, leafSeq)?.figures;
  }

  /** contextFigures, and the seq where the context starts on the path (its first kept entry; null: it keeps none) */
  figuresAndStart(session: SessionRef, leafSeq: number, path?: SeqRange[]): { figures: FiguresOfPath; keptFrom: number | null } | undefined {
    const plan = this.plan(session, leafSeq, path);
    const tokens = this.tokensOf(session, plan);
    return tokens === undefined ? undefined : { figures: this.figuresOf(session, plan, tokens), keptFrom: plan.kept[0]?.from ?? null };
  }

  /** contextFigures of the plan's path given its estimate: the last usage reported and the latest compaction's tokensBefore */
  private figuresOf(session: SessionRef, plan: ContextPlan, tokens: number): FiguresOfPath {
    const e = plan.anchor === null ? undefined : (this.paths.entriesAt(session.id, [plan.anchor])[0] as CompactionEntry | undefined);
    return { tokens, usage: this.usageOn(session, plan, tokens), compactionTokensBefore: e?.type === "compaction" && typeof e.tokensBefore === "number" ? e.tokensBefore : null };
  }

  /** the last usage reported on the plan's path (contextFigures), given the context's estimate `tokens` */
  private usageOn(session: SessionRef, plan: ContextPlan, tokens: number): ReportedUsage | null {
    const usage = this.newestWith(session.id, plan.path, "type = 'message' AND role = 'assistant'", [], hasUsageField);
    if (!usage) return null;
    const compaction = plan.anchor === null ? null : (this.paths.entriesAt(session.id, [plan.anchor])[0] as SessionEntry);
    // a reply among the kept entries is one of the context's messages; an older one was summarized away (every message follows it)
    const trailing = plan.kept.some((r) => r.from <= usage.seq && usage.seq <= r.to) ? this.tokensAfter(session, plan, usage.seq) : tokens;
    return reportedUsageWith(usage.entry, compaction, trailing);
  }

  private tokensOf(session: SessionRef, plan: ContextPlan): number | undefined {
    const [tokens, odd] = this.sql
      .get(
        `WITH ${CONTEXT_MESSAGE_ROWS}
         SELECT total(tokens), max(flags & ${FLAG_ODD_MESSAGE}) FROM m WHERE role IS NOT NULL OR flags & ${FLAG_ODD_MESSAGE}`,
      )
      .raw()
      .get(rangesJson(plan.kept), session.id) as [number, number | null];
    if (odd) return undefined;
    return tokens + (this.anchorTokens(session, plan) ?? 0);
  }

  /**
   * contextSummary as the `context` command reports it, its lists made by SQLite from the covering
   * index (one statement over the kept ranges, no string or number per message in JavaScript): the
   * same answer as contextSummary's, in the time the rows take to read. Undefined when a message of
   * the context has no role the columns hold (FLAG_ODD_MESSAGE: read it with contextSummary).
   */
  contextLists(session: SessionRef, leafSeq: number): ContextLists | undefined {
    const plan = this.plan(session, leafSeq);
    const separator = IdList.SEPARATOR;
    // the rows that give a message (contextRoleOf), in path order: the ranges are the outer loop
    const [count, ids, roles, sent, sentCount, tokens, odd] = this.sql
      .get(
        `WITH ${CONTEXT_MESSAGE_ROWS},
         l AS (SELECT id, tokens, flags, ${ROLE_JSON_SQL} AS role, ${LLM_ROLE_JSON_SQL} AS llm FROM m WHERE role IS NOT NULL OR flags & ${FLAG_ODD_MESSAGE})
         SELECT count(*), CAST(group_concat(json_quote(id), ?) AS BLOB), CAST(group_concat(role, ?) AS BLOB), CAST(group_concat(llm, ?) AS BLOB), count(llm), total(tokens), max(flags & ${FLAG_ODD_MESSAGE}) FROM l`,
      )
      .raw()
      .get(rangesJson(plan.kept), session.id, separator, separator, separator) as [number, Buffer | null, Buffer | null, Buffer | null, number, number, number | null];
    if (odd) return undefined;
    // as bytes (BLOB): no string is made of the lists, which a writer passes on as they are
    let entryIds = IdList.fromJsonItems(ids ?? "", count);
    let roleList = IdList.fromJsonItems(roles ?? "", count);
    let sentList = IdList.fromJsonItems(sent ?? "", sentCount);
    let estimatedTokens = tokens;
    // the latest compaction's summary comes first
    if (plan.anchor !== null) {
      const anchor = this.sql.get("SELECT id, tokens FROM entries WHERE session_id = ? AND seq = ?").raw().get(session.id, plan.anchor) as [string, number] | undefined;
      if (anchor) {
        const first = (list: Buffer | null, item: string, length: number): IdList =>
          IdList.fromJsonItems(length === 0 ? item : Buffer.concat([Buffer.from(`${item}${separator}`), list as Buffer]), length + 1);
        entryIds = first(ids, JSON.stringify(anchor[0]), count);
        roleList = first(roles, JSON.stringify("compactionSummary"), count);
        const summaryRole = llmRoleOf("compactionSummary", false);
        if (summaryRole !== undefined) sentList = first(sent, JSON.stringify(summaryRole), sentCount);
        estimatedTokens += anchor[1];
      }
    }
    const { models, thinkingLevel } = this.settingsInForce(session, plan, leafSeq);
    return { entryIds, roles: roleList, llmRoles: sentList, estimatedTokens, models, thinkingLevel, figures: this.figuresOf(session, plan, estimatedTokens) };
  }

  /**
   * The context's messages as a preview lists them (regular sessions): contextSummary's columns,
   * whether convertToLlm sends each, each entry's stored preview (the tree's), and the JSON of only
   * the entries the figures read — the latest compaction, the newest assistant message with a usage
   * among the context's entries, the newest session_init kept.
   */
  contextMessages(session: SessionRef, leafSeq: number, window?: ContextWindow): ContextMessageRows {
    const plan = this.plan(session, leafSeq);
    const fold = window === undefined ? undefined : this.fold(session, plan, window);
    const rows = this.messageRows(session, plan, leafSeq, true, fold?.ranges);
    const compaction = plan.anchor === null ? null : (this.paths.entriesAt(session.id, [plan.anchor])[0] as CompactionEntry);
    // the context's entries, newest first: the kept part, then the older part's last and first assistant messages
    const start = plan.kept[0]?.from;
    const before = start === undefined || plan.anchor === null ? [] : rangesBefore(plan.path, start);
    const olderAssistants = [true, false].map((last) => this.paths.findInRanges(session.id, before, "message", "assistant", last));
    const usage = this.newestWith(session.id, plan.kept, "type = 'message' AND role = 'assistant'", olderAssistants, hasUsageField);
    const sessionInit = this.newestWith(session.id, plan.kept, "type = 'session_init'", [], (e) => typeof (e as { systemPrompt?: unknown }).systemPrompt === "string");
    const out: ContextMessageRows = { ...rows, compaction, usageMessage: usage?.entry ?? null, sessionInit: sessionInit?.entry ?? null, unlisted: null };
    if (!fold) return out;
    let listedTokens = 0;
    for (const t of rows.summary.tokens) listedTokens += t;
    const listedSent = rows.sent.filter((role) => role !== null).length;
    out.unlisted = { at: fold.at, count: fold.count - rows.summary.entryIds.length, tokens: fold.tokens - listedTokens, sent: fold.sent - listedSent, largestTokens: fold.largestTokens };
    if (usage) out.usageTrailingTokens = plan.kept.some((r) => r.from <= usage.seq && usage.seq <= r.to) ? this.tokensAfter(session, plan, usage.seq) : fold.tokens;
    return out;
  }

  /**
   * The part of the context a window lists, when the context holds more messages than it lists: the
   * ranges of its first `head` and newest `tail` messages (the latest compaction's summary, the
   * first message, is one of the head), found by their place among the rows without reading the
   * rows between, and the whole context's count, estimate and largest estimate from one aggregate.
   * Undefined when the window lists every message, or when a message has no role in the columns.
   */
  private fold(session: SessionRef, plan: ContextPlan, window: ContextWindow): ContextFold | undefined {
    const kept = rangesJson(plan.kept);
    const [count, tokens, largest, odd, sent] = this.sql
      .get(
        `WITH ${CONTEXT_MESSAGE_ROWS} SELECT count(*), total(tokens), max(tokens), max(flags & ${FLAG_ODD_MESSAGE}), count(${LLM_ROLE_JSON_SQL}) FROM m WHERE role IS NOT NULL OR flags & ${FLAG_ODD_MESSAGE}`,
      )
      .raw()
      .get(kept, session.id) as [number, number, number | null, number | null, number];
    if (odd) return undefined;
    const anchorTokens = this.anchorTokens(session, plan);
    const summaries = anchorTokens === undefined ? 0 : 1;
    const first = plan.kept[0];
    const last = plan.kept[plan.kept.length - 1];
    if (count + summaries <= window.head + window.tail || !first || !last) return undefined;
    // the seq of the n-th message row (0-based), in path order
    const nth = this.sql.get(`WITH ${CONTEXT_MESSAGE_ROWS} SELECT seq FROM m WHERE role IS NOT NULL LIMIT 1 OFFSET ?`).pluck();
    const headRows = window.head - summaries;
    const head = headRows > 0 ? clipRanges(plan.kept, first.from, nth.get(kept, session.id, headRows - 1) as number) : [];
    const tail = clipRanges(plan.kept, this.nthFromEnd(session.id, plan.kept, window.tail - 1), last.to);
    const ranges = [...head, ...tail];
    // the summary's row, read where it lies among the rows not listed
    const anchor = plan.anchor;
    if (anchor !== null && !ranges.some((r) => r.from <= anchor && anchor <= r.to)) ranges.push({ from: anchor, to: anchor });
    // a regular session's path goes up in seq: ranges in seq order are in path order
    ranges.sort((a, b) => a.from - b.from);
    const summarySent = summaries > 0 && llmRoleOf("compactionSummary", false) !== undefined ? 1 : 0;
    return { ranges, at: window.head, count: count + summaries, tokens: tokens + (anchorTokens ?? 0), sent: sent + summarySent, largestTokens: Math.max(largest ?? 0, anchorTokens ?? 0) };
  }

  /**
   * The seq of the n-th message row from the end (0-based) of ranges holding more than n: the ranges
   * read backwards, newest first, so that only the rows from there on are stepped over.
   */
  private nthFromEnd(sessionId: string, ranges: readonly SeqRange[], n: number): number {
    const rows = `FROM entries e INDEXED BY entries_path WHERE e.session_id = ? AND e.seq BETWEEN ? AND ? AND (${contextRoleSql("e")}) IS NOT NULL`;
    const nth = this.sql.get(`SELECT e.seq ${rows} ORDER BY e.seq DESC LIMIT 1 OFFSET ?`).pluck();
    const countIn = this.sql.get(`SELECT count(*) ${rows}`).pluck();
    let left = n;
    for (let i = ranges.length - 1; i >= 0; i--) {
      const r = ranges[i] as SeqRange;
      const seq = nth.get(sessionId, r.from, r.to, left) as number | undefined;
      if (seq !== undefined) return seq;
      left -= countIn.get(sessionId, r.from, r.to) as number;
    }
    throw new Error(`the context holds no ${n + 1} messages from its end`);
  }

  /** the sum of the estimates of the context's messages after the row at `seq` (one of them) */
  private tokensAfter(session: SessionRef, plan: ContextPlan, seq: number): number {
    const after = clipRanges(plan.kept, seq + 1, Number.MAX_SAFE_INTEGER);
    return this.sql.get(`WITH ${CONTEXT_MESSAGE_ROWS} SELECT total(tokens) FROM m WHERE role IS NOT NULL`).pluck().get(rangesJson(after), session.id) as number;
  }

  /** the newest entry of the ranges passing `where` and `test` (JSON parsed one by one), else the first of `then` (seqs, in that order) that passes */
  private newestWith(
    sessionId: string,
    ranges: readonly SeqRange[],
    where: string,
    then: readonly (number | undefined)[],
    test: (entry: SessionEntry) => boolean,
  ): { seq: number; entry: SessionEntry } | undefined {
    const newest = this.sql.get(`SELECT seq FROM entries INDEXED BY entries_path WHERE session_id = ? AND seq BETWEEN ? AND ? AND ${where} ORDER BY seq DESC`).pluck();
    for (let i = ranges.length - 1; i >= 0; i--) {
      const r = ranges[i] as SeqRange;
      for (const seq of newest.iterate(sessionId, r.from, r.to) as IterableIterator<number>) {
        const entry = this.paths.entriesAt(sessionId, [seq])[0] as SessionEntry;
        if (test(entry)) return { seq, entry };
      }
    }
    for (const seq of then) {
      if (seq === undefined) continue;
      const entry = this.paths.entriesAt(sessionId, [seq])[0] as SessionEntry;
      if (test(entry)) return { seq, entry };
    }
    return undefined;
  }

  /** the context's message rows of `ranges` (the kept ranges, or a window's part of them, which holds the latest compaction) */
  private messageRows(
    session: SessionRef,
    plan: ContextPlan,
    leafSeq: number,
    withPreviews: boolean,
    ranges: readonly SeqRange[] = plan.kept,
  ): Omit<ContextMessageRows, "compaction" | "usageMessage" | "sessionInit" | "unlisted"> {
    const out: ContextSummary = { entryIds: [], roles: [], llmRoles: [], tokens: [], models: {}, thinkingLevel: "off" };
    const sent: (string | null)[] = [];
    const previews: string[] = [];
    let preview = "";
    const push = (id: string, role: unknown, llmRole: string | undefined, tokens: number): void => {
      out.entryIds.push(id);
      out.roles.push(role);
      if (llmRole !== undefined) out.llmRoles.push(llmRole);
      out.tokens.push(tokens);
      sent.push(llmRole ?? null);
      if (withPreviews) previews.push(preview);
    };
    const texts = withPreviews ? ["id", "type", "role", "preview"] : ["id", "type", "role"];
    const columns = this.paths.columnsIn(session.id, ranges, ["seq", "tokens", "flags"], texts, { where: "type IN ('message', 'custom_message', 'branch_summary', 'compaction')" });
    const [seqs, tokens, flags] = columns.numbers as [number[], number[], number[]];
    const [ids, types, roles, texts3] = columns.texts as [string[], string[], (string | null)[], string[] | undefined];
    const odd = seqs.filter((_, i) => (flags[i] as number) & FLAG_ODD_MESSAGE);
    const oddJson = this.paths.entriesAt(session.id, odd) as SessionEntry[];
    const oddEntries = new Map(odd.map((seq, i) => [seq, oddJson[i] as SessionEntry]));
    if (plan.anchor !== null) {
      const at = seqs.indexOf(plan.anchor);
      preview = texts3?.[at] ?? "";
      if (at >= 0) push(ids[at] as string, "compactionSummary", llmRoleOf("compactionSummary", false), tokens[at] as number);
    }
    for (let i = 0; i < seqs.length; i++) {
      const seq = seqs[i] as number;
      if (seq === plan.anchor) continue;
      const id = ids[i] as string;
      preview = texts3?.[i] ?? "";
      const entry = odd.length === 0 ? undefined : oddEntries.get(seq);
      if (entry) {
        const m = messageFromEntry(entry);
        if (m) push(id, m.role, convertMessageToLlm(m)?.role, estimateTokens(m));
        continue;
      }
      const f = flags[i] as number;
      const messageRole = contextRoleOf(types[i] as string, roles[i] ?? null, f);
      if (messageRole !== null) push(id, messageRole, llmRoleOf(messageRole, (f & FLAG_EXCLUDED) !== 0), tokens[i] as number);
    }
    const { models, thinkingLevel } = this.settingsInForce(session, plan, leafSeq);
    out.models = models;
    out.thinkingLevel = thinkingLevel;
    return { summary: out, sent, previews };
  }

  /** the models and thinking level in force at the leaf: the same loop over the path's settings entries and first and last assistant messages */
  private settingsInForce(session: SessionRef, plan: ContextPlan, leafSeq: number): { models: Record<string, string>; thinkingLevel: string } {
    const settings = this.settingsPart(session.id, plan.path, leafSeq, true);
    // their JSON lies scattered over the file, a page each: read after the pages read so far are released
    this.paths.releaseMappedPages();
    const context = buildSessionContext(relinked(this.paths.entriesAt(session.id, settings) as SessionEntry[]));
    return { models: context.models, thinkingLevel: context.thinkingLevel };
  }
}

/** an assistant message entry with a usage (what the reported usage looks for) */
function hasUsageField(entry: SessionEntry): boolean {
  return reportedContextTokens(entry) !== undefined;
}

/**
 * The role of the message an entry gives the context (messageFromEntry), from its columns; null
 * when it gives none. Compactions give theirs only as the latest one (the caller's part).
 */
function contextRoleOf(type: string, role: string | null, flags: number): string | null {
  switch (type) {
    case "message":
      return role;
    case "custom_message":
      return "custom";
    case "branch_summary":
      return flags & FLAG_EMPTY_SUMMARY ? null : "branchSummary";
    default:
      return null;
  }
}

