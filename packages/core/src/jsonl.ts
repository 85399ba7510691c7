/**
 * Lenient JSONL reading and writing of session files (spec: session-format.md §1).
 *
 * Reading never throws: every line that cannot be used is reported as a ParseIssue with its
 * 1-based line number and skipped, and the rest loads. Whether the file is a session at all is
 * decided by its first parsed value (an object with type "session" and a string id); when it is
 * not, `header` is null, `entries` is empty and the reason is in `issues`.
 */
import type { SessionEntry, SessionHeader } from "./entries";

export type ParseIssueKind =
  /** the line is not valid JSON (skipped) */
  | "invalid-json"
  /** the last line is cut off (no final newline, not valid JSON): an interrupted write (skipped) */
  | "truncated-line"
  /** the line is valid JSON but not an object (skipped) */
  | "not-an-object"
  /** the first parsed value is not a session header: the file is not a session */
  | "missing-header"
  /** the first parsed value is a header whose id is not a string: the file is not a session */
  | "invalid-header"
  /** a second session header after the first one (skipped) */
  | "extra-header"
  /** nothing parsed at all (empty file, or no valid line): the file is not a session */
  | "empty"
  /** an entry whose field has the wrong type (e.g. a string tokensBefore): kept as read, the value shown as text */
  | "wrong-type";

export interface ParseIssue {
  /** 1-based line number in the file (0 for whole-file issues such as "empty") */
  line: number;
  kind: ParseIssueKind;
  message: string;
}

export interface ParsedSession {
  /** null when the file is not a session (see issues) */
  header: SessionHeader | null;
  /** entries in file order, exactly as read (v1 entries have no id/parentId until migrated) */
  entries: SessionEntry[];
  issues: ParseIssue[];
}

/** Issue kinds that make the whole file "not a session". */
export const NOT_A_SESSION_KINDS: readonly ParseIssueKind[] = ["missing-header", "invalid-header", "empty"];

const MAX_MESSAGE_CHARS = 200;

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 3)}...` : text;
}

function isBlank(line: string): boolean {
  const first = line.charCodeAt(0);
  // the common case, a line starting with "{", needs no scan
  return first !== 0x7b && line.trim().length === 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * Visits the non-blank lines of a JSONL text in order, by index (no split copy of the text):
 * `visit(line, lineNo, terminated)` gets the line without its "\n" (and without a final "\r"), its
 * 1-based number, and whether a "\n" ended it. A leading BOM is skipped. Returning false stops.
 */
export function forEachLine(text: string, visit: (line: string, lineNo: number, terminated: boolean) => boolean | void): void {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNo = 0;
  while (pos < text.length) {
    lineNo++;
    const nl = text.indexOf("\n", pos);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(pos, end);
    pos = end + 1;
    if (isBlank(line)) continue;
    if (visit(line.endsWith("\r") ? line.slice(0, -1) : line, lineNo, nl !== -1) === false) return;
  }
}

/** Options of parseSessionText. */
export interface ParseOptions {
  /**
   * Also return each entry's line number and line text (`entryLines`, `entryTexts`, parallel to
   * `entries`) and the header's (`headerLine`, `headerText`): what a reader that keeps the JSON
   * exactly as read needs, without scanning the text a second time. Default false.
   */
  lines?: boolean;
}

/** The line positions parseSessionText adds with `{ lines: true }`. */
export interface ParsedLines {
  /** 1-based line of each entry (parallel to entries) */
  entryLines: number[];
  /** each entry's line exactly as read, without its "\n" and final "\r" (parallel to entries) */
  entryTexts: string[];
  /** 1-based line of the header (0 when there is none) */
  headerLine: number;
  /** the header's line as read ("" when there is none) */
  headerText: string;
}

function parseFailure(lineNo: number, terminated: boolean, err: unknown): ParseIssue {
  const reason = err instanceof Error ? err.message : String(err);
  return {
    line: lineNo,
    kind: terminated ? "invalid-json" : "truncated-line",
    message: clip(terminated ? `invalid JSON: ${reason}` : `last line is incomplete (interrupted write?): ${reason}`),
  };
}

/** Checks the first parsed value: null when it is a session header, else why the file is not a session. */
function headerProblem(value: unknown, lineNo: number): ParseIssue | null {
  if (!isObject(value) || value.type !== "session") {
    const what = isObject(value) ? `an entry of type ${JSON.stringify(value.type)}` : describeValue(value);
    return { line: lineNo, kind: "missing-header", message: `not a session: the first value is ${what}, not a session header` };
  }
  if (typeof value.id !== "string") {
    return { line: lineNo, kind: "invalid-header", message: `not a session: the header's id is ${describeValue(value.id)}, not a string` };
  }
  return null;
}

