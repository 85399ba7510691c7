/**
 * Paths of a stored session without walking it entry by entry: every row knows where its linear run
 * starts (`run_seq`: consecutive rows, each the parent of the next), so the path from a leaf to the
 * root is a few seq ranges, one lookup per run. A session with duplicate ids or parents that come
 * later in the file (`sessions.irregular`) has unreliable shortcuts: its path is walked from the
 * parent links of every row instead (any tree, cycles stop at the repeated entry).
 */
import type Database from "better-sqlite3";
import { IdList, type SessionEntry } from "@bonsai/core";
import { byId, lastFirst } from "../id-tiers";

/** seqs [from, to] (inclusive) of consecutive path entries, each the parent of the next */
export interface SeqRange {
  from: number;
  to: number;
}

/** The session facts a read needs. */
export interface SessionRef {
  id: string;
  /** 1 when the shortcuts cannot be used */
  irregular: number;
}

const SEPARATOR = "\x1e";
/** text columns of `entries` that are never NULL */
const NOT_NULL = new Set(["id", "type"]);

/**
 * Which rows of a range a read takes: an SQL condition on the row (`params` bind its `?`), and the
 * index it reads them from — entries_path (every row), or a partial index whose condition `where`
 * includes (migration 010: entries_tool_results).
 */
export interface RowFilter {
  where: string;
  params?: readonly unknown[];
  index?: "entries_path" | "entries_tool_results";
}

const EVERY_ROW: RowFilter = { where: "1" };
const ONE = 0x31; // "1"

/** Prepared statements of one connection, by their text. */
export class Statements {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  get(text: string): Database.Statement {
    let s = this.cache.get(text);
    if (!s) {
      s = this.db.prepare(text);
      this.cache.set(text, s);
    }
    return s;
  }
}

/** The number of seqs in a range. */
export function rangeSize(r: SeqRange): number {
  return r.to - r.from + 1;
}

/** The seqs of the ranges, in order. */
export function rangeSeqs(ranges: readonly SeqRange[]): number[] {
  const out: number[] = [];
  for (const r of ranges) for (let s = r.from; s <= r.to; s++) out.push(s);
  return out;
}

/** ranges as the JSON array of [from, to] pairs that statements read with json_each */
export function rangesJson(ranges: readonly SeqRange[]): string {
  return JSON.stringify(ranges.map((r) => [r.from, r.to]));
}

/** seqs (in path order) as ranges of consecutive increasing seqs */
function toRanges(seqs: readonly number[]): SeqRange[] {
  const out: SeqRange[] = [];
  for (const s of seqs) {
    const last = out[out.length - 1];
    if (last && s === last.to + 1) last.to = s;
    else out.push({ from: s, to: s });
  }
  return out;
}

export class PathReader {
  constructor(private readonly sql: Statements) {}

  /**
   * Unmaps the database file's pages read so far (SQLite maps the file again on the next read): a
   * read touching pages spread over the file keeps each one resident (64 KiB) while mapped, so
   * reads that touch different parts release the previous part first and the resident set holds
   * one part at a time. A short-lived reader's peak memory is what this saves; CPU is about the same.
   */
  releaseMappedPages(): void {
    const db = this.sql.db;
    const mapped = db.pragma("mmap_size", { simple: true }) as number;
    if (mapped === 0) return;
    db.pragma("mmap_size = 0");
    db.pragma(`mmap_size = ${mapped}`);
  }

  /** seq of the entry lookups by id find (the last one with that id) */
  seqOf(sessionId: string, entryId: string): number | undefined {
    return this.sql.get(`SELECT seq FROM entries WHERE ${byId()} ORDER BY ${lastFirst()} LIMIT 1`).pluck().get(sessionId, entryId) as number | undefined;
  }

