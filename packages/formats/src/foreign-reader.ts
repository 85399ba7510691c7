/**
 * What the Claude Code and Codex readers share: lines in, entries out, every line kept.
 *
 * Each non-blank line becomes (part of) one entry whose `source` holds the line verbatim; blank lines
 * go with the next entry; a line that is not JSON becomes an "unreadable-line" metadata entry (and an
 * issue), so nothing of the file is lost and originalText gives it back byte for byte. Entries are
 * released in file order; a reader may hold the newest ones until a later line completes them.
 */
import type { ParseIssue, SessionEntry, SessionHeader } from "@bonsai/core";
import { LineSplitter, isBlankLine, parseLine, type RawLine } from "./lines";
import type {
  AgentEventEntry,
  AgentKind,
  ForeignEntry,
  FormatId,
  IncrementalReader,
  ReadChunk,
  ReadSession,
  ReadState,
  SessionLinks,
  SessionStats,
  SourceLine,
} from "./types";
import { oneLine } from "./values";

/** What a reader knows about the session besides its entries. */
export interface SessionFacts {
  header: SessionHeader | null;
  leafId: string | null;
  title: string | null;
  links: SessionLinks;
}

export abstract class ForeignReader implements IncrementalReader {
  protected abstract readonly format: FormatId;
  protected abstract readonly agent: AgentKind;
  protected readonly stats: SessionStats = { lines: 0, compactions: 0, microcompactions: 0, resumes: 0, rollbacks: 0, startsMidSession: false };
  protected readonly issues: ParseIssue[] = [];
  readonly #splitter = new LineSplitter();
  /** entries added and not released yet */
  readonly #queue: ForeignEntry[] = [];
  /** entries released so far, file order */
  readonly #given: ForeignEntry[] = [];
  readonly #givenIds = new Set<string>();
  readonly #updated = new Map<string, ForeignEntry>();
  /** blank lines waiting for the next entry */
  #blank: SourceLine[] = [];
  /** entries from this queue position on are held (undefined: nothing held) */
  #holdFrom: number | undefined;
  #finalNewline = true;
  #ended = false;
  /** blank lines after the last entry (kept for originalText) */
  #trailing: SourceLine[] = [];

  /** One parsed line (an object or any other JSON value). */
  protected abstract readLine(value: unknown, line: SourceLine): void;
  /** The text is complete: add whatever is still pending. */
  protected abstract finish(): void;
  /** Header, leaf, title and links as known now. */
  protected abstract facts(): SessionFacts;
  /** The parent a metadata entry gets when it has no parent of its own. */
  protected abstract metaParent(): string | null;
  /** Called for each entry added (readers track their tips here). */
  protected abstract added(entry: ForeignEntry): void;