/** Numeric fields of entries, by entry type: a reader reports any other type (the entry is kept as read). */
const NUMBER_FIELDS: Record<string, readonly string[]> = { compaction: ["tokensBefore"] };

/** A report of an entry field with the wrong type (null when the entry's typed fields are right). */
function wrongTypeProblem(entry: Record<string, unknown>, lineNo: number): ParseIssue | null {
  const fields = typeof entry.type === "string" ? NUMBER_FIELDS[entry.type] : undefined;
  if (fields === undefined) return null;
  for (const field of fields) {
    const value = entry[field];
    if (value !== undefined && typeof value !== "number") {
      return { line: lineNo, kind: "wrong-type", message: clip(`${String(entry.type)} ${field} is ${describeValue(value)}, not a number: shown as text`) };
    }
  }
  return null;
}

/**
 * The lenient parser, fed in pieces: `push` any split of the text (a line may span pieces), then
 * `end`. parseSessionText is one push of the whole text; a reader can instead push a file block by
 * block, so the whole file never exists as one string. Any split gives the same result.
 *
 * Close to the cost of a bare `JSON.parse` per line: lines are found with indexOf and sliced (no
 * split copy, no regular expression), each is parsed once inside one try/catch, and the header is
 * checked once, on the first parsed value.
 */
export class SessionParser {
  readonly #keepLines: boolean;
  readonly #issues: ParseIssue[] = [];
  readonly #entries: SessionEntry[] = [];
  readonly #entryLines: number[] = [];
  readonly #entryTexts: string[] = [];
  #header: SessionHeader | null = null;
  #headerLine = 0;
  #headerText = "";
  #rejected = false;
  #started = false;
  #ended = false;
  #lineNo = 0;
  /** the start of a line whose "\n" has not been pushed yet */
  #carry = "";

  constructor(options: ParseOptions = {}) {
    this.#keepLines = options.lines === true;
  }