  /** The path root -> the entry at `leafSeq`, as ranges (root first). */
  ranges(session: SessionRef, leafSeq: number): SeqRange[] {
    if (session.irregular !== 0) return toRanges(this.walkedSeqs(session.id, leafSeq));
    // one statement: from each run's start to its parent's run (a regular session's parents always
    // come earlier in the file, so the walk goes down and ends), on entries_path alone (it covers the
    // links: a cold start reads a few index pages instead of a table page per run)
    const rows = this.sql
      .get(
        `WITH RECURSIVE runs(from_seq, to_seq) AS (
           SELECT CASE WHEN run_seq IS NULL OR run_seq > seq THEN seq ELSE run_seq END, seq FROM entries INDEXED BY entries_path WHERE session_id = @session AND seq = @seq
           UNION ALL
           SELECT CASE WHEN p.run_seq IS NULL OR p.run_seq > p.seq THEN p.seq ELSE p.run_seq END, p.seq
           FROM runs CROSS JOIN entries r INDEXED BY entries_path ON r.session_id = @session AND r.seq = runs.from_seq
                     CROSS JOIN entries p INDEXED BY entries_path ON p.session_id = @session AND p.seq = r.parent_seq
           WHERE r.parent_seq < runs.from_seq
         )
         SELECT from_seq, to_seq FROM runs ORDER BY to_seq`,
      )
      .raw()
      .all({ session: session.id, seq: leafSeq }) as [number, number][];
    return rows.map(([from, to]) => ({ from, to }));
  }

  /** The path seqs from every row's parent link (irregular sessions: cycles stop at the repeated entry). */
  private walkedSeqs(sessionId: string, leafSeq: number): number[] {
    const parents = this.sql.get("SELECT parent_seq FROM entries INDEXED BY entries_path WHERE session_id = ? ORDER BY seq").pluck().all(sessionId) as (number | null)[];
    const seqs: number[] = [];
    const seen = new Uint8Array(parents.length);
    let s: number | null = leafSeq;
    while (s !== null && s < parents.length && seen[s] === 0) {
      seen[s] = 1;
      seqs.push(s);
      s = parents[s] ?? null;
    }
    return seqs.reverse();
  }

  /** The JSON of the entries at the given seqs (any order), parsed, in the order given. */
  entriesAt(sessionId: string, seqs: readonly number[]): unknown[] {
    if (seqs.length === 0) return [];
    const bySeq = new Map<number, string>();
    const rows = this.sql
      .get("SELECT e.seq, j.json FROM json_each(?) AS w CROSS JOIN entries e ON e.session_id = ? AND e.seq = w.value CROSS JOIN entry_json j ON j.pk = e.pk")
      .raw()
      .iterate(JSON.stringify(seqs), sessionId) as IterableIterator<[number, string]>;
    for (const [seq, json] of rows) bySeq.set(seq, json);
    return seqs.map((q) => JSON.parse(bySeq.get(q) as string) as unknown);
  }

  /** The entries of the ranges, in order. */
  entriesIn(sessionId: string, ranges: readonly SeqRange[]): unknown[] {
    const out: unknown[] = [];
    const scan = this.sql.get("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.seq BETWEEN ? AND ? ORDER BY e.seq").pluck();
    for (const r of ranges) for (const json of scan.iterate(sessionId, r.from, r.to) as IterableIterator<string>) out.push(JSON.parse(json) as unknown);
    return out;
  }

  /**
   * The entries of one kind on the path from `seq` up, nearest first: one statement following a
   * link column (settings_seq: every settings entry — thinking/model/mode changes, ttsr injections;
   * model_seq: the model changes; anchor_seq: the compactions). Regular sessions.
   */
  chain(sessionId: string, seq: number | null, link: "settings_seq" | "model_seq" | "anchor_seq"): number[] {
    if (seq === null) return [];
    return this.sql
      .get(
        `WITH RECURSIVE chain(s) AS (
           SELECT ${link} FROM entries WHERE session_id = @session AND seq = @seq AND ${link} <= seq
           UNION ALL
           SELECT p.${link} FROM chain CROSS JOIN entries c ON c.session_id = @session AND c.seq = chain.s
                                       CROSS JOIN entries p ON p.session_id = @session AND p.seq = c.parent_seq
           WHERE c.parent_seq < chain.s AND p.${link} <= p.seq
         )
         SELECT s FROM chain ORDER BY s DESC`,
      )
      .pluck()
      .all({ session: sessionId, seq }) as number[];
  }

  /** the nearest thinking level change on the path to `seq` (itself included) */
  thinkingAt(sessionId: string, seq: number): number | undefined {
    return (this.sql.get("SELECT thinking_seq FROM entries WHERE session_id = ? AND seq = ?").pluck().get(sessionId, seq) as number | null | undefined) ?? undefined;
  }