  push(text: string): ReadChunk {
    if (this.#ended) throw new Error("push after end");
    for (const line of this.#splitter.push(text)) this.#line(line);
    return this.#release(false);
  }

  end(): ReadChunk {
    if (this.#ended) return { entries: [], updated: [] };
    for (const line of this.#splitter.end()) this.#line(line);
    this.#ended = true;
    this.finish();
    this.#trailing = this.#blank;
    this.#blank = [];
    this.#holdFrom = undefined;
    return this.#release(true);
  }

  snapshot(): ReadSession {
    return { ...this.state(), entries: [...this.#given] as unknown as SessionEntry[] };
  }

  state(): ReadState {
    const facts = this.facts();
    const header = facts.header ?? this.fallbackHeader();
    return {
      format: this.format,
      agent: this.agent,
      header,
      leafId: facts.leafId,
      title: facts.title,
      issues: [...this.issues],
      links: facts.links,
      stats: { ...this.stats },
      original: { finalNewline: this.#finalNewline, ...(this.#trailing.length > 0 ? { trailing: this.#trailing } : {}) },
      readOnly: true,
    };
  }

  held(): SessionEntry[] {
    return [...this.#queue] as unknown as SessionEntry[];
  }

  /** Reads a whole text. */
  readAll(text: string): ReadSession {
    this.push(text);
    this.end();
    return this.snapshot();
  }

  #line(raw: RawLine): void {
    this.stats.lines = raw.n;
    if (!raw.terminated) this.#finalNewline = false;
    const line: SourceLine = { n: raw.n, text: raw.text };
    if (isBlankLine(raw.text)) {
      this.#blank.push(line);
      return;
    }
    const parsed = parseLine(raw.text);
    if (!parsed.ok) {
      const kind = raw.terminated ? "invalid-json" : "truncated-line";
      const message = raw.terminated ? `invalid JSON: ${parsed.error}` : `last line is incomplete (interrupted write?): ${parsed.error}`;
      this.issues.push({ line: raw.n, kind, message: oneLine(message, 200) });
      this.addEvent({ event: "unreadable-line", text: `line ${raw.n} is not a JSON value (kept as it is): ${oneLine(parsed.error, 100)}`, timestamp: this.lastTimestamp() }, [line], this.metaParent());
      return;
    }
    this.readLine(parsed.value, line);
  }

  /** The timestamp of the last entry added ("" before the first). */
  protected lastTimestamp(): string {
    const last = this.#queue[this.#queue.length - 1] ?? this.#given[this.#given.length - 1];
    return last?.timestamp ?? "";
  }

  /** Adds an entry (its source gets the blank lines before it). */
  protected add<T extends ForeignEntry>(entry: T): T {
    if (this.#blank.length > 0 && entry.source.length > 0) {
      entry.source.unshift(...this.#blank);
      this.#blank = [];
    }
    this.#queue.push(entry);
    this.added(entry);
    return entry;
  }

  /** Adds a metadata entry. */
  protected addEvent(fields: { event: string; text: string; timestamp: string; [extra: string]: unknown }, source: SourceLine[], parentId: string | null, id?: string): AgentEventEntry {
    const { event, text, timestamp, ...extra } = fields;
    const entry: AgentEventEntry = { type: "agent_event", id: id ?? lineId(source), parentId, timestamp, event, text, ...extra, source };
    return this.add(entry);
  }

  /** An entry added earlier changed: given again in the next chunk if it was released already. */
  protected changed(entry: ForeignEntry): void {
    if (this.#givenIds.has(entry.id)) this.#updated.set(entry.id, entry);
  }

  /** Holds every entry added from now on until releaseHold (no effect when already holding). */
  protected hold(): void {
    if (this.#holdFrom === undefined) this.#holdFrom = this.#queue.length;
  }

  protected releaseHold(): void {
    this.#holdFrom = undefined;
  }

  protected get holding(): boolean {
    return this.#holdFrom !== undefined;
  }

  /** Entries added and not released yet (a reader may still complete them). */
  protected queued(): readonly ForeignEntry[] {
    return this.#queue;
  }

  #release(all: boolean): ReadChunk {
    const count = all || this.#holdFrom === undefined ? this.#queue.length : this.#holdFrom;
    const entries = this.#queue.splice(0, count);
    if (this.#holdFrom !== undefined) this.#holdFrom -= count;
    for (const e of entries) {
      this.#given.push(e);
      this.#givenIds.add(e.id);
      this.#updated.delete(e.id);
    }
    const updated = [...this.#updated.values()];
    this.#updated.clear();
    return { entries: entries as unknown as SessionEntry[], updated: updated as unknown as SessionEntry[] };
  }

  protected fallbackHeader(): SessionHeader {
    const first = this.#given[0];
    return { type: "session", version: 3, id: "", timestamp: first?.timestamp ?? "", cwd: "", agent: this.agent };
  }
}

/** The id of an entry made from lines that carry no id of their own. */
export function lineId(source: readonly SourceLine[]): string {
  const own = source[source.length - 1];
  return `line-${own?.n ?? 0}`;
}
