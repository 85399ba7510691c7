/**
 * Writing entries into the store, in file order, as they are read: the narrow `entries` row (derived
 * columns computed once, parent resolved to its seq, the path shortcuts `anchor_seq`,
 * `settings_seq`, `model_seq`, `thinking_seq` and `run_seq` inherited from the parent), the JSON as read in `entry_json`, and the
 * label index. The caller holds the transaction.
 *
 * A writer covers one run of entries (a whole file, or the lines appended to one): parents resolve
 * to the last entry with that id in the run, else the last one stored before it. Entries are written
 * as they come, so a parent that comes later in the run (or a later duplicate of the parent's id)
 * is fixed up in `finish()`; the session is then marked irregular (its shortcuts are not used).
 */
import type Database from "better-sqlite3";
import type { SessionEntry } from "@bonsai/core";
import { deriveColumns } from "../derive";
import { RECENT, SETTLED } from "../id-tiers";
import type { ImportIssue } from "../session-store";

/** an entry ready to insert */
export interface PendingEntry {
  entry: SessionEntry;
  json: string;
  /** `json` as UTF-8 when the reader has it (the line's bytes in the file): stored without converting the string */
  bytes?: Buffer;
  line: number | null;
}

/** entry types whose effect on the context comes from anywhere on the path (context-building.md §1.4) */
export const SETTINGS_TYPES = new Set(["thinking_level_change", "model_change", "mode_change", "ttsr_injection"]);

export interface WriterStart {
  /** seq of the first entry written (the session's entry count before) */
  seq: number;
  /**
   * appends: the lookup of parents and duplicates among the stored entries (the seq of the last
   * stored entry with an id); false for a whole file (which reads no stored entry by id: its import
   * may have dropped the id index)
   */
  stored: false | ((id: string) => number | undefined);
  /** check the run as a whole file (duplicate ids, missing parents, cycles) and report issues */
  checkTree: boolean;
}

export interface WriterResult {
  /** seq of the first entry written */
  startSeq: number;
  added: number;
  /** the entry types written */
  types: Set<string>;
  /** of type "message" */
  messages: number;
  /** the greatest timestamp written ("" when none) */
  latestTimestamp: string;
  /** the last entry written */
  lastId: string | null;
  irregular: boolean;
  /** with checkTree: duplicate ids, missing parents, parent cycles, in that order */
  issues: ImportIssue[];
}

const NONE = -1;

/** A growable Int32Array-backed list (NONE for null). */
class IntList {
  private data = new Int32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  get(i: number): number {
    return this.data[i] as number;
  }

  set(i: number, v: number): void {
    this.data[i] = v;
  }
}

const orNull = (v: number): number | null => (v === NONE ? null : v);