  /**
   * Columns of the rows of `ranges` that pass `filter` (path order): `numbers` as number lists,
   * `texts` as string lists (null for NULL). Many rows cost one row each in better-sqlite3 (an array
   * and its values built per row, all of it garbage soon); here SQLite aggregates each column into
   * one value, over every range in one statement: numbers as a JSON array (parsed into small
   * integers, no strings), texts joined by a separator and split (a value holding the separator —
   * the split count tells — makes that column come back as JSON instead).
   */
  columnsIn(
    sessionId: string,
    ranges: readonly SeqRange[],
    numbers: readonly string[],
    texts: readonly string[],
    filter: RowFilter = EVERY_ROW,
  ): { numbers: number[][]; texts: (string | null)[][] } {
    const out = { numbers: numbers.map((): number[] => []), texts: texts.map((): (string | null)[] => []) };
    if (ranges.length === 0) return out;
    const select = [
      ...numbers.map((c) => `json_group_array(${c})`),
      // which values are NULL (a column that is never NULL: none)
      ...texts.map((c) => (NOT_NULL.has(c) ? `group_concat(${c}, char(30)), ''` : `group_concat(coalesce(${c}, ''), char(30)), group_concat(${c} IS NULL, '')`)),
    ].join(", ");
    const [count, ...values] = this.overRanges(`count(*), ${select}`, filter).raw().get(rangesJson(ranges), sessionId, ...(filter.params ?? [])) as [number, ...string[]];
    if (count === 0) return out;
    out.numbers = numbers.map((_, i) => JSON.parse(values[i] as string) as number[]);
    out.texts = texts.map((column, i) => {
      const parts = (values[numbers.length + 2 * i] as string).split(SEPARATOR);
      if (parts.length !== count) return this.columnAsJson(sessionId, ranges, column, filter);
      const nulls = values[numbers.length + 2 * i + 1] as string;
      return nulls === "" || !nulls.includes("1") ? parts : parts.map((p, k) => (nulls.charCodeAt(k) === ONE ? null : p));
    });
    return out;
  }

  /**
   * A statement selecting `select` over the rows of ranges (its first parameter, rangesJson) of a
   * session (the second) that pass `filter` (its parameters next), read in path order.
   */
  private overRanges(select: string, filter: RowFilter): Database.Statement {
    // CROSS JOIN: the ranges are the outer loop, in their order, and each is read in seq order
    return this.sql.get(
      `WITH r(lo, hi) AS (SELECT value ->> 0, value ->> 1 FROM json_each(?))
       SELECT ${select} FROM r CROSS JOIN entries INDEXED BY ${filter.index ?? "entries_path"} ON session_id = ? AND seq BETWEEN r.lo AND r.hi WHERE (${filter.where})`,
    );
  }

  /**
   * The ids of the rows of `ranges` that pass `filter`, in path order, as one text (their JSON
   * strings joined as a report prints them, IdList.SEPARATOR: no string per id, no work to print
   * them), from one statement over every range, and `totals`, SQL expressions summed over the rows.
   */
  idsIn(sessionId: string, ranges: readonly SeqRange[], filter: RowFilter = EVERY_ROW, totals: readonly string[] = []): { ids: IdList; totals: number[] } {
    if (ranges.length === 0) return { ids: IdList.of([]), totals: totals.map(() => 0) };
    // as bytes (BLOB): no string is made of the text, which a writer passes on as it is
    const [count, items, ...sums] = this.overRanges(`count(*), CAST(group_concat(json_quote(id), ?) AS BLOB)${totals.map((e) => `, total(${e})`).join("")}`, filter)
      .raw()
      .get(rangesJson(ranges), IdList.SEPARATOR, sessionId, ...(filter.params ?? [])) as [number, Buffer | null, ...number[]];
    return { ids: IdList.fromJsonItems(items ?? "", count), totals: sums };
  }

  /** `totals`, SQL expressions summed over the rows of `ranges` that pass `filter` (one statement over every range) */
  totalsIn(sessionId: string, ranges: readonly SeqRange[], filter: RowFilter, totals: readonly string[]): number[] {
    if (ranges.length === 0) return totals.map(() => 0);
    return this.overRanges(totals.map((e) => `total(${e})`).join(", "), filter)
      .raw()
      .get(rangesJson(ranges), sessionId, ...(filter.params ?? [])) as number[];
  }