  /** Feeds the next piece of the text. */
  push(text: string): void {
    if (this.#ended) throw new Error("SessionParser: push after end");
    if (this.#rejected || text.length === 0) return;
    let pos = 0;
    if (!this.#started) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) pos = 1;
    }
    if (this.#carry !== "") {
      const nl = text.indexOf("\n");
      if (nl === -1) {
        this.#carry += text;
        return;
      }
      const line = this.#carry + text.slice(0, nl);
      this.#carry = "";
      this.#line(line, 0, line.length, true);
      pos = nl + 1;
    }
    const length = text.length;
    while (pos < length && !this.#rejected) {
      const nl = text.indexOf("\n", pos);
      if (nl === -1) {
        this.#carry = text.slice(pos);
        return;
      }
      this.#line(text, pos, nl, true);
      pos = nl + 1;
    }
  }

  /** The header once the first value has been parsed (null before, or when the text is not a session). */
  get header(): SessionHeader | null {
    return this.#header;
  }

  /** True once the first value showed that the text is not a session (later pushes are ignored). */
  get rejected(): boolean {
    return this.#rejected;
  }

  /**
   * The entries parsed since the last call (with their lines and texts when `lines` is on), removed
   * from the parser: a reader that stores entries as it goes keeps none of them alive. `end()` then
   * returns only the entries parsed after the last take.
   */
  takeEntries(): { entries: SessionEntry[]; entryLines: number[]; entryTexts: string[] } {
    const taken = { entries: this.#entries.splice(0), entryLines: this.#entryLines.splice(0), entryTexts: this.#entryTexts.splice(0) };
    return taken;
  }

  /** Ends the text (a pending line without "\n" is its last line) and returns the result. */
  end(): ParsedSession & Partial<ParsedLines> {
    if (!this.#ended) {
      this.#ended = true;
      if (this.#carry !== "" && !this.#rejected) this.#line(this.#carry, 0, this.#carry.length, false);
      this.#carry = "";
      if (this.#header === null && !this.#rejected) {
        this.#issues.push({ line: 0, kind: "empty", message: "not a session: the file has no valid JSON line" });
      }
    }
    const rejected = this.#rejected;
    const parsed: ParsedSession & Partial<ParsedLines> = { header: this.#header, entries: rejected ? [] : this.#entries, issues: this.#issues };
    if (this.#keepLines) {
      parsed.entryLines = rejected ? [] : this.#entryLines;
      parsed.entryTexts = rejected ? [] : this.#entryTexts;
      parsed.headerLine = this.#headerLine;
      parsed.headerText = this.#headerText;
    }
    return parsed;
  }

  /** One line: text[start, end), without its "\n"; `terminated` = a "\n" followed it. */
  #line(text: string, start: number, end: number, terminated: boolean): void {
    const lineNo = ++this.#lineNo;
    // the common case, a line starting with "{", needs no blank check
    if (text.charCodeAt(start) !== 0x7b && text.slice(start, end).trim().length === 0) return;
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    const line = text.slice(start, end);

    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.#issues.push(parseFailure(lineNo, terminated, err));
      return;
    }

    if (this.#header === null) {
      const problem = headerProblem(value, lineNo);
      if (problem) {
        this.#issues.push(problem);
        this.#rejected = true;
        return;
      }
      this.#header = value as SessionHeader;
      this.#headerLine = lineNo;
      this.#headerText = line;
      return;
    }

    // entries are objects (and JSON.parse never returns a function): one typeof + null + array test
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.#issues.push({ line: lineNo, kind: "not-an-object", message: `skipped: the line is ${describeValue(value)}, not an entry object` });
      return;
    }
    if ((value as { type?: unknown }).type === "session") {
      this.#issues.push({ line: lineNo, kind: "extra-header", message: "skipped: a second session header" });
      return;
    }
    const wrongType = wrongTypeProblem(value as Record<string, unknown>, lineNo);
    if (wrongType) this.#issues.push(wrongType);
    this.#entries.push(value as SessionEntry);
    if (this.#keepLines) {
      this.#entryLines.push(lineNo);
      this.#entryTexts.push(line);
    }
  }
}

/** Parses the whole text of a session file (see SessionParser). Linear in the text length. */
export function parseSessionText(text: string): ParsedSession;
export function parseSessionText(text: string, options: ParseOptions & { lines: true }): ParsedSession & ParsedLines;
export function parseSessionText(text: string, options?: ParseOptions): ParsedSession & Partial<ParsedLines>;
export function parseSessionText(text: string, options: ParseOptions = {}): ParsedSession & Partial<ParsedLines> {
  const parser = new SessionParser(options);
  parser.push(text);
  return parser.end();
}

/** True when the parse found a session header (the file is a session). */
export function isSession(parsed: ParsedSession): parsed is ParsedSession & { header: SessionHeader } {
  return parsed.header !== null;
}

/** One JSONL line (JSON.stringify keeps key order; undefined-valued keys are dropped), newline-terminated. */
export function serializeEntry(entry: SessionEntry | SessionHeader): string {
  return `${JSON.stringify(entry)}\n`;
}

/** The lines of serializeSession one by one (for writers that stream instead of building one string). */
export function* sessionLines(header: SessionHeader, entries: readonly SessionEntry[]): Generator<string> {
  yield serializeEntry(header);
  for (const entry of entries) yield serializeEntry(entry);
}

/** The whole file: header line, then one line per entry, each terminated by "\n". */
export function serializeSession(header: SessionHeader, entries: readonly SessionEntry[]): string {
  const lines = new Array<string>(entries.length + 1);
  lines[0] = serializeEntry(header);
  for (let i = 0; i < entries.length; i++) lines[i + 1] = serializeEntry(entries[i] as SessionEntry);
  return lines.join("");
}