export class EntryWriter {
  private readonly insert: Database.Statement;
  private readonly insertJson: Database.Statement;
  private readonly upsertLabel: Database.Statement;
  private readonly storedLookup: ((id: string) => number | undefined) | null;
  private readonly storedLinks: Database.Statement;
  private readonly startSeq: number;
  private seq: number;
  /** id -> seq of its last entry in this run */
  private readonly lastSeq = new Map<string, number>();
  /** id -> line of its first entry, for ids met twice */
  private readonly firstLineOfDup = new Map<string, number | null>();
  // per entry of the run (index = seq - startSeq)
  private readonly ids: string[] = [];
  private readonly parentIds: (string | null)[] = [];
  private readonly lines = new IntList();
  private readonly parents = new IntList();
  private readonly anchors = new IntList();
  private readonly settings = new IntList();
  private readonly models = new IntList();
  private readonly thinkings = new IntList();
  private readonly runs = new IntList();
  private readonly dupIssues: ImportIssue[] = [];
  private irregular = false;
  /**
   * set when an entry's id was written before (in the run or stored) or its parent could not be
   * resolved to an earlier entry when it was written: only then can finish() have links to fix,
   * missing parents or cycles to report (a file written by an agent never sets it)
   */
  private unsure = false;
  private messages = 0;
  private latest = "";
  private readonly types = new Set<string>();
  /** the type added to `types` last (runs of one type, mostly messages, add it once) */
  private lastType = "";
  private readonly fixParent: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly sessionId: string,
    private readonly start: WriterStart,
  ) {
    this.startSeq = start.seq;
    this.seq = start.seq;
    this.insert = db.prepare(
      `INSERT INTO entries (session_id, seq, line, id, parent_id, parent_seq, type, timestamp, role, tokens, preview, tool_name, custom_type, stop_reason, ref_id, tokens_before, flags, anchor_seq, settings_seq, model_seq, thinking_seq, run_seq, file_ops, id_tier)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${start.stored ? RECENT : SETTLED})`,
    );
    // bytes are bound as a blob: CAST stores them as the text they are (a string is stored as it is)
    this.insertJson = db.prepare("INSERT INTO entry_json (pk, json) VALUES (?, CAST(? AS TEXT))");
    this.upsertLabel = db.prepare(
      "INSERT INTO labels (session_id, target_id, label, entry_seq) VALUES (?, ?, ?, ?) ON CONFLICT (session_id, target_id) DO UPDATE SET label = excluded.label, entry_seq = excluded.entry_seq",
    );
    this.storedLookup = start.stored || null;
    this.storedLinks = db.prepare("SELECT anchor_seq, settings_seq, model_seq, thinking_seq, run_seq FROM entries WHERE session_id = ? AND seq = ?").raw();
    this.fixParent = db.prepare("UPDATE entries SET parent_seq = ? WHERE session_id = ? AND seq = ?");
  }

  /** Writes the entries after the ones written so far. */
  add(batch: readonly PendingEntry[]): void {
    for (const p of batch) this.write(p);
  }

  private storedSeqOf(id: string): number {
    return this.storedLookup?.(id) ?? NONE;
  }

  private write(p: PendingEntry): void {
    const e = p.entry;
    const seq = this.seq;
    const id = e.id;
    const previous = this.lastSeq.get(id);
    if (previous !== undefined || this.storedSeqOf(id) !== NONE) {
      this.irregular = true;
      this.unsure = true;
    }
    if (previous !== undefined && this.start.checkTree) {
      if (!this.firstLineOfDup.has(id)) this.firstLineOfDup.set(id, orNull(this.lines.get(previous - this.startSeq)));
      const first = this.firstLineOfDup.get(id) ?? null;
      this.dupIssues.push({
        line: p.line ?? 0,
        kind: "duplicate-id",
        entryId: id,
        message: `duplicate entry id ${id} (first on line ${first ?? "?"}): both are kept, lookups by id find this later one`,
      });
    }
    this.lastSeq.set(id, seq);
    const parent = typeof e.parentId === "string" && e.parentId !== "" ? e.parentId : null;
    let parentSeq = NONE;
    if (parent !== null && parent !== id) parentSeq = this.lastSeq.get(parent) ?? this.storedSeqOf(parent);
    if (parent !== null && parentSeq === NONE) this.unsure = true;
    // path shortcuts inherited from the parent (written before this entry: earlier in the run, or stored)
    let anchor = NONE;
    let setting = NONE;
    let model = NONE;
    let thinking = NONE;
    let run = seq;
    if (parentSeq !== NONE && parentSeq >= this.startSeq) {
      const at = parentSeq - this.startSeq;
      anchor = this.anchors.get(at);
      setting = this.settings.get(at);
      model = this.models.get(at);
      thinking = this.thinkings.get(at);
      if (parentSeq === seq - 1) run = this.runs.get(at);
    } else if (parentSeq !== NONE) {
      const links = this.storedLinks.get(this.sessionId, parentSeq) as (number | null)[] | undefined;
      anchor = links?.[0] ?? NONE;
      setting = links?.[1] ?? NONE;
      model = links?.[2] ?? NONE;
      thinking = links?.[3] ?? NONE;
      if (parentSeq === seq - 1) run = links?.[4] ?? seq;
    }
    const type = String(e.type);
    if (type === "message") this.messages++;
    else {
      if (type === "compaction") anchor = seq;
      if (SETTINGS_TYPES.has(type)) setting = seq;
      if (type === "model_change") model = seq;
      if (type === "thinking_level_change") thinking = seq;
    }
    if (type !== this.lastType) {
      this.types.add(type);
      this.lastType = type;
    }
    const timestamp = typeof e.timestamp === "string" ? e.timestamp : "";
    if (timestamp > this.latest) this.latest = timestamp;
    this.ids.push(id);
    this.parentIds.push(parent);
    this.lines.push(p.line ?? NONE);
    this.parents.push(parentSeq);
    this.anchors.push(anchor);
    this.settings.push(setting);
    this.models.push(model);
    this.thinkings.push(thinking);
    this.runs.push(run);
    const d = deriveColumns(e, false);
    const info = this.insert.run(
      this.sessionId,
      seq,
      p.line,
      id,
      parent,
      orNull(parentSeq),
      type,
      timestamp,
      d.role,
      d.tokens,
      d.preview,
      d.toolName,
      d.customType,
      d.stopReason,
      d.refId,
      d.tokensBefore,
      d.flags,
      orNull(anchor),
      orNull(setting),
      orNull(model),
      orNull(thinking),
      run,
      d.fileOps,
    );
    this.insertJson.run(info.lastInsertRowid, p.bytes ?? p.json);
    if (type === "label") {
      const { targetId, label } = e as { targetId?: unknown; label?: unknown };
      if (typeof targetId === "string") this.upsertLabel.run(this.sessionId, targetId, typeof label === "string" && label !== "" ? label : null, seq);
    }
    this.seq++;
  }

  /**
   * Resolves what only the whole run tells: parents that came later (or whose id came again later)
   * are written now, and with checkTree the missing parents and cycles are reported.
   */
  finish(): WriterResult {
    const count = this.seq - this.startSeq;
    const result = (issues: ImportIssue[]): WriterResult => ({
      startSeq: this.startSeq,
      added: count,
      types: this.types,
      messages: this.messages,
      latestTimestamp: this.latest,
      lastId: count > 0 ? (this.ids[count - 1] as string) : null,
      irregular: this.irregular,
      issues,
    });
    // every parent was an earlier entry when written and no id came twice: nothing to fix or report
    if (!this.unsure) return result([]);
    const missing: ImportIssue[] = [];
    // the parent links as the whole-run check sees them: the last entry with the parent's id (itself included)
    const links = this.start.checkTree ? new Int32Array(count).fill(NONE) : null;
    for (let i = 0; i < count; i++) {
      const parent = this.parentIds[i] as string | null;
      if (parent === null) continue;
      const last = this.lastSeq.get(parent);
      const seq = this.startSeq + i;
      if (links) links[i] = last === undefined ? NONE : last - this.startSeq;
      if (parent === this.ids[i]) continue;
      if (last !== undefined && last !== this.parents.get(i)) {
        // written with an earlier entry of that id (or none): the run's last one wins
        this.parents.set(i, last);
        this.fixParent.run(last, this.sessionId, seq);
      }
      const resolved = this.parents.get(i);
      if (resolved !== NONE && resolved >= seq) this.irregular = true;
      if (resolved === NONE && this.start.checkTree) {
        missing.push({
          line: orNull(this.lines.get(i)) ?? 0,
          kind: "missing-parent",
          entryId: this.ids[i] as string,
          message: `entry ${this.ids[i] as string}: parent ${parent} is not in the file; the entry is treated as a root`,
        });
      }
    }
    return result([...this.dupIssues, ...missing, ...(links ? this.cycles(links) : [])]);
  }

  /** parent cycles: colour walk over the parent links (0 new, 1 on the current walk, 2 done) */
  private cycles(links: Int32Array): ImportIssue[] {
    const out: ImportIssue[] = [];
    const colour = new Uint8Array(links.length);
    for (let start = 0; start < links.length; start++) {
      if (colour[start] !== 0) continue;
      const walk: number[] = [];
      let i = start;
      while (i !== NONE && colour[i] === 0) {
        colour[i] = 1;
        walk.push(i);
        i = links[i] as number;
      }
      if (i !== NONE && colour[i] === 1) {
        const id = this.ids[i] as string;
        const members = walk.slice(walk.indexOf(i)).map((k) => this.ids[k] as string);
        out.push({ line: orNull(this.lines.get(i)) ?? 0, kind: "parent-cycle", entryId: id, message: `parent cycle ${members.join(" -> ")} -> ${id}: paths stop at the repeated entry` });
      }
      for (const k of walk) colour[k] = 2;
    }
    return out;
  }
}