  private columnAsJson(sessionId: string, ranges: readonly SeqRange[], column: string, filter: RowFilter): (string | null)[] {
    const json = this.overRanges(`json_group_array(${column})`, filter).pluck().get(rangesJson(ranges), sessionId, ...(filter.params ?? [])) as string;
    return (JSON.parse(json) as unknown[]).map((v) => (v === null ? null : String(v)));
  }

  /** the ids of the rows at `seqs`, in that order (from the covering index) */
  idsAt(sessionId: string, seqs: readonly number[]): string[] {
    if (seqs.length === 0) return [];
    const rows = this.sql
      .get("SELECT e.seq, e.id FROM json_each(?) AS w CROSS JOIN entries e INDEXED BY entries_path ON e.session_id = ? AND e.seq = w.value")
      .raw()
      .all(JSON.stringify(seqs), sessionId) as [number, string][];
    const bySeq = new Map(rows);
    return seqs.map((q) => bySeq.get(q) as string);
  }

  /** seq -> firstKeptEntryId of the compactions in the ranges */
  keptIds(sessionId: string, ranges: readonly SeqRange[]): Map<number, string> {
    const out = new Map<number, string>();
    const scan = this.sql.get("SELECT seq, ref_id FROM entries WHERE session_id = ? AND seq BETWEEN ? AND ? AND type = 'compaction' AND ref_id IS NOT NULL").raw();
    for (const r of ranges) for (const [seq, ref] of scan.iterate(sessionId, r.from, r.to) as IterableIterator<[number, string]>) out.set(seq, ref);
    return out;
  }

  /** The first (`last` false) or last entry of the ranges with this type and role, or undefined. */
  findInRanges(sessionId: string, ranges: readonly SeqRange[], type: string, role: string, last: boolean): number | undefined {
    const first = this.sql.get("SELECT seq FROM entries INDEXED BY entries_path WHERE session_id = ? AND seq BETWEEN ? AND ? AND type = ? AND role = ? ORDER BY seq LIMIT 1").pluck();
    const final = this.sql.get("SELECT seq FROM entries INDEXED BY entries_path WHERE session_id = ? AND seq BETWEEN ? AND ? AND type = ? AND role = ? ORDER BY seq DESC LIMIT 1").pluck();
    const order = last ? [...ranges].reverse() : ranges;
    for (const r of order) {
      const found = (last ? final : first).get(sessionId, r.from, r.to, type, role) as number | undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

/** The ranges from `seq` on (it must be on them), or undefined when it is not. */
export function rangesFrom(ranges: readonly SeqRange[], seq: number): SeqRange[] | undefined {
  const i = ranges.findIndex((r) => r.from <= seq && seq <= r.to);
  if (i < 0) return undefined;
  return [{ from: seq, to: (ranges[i] as SeqRange).to }, ...ranges.slice(i + 1)];
}

/** the parts of `ranges` (a regular session's path: seqs go up along it) with seqs from `lo` to `hi` */
export function clipRanges(ranges: readonly SeqRange[], lo: number, hi: number): SeqRange[] {
  return ranges.map((r) => ({ from: Math.max(r.from, lo), to: Math.min(r.to, hi) })).filter((r) => r.from <= r.to);
}

/** The ranges before `seq` (it must be on them). */
export function rangesBefore(ranges: readonly SeqRange[], seq: number): SeqRange[] {
  const i = ranges.findIndex((r) => r.from <= seq && seq <= r.to);
  if (i < 0) return [...ranges];
  const r = ranges[i] as SeqRange;
  return r.from < seq ? [...ranges.slice(0, i), { from: r.from, to: seq - 1 }] : ranges.slice(0, i);
}

/** relinked as one chain, so that a context builder walking parentId sees exactly this list */
export function relinked(entries: SessionEntry[]): SessionEntry[] {
  for (let i = 0; i < entries.length; i++) (entries[i] as SessionEntry).parentId = i === 0 ? null : (entries[i - 1] as SessionEntry).id;
  return entries;
}
