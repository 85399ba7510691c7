/**
 * Reading a session file, whole or from an offset, into entries with their line numbers and raw
 * text. Parsing and migration are core's (parseSessionText, migrateSession); this module adds what
 * a store needs on top: byte offsets (so a grown file is read from where the last import stopped),
 * the line of every entry, and a truncated last line left for the next read instead of consumed.
 */
import {
  CURRENT_SESSION_VERSION,
  migrateSession,
  parseSessionText,
  SessionParser,
  sessionVersion,
  type ParseIssue,
  type RandomSource,
  type SessionEntry,
  type SessionHeader,
} from "@bonsai/core";
import { isUtf8 } from "node:buffer";
import type { ImportIssue } from "../session-store";
import { readTextBlocks, type ReadInto } from "./blocks";
import { countNewlines } from "./bytes";

export const TAIL_WINDOW = 64 * 1024;
const NEWLINE = 0x0a;

export interface ReadEntry {
  entry: SessionEntry;
  /** 1-based line in the file */
  line: number;
  /** the JSON stored for this entry: the line as read, or the migrated entry re-serialized */
  json: string;
  /**
   * `json` as UTF-8, when the line's bytes in the file are exactly that (the stored text is then
   * bound without converting the string again): a view of the read buffer, valid only while the
   * batch is handed over (streamWhole's `entries` callback)
   */
  bytes?: Buffer;
}

export interface ReadResult {
  /** the header (migrated to the current version); null when the text is not a session */
  header: SessionHeader | null;
  /** the version the file declared */
  fromVersion: number;
  entries: ReadEntry[];
  issues: ImportIssue[];
  /** absolute byte offset up to which the file was consumed (end of the last complete line) */
  endOffset: number;
  /** number of "\n" in the file before endOffset (the next line read is endLines + 1) */
  endLines: number;
}

/** The bytes up to and including the last "\n" (a trailing fragment may still be valid JSON). */
function lastNewline(buf: Buffer): number {
  return buf.lastIndexOf(NEWLINE);
}

function issueFrom(p: ParseIssue, lineShift: number, lines: Map<number, string>): ImportIssue {
  const line = p.line === 0 ? 0 : p.line + lineShift;
  const text = lines.get(p.line);
  return text === undefined ? { line, kind: p.kind, message: p.message } : { line, kind: p.kind, message: p.message, text };
}

/**
 * Collects the texts of the given 1-based lines of a text fed in pieces that end at line ends
 * (numbered as the parser numbers them: BOM skipped, a final "\r" dropped). Used only for the few
 * lines an issue is reported on.
 */
function lineCollector(wanted: ReadonlySet<number>): { feed(text: string): void; texts: Map<number, string> } {
  const texts = new Map<number, string>();
  let lineNo = 0;
  let first = true;
  const feed = (text: string): void => {
    let pos = first && text.charCodeAt(0) === 0xfeff ? 1 : 0;
    first = false;
    while (pos < text.length && texts.size < wanted.size) {
      lineNo++;
      let nl = text.indexOf("\n", pos);
      if (nl === -1) nl = text.length;
      if (wanted.has(lineNo)) {
        const line = text.slice(pos, nl);
        texts.set(lineNo, line.endsWith("\r") ? line.slice(0, -1) : line);
      }
      pos = nl + 1;
    }
  };
  return { feed, texts };
}

function lineTexts(text: string, wanted: ReadonlySet<number>): Map<number, string> {
  const collector = lineCollector(wanted);
  collector.feed(text);
  return collector.texts;
}

interface ParsedChunk {
  header: SessionHeader | null;
  entries: ReadEntry[];
  issues: ImportIssue[];
  /** text line number (in the parsed text) of a truncated last line left for later, if any */
  pendingLine: number | null;
}

/**
 * Parses `text` with core's lenient parser, which also gives each entry's line number and line text
 * (the JSON kept exactly as read).
 */
function parseWithLines(text: string, lineShift: number, skipLines: number): ParsedChunk {
  const parsed = parseSessionText(text, { lines: true });
  const texts = parsed.issues.length > 0 ? lineTexts(text, new Set(parsed.issues.map((p) => p.line))) : new Map<number, string>();
  const { issues, pendingLine } = chunkIssues(parsed.issues, lineShift, skipLines, texts);
  const entries: ReadEntry[] = parsed.header
    ? parsed.entries.map((entry, i) => ({ entry, line: parsed.entryLines[i]! + lineShift, json: parsed.entryTexts[i]! }))
    : [];
  return { header: parsed.header, entries, issues, pendingLine };
}

/** The parser's issues past the first `skipLines` lines, numbered in the file; and the line left for later (cut off), if any. */
function chunkIssues(found: readonly ParseIssue[], lineShift: number, skipLines: number, texts: Map<number, string>): { issues: ImportIssue[]; pendingLine: number | null } {
  let pendingLine: number | null = null;
  const issues: ImportIssue[] = [];
  for (const p of found) {
    if (p.kind === "truncated-line") pendingLine = p.line;
    if (p.line > 0 && p.line <= skipLines) continue;
    issues.push(issueFrom(p, lineShift, texts));
  }
  return { issues, pendingLine };
}

/** The entries the parser parsed since the last take, numbered as it numbers lines. */
function takeBatch(parser: SessionParser): ReadEntry[] {
  const taken = parser.takeEntries();
  return taken.entries.map((entry, i): ReadEntry => ({ entry, line: taken.entryLines[i] as number, json: taken.entryTexts[i] as string }));
}

function migrateEntries(header: SessionHeader, entries: ReadEntry[], random?: RandomSource): number {
  const fromVersion = sessionVersion(header);
  if (fromVersion >= CURRENT_SESSION_VERSION) return fromVersion;
  const list = entries.map((e) => e.entry);
  migrateSession(header, list, random);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as ReadEntry;
    e.entry = list[i] as SessionEntry;
    e.json = JSON.stringify(e.entry);
  }
  return fromVersion;
}

/** Reads a whole file. */
export function readWhole(buf: Buffer, random?: RandomSource): ReadResult {
  const text = buf.toString("utf8");
  const chunk = parseWithLines(text, 0, 0);
  // a cut-off last line is left unconsumed: when the writer finishes it, the next read picks it up
  const endOffset = chunk.pendingLine !== null ? lastNewline(buf) + 1 : buf.length;
  const endLines = countNewlines(buf, 0, endOffset);
  if (!chunk.header) return { header: null, fromVersion: 0, entries: [], issues: chunk.issues, endOffset, endLines };
  const fromVersion = migrateEntries(chunk.header, chunk.entries, random);
  return { header: chunk.header, fromVersion, entries: chunk.entries, issues: chunk.issues, endOffset, endLines };
}

/**
 * Reads the bytes a grown file gained. `chunk` = the file from `offset` on, `linesBefore` = lines
 * consumed before `offset`, `headerJson` = the stored header, `sourceVersion` = the file's version.
 */
export function readAppended(
  chunk: Buffer,
  offset: number,
  linesBefore: number,
  headerJson: string,
  sourceVersion: number,
  random?: RandomSource,
): ReadResult {
  // Core's parser wants a header first: parse "<header>\n<chunk>" and shift line numbers back.
  const text = `${headerJson}\n${chunk.toString("utf8")}`;
  const parsed = parseWithLines(text, linesBefore - 1, 1);
  const consumed = parsed.pendingLine !== null ? lastNewline(chunk) + 1 : chunk.length;
  const endOffset = offset + consumed;
  const endLines = linesBefore + countNewlines(chunk, 0, consumed);
  const header = JSON.parse(headerJson) as SessionHeader;
  let fromVersion = sourceVersion;
  if (sourceVersion < CURRENT_SESSION_VERSION) {
    const legacy = { ...header, version: sourceVersion } as SessionHeader;
    if (sourceVersion <= 1) delete legacy.version;
    fromVersion = migrateEntries(legacy, parsed.entries, random);
  }
  return { header, fromVersion, entries: parsed.entries, issues: parsed.issues, endOffset, endLines };
}

/** Appended bytes to stream: readers over them from their first byte (the first one read whole) */
export interface AppendedSource {
  readonly length: number;
  reader(): ReadInto;
}

/** bytes read at a time from appended lines (a block ends up mapped in memory whole: kept small) */
export const APPENDED_BLOCK_BYTES = 256 * 1024;

/**
 * readAppended for a file of the current version, block by block and piece by piece (64 KiB cut
 * after a "\n"): each piece's entries go to `onEntries` with the bytes of their lines (views of the
 * block, valid until it returns) and their lines in the file, so a caller that stores them as they
 * come keeps none of them alive, and neither the appended bytes nor a string of them is ever held
 * whole. The result has no entries; its issues are readAppended's. (A legacy file's appended lines
 * are migrated first, all at once: readAppended.)
 */
export function streamAppended(
  appended: AppendedSource,
  offset: number,
  linesBefore: number,
  headerJson: string,
  sourceVersion: number,
  onEntries: (batch: ReadEntry[]) => void,
  blockBytes = APPENDED_BLOCK_BYTES,
): ReadResult {
  // the stored header is line 1 of what the parser reads: the chunk's first line is text line 2
  const parser = new SessionParser({ lines: true });
  parser.push(`${headerJson}\n`);
  const lineShift = linesBefore - 1;
  let lines = 1; // text lines ended so far
  const handOver = (batch: ReadEntry[]): void => {
    if (batch.length === 0) return;
    for (const e of batch) e.line += lineShift;
    onEntries(batch);
  };
  let complete = 0; // bytes up to and with the last "\n"
  const total = readTextBlocks(
    appended.reader(),
    (text, bytes, ascii) => {
      if (bytes[bytes.length - 1] === NEWLINE) complete += bytes.length;
      parser.push(text);
      const firstLine = lines + 1;
      lines += newlinesIn(text);
      const batch = takeBatch(parser);
      attachBytes(batch, bytes, ascii, firstLine);
      handOver(batch);
    },
    { blockBytes },
  );
  const parsed = parser.end();
  handOver(takeBatch(parser)); // a last line without "\n"
  const wanted = new Set(parsed.issues.filter((p) => p.line > 1).map((p) => p.line));
  const texts = wanted.size > 0 ? appendedLineTexts(headerJson, appended.reader(), wanted) : new Map<number, string>();
  const { issues, pendingLine } = chunkIssues(parsed.issues, lineShift, 1, texts);
  const consumed = pendingLine !== null ? complete : total;
  // the pieces cover the chunk, and a line left for later has no "\n": lines - 1 = the chunk's "\n"s before `consumed`
  return { header: parser.header, fromVersion: sourceVersion, entries: [], issues, endOffset: offset + consumed, endLines: linesBefore + lines - 1 };
}

/** The texts of the given lines of "<header>\n<appended bytes>" (numbered as streamAppended's parser numbers them). */
function appendedLineTexts(headerJson: string, read: ReadInto, wanted: ReadonlySet<number>): Map<number, string> {
  const collector = lineCollector(wanted);
  collector.feed(`${headerJson}\n`);
  readTextBlocks(read, (text) => collector.feed(text), { blockBytes: APPENDED_BLOCK_BYTES });
  return collector.texts;
}

/** What streamWhole hands its caller as it reads. */
export interface WholeStreamHandler {
  /**
   * The header, once the first value is parsed (called once, before any entries; not called when the
   * text is not a session). Return false to stop reading (nothing more is parsed).
   */
  header(header: SessionHeader, fromVersion: number): boolean;
  /**
   * the next entries in file order (a v3 file: block by block, with their bytes; a legacy file: all
   * at once, migrated); store them before returning: their `bytes` are reused afterwards
   */
  entries(batch: ReadEntry[]): void;
  /** after each block, with the bytes read so far (progress, abort checks: it may throw) */
  progress?(bytesDone: number): void;
}

/** Lines counted in a text ("\n" characters). */
function newlinesIn(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Gives entries the bytes of their line in a piece of the file (pieces end with a "\n", so its
 * lines are the lines of its text). The bytes are the stored text's UTF-8 when the line is valid
 * UTF-8 (decoding replaced nothing): always for an ASCII piece, else checked line by line.
 */
function attachBytes(batch: ReadEntry[], bytes: Buffer, ascii: boolean, firstLine: number): void {
  let line = firstLine; // the line starting at `pos`
  let pos = 0;
  for (const e of batch) {
    if (e.line < line) continue; // a line carried over from an earlier piece (not the case when pieces end with "\n")
    while (line < e.line && pos < bytes.length) {
      const nl = bytes.indexOf(NEWLINE, pos);
      if (nl === -1) return;
      pos = nl + 1;
      line++;
    }
    if (line !== e.line) return;
    let end = bytes.indexOf(NEWLINE, pos);
    if (end === -1) end = bytes.length;
    if (end > pos && bytes[end - 1] === 0x0d) end--; // the parser drops a final "\r"
    const slice = bytes.subarray(pos, end);
    // the same line as the text's (its first and last characters; an ASCII line has as many bytes as characters)
    const same = slice[0] === e.json.charCodeAt(0) && slice[slice.length - 1] === e.json.charCodeAt(e.json.length - 1);
    if (same && (ascii ? slice.length === e.json.length : isUtf8(slice))) e.bytes = slice;
  }
}

/**
 * Reads a whole file from `open()` (a reader from its first byte; called again only to fetch the
 * text of lines that have an issue) without ever holding it whole: v3 entries go to `handler` block
 * by block, so a reader that stores them as they come keeps none alive. A legacy (v1/v2) file is
 * collected and migrated first (migration needs every entry), then handed over at once. The result
 * has no entries (they were handed over); `header` is null when the text is not a session.
 */
export function streamWhole(open: () => ReadInto, handler: WholeStreamHandler, random?: RandomSource): ReadResult {
  const parser = new SessionParser({ lines: true });
  // changed inside the callbacks: read through a function so that TypeScript does not narrow it
  let phase: "start" | "stream" | "collect" | "stopped" = "start";
  const state = (): typeof phase => phase;
  const collected: ReadEntry[] = [];
  let lines = 0;
  let fromVersion = 0;
  const take = (withBytes?: (batch: ReadEntry[]) => void): void => {
    if (state() === "start" && parser.header !== null) {
      fromVersion = sessionVersion(parser.header);
      if (fromVersion < CURRENT_SESSION_VERSION) phase = "collect";
      else phase = handler.header(parser.header, fromVersion) ? "stream" : "stopped";
    }
    if (state() !== "stream" && state() !== "collect") return;
    const batch = takeBatch(parser);
    if (state() === "collect") collected.push(...batch);
    else if (batch.length > 0) {
      withBytes?.(batch);
      handler.entries(batch);
    }
  };
  let complete = 0; // bytes up to the last "\n"
  const total = readTextBlocks(
    open(),
    (text, bytes, ascii) => {
      if (state() === "stopped" || parser.rejected) return;
      parser.push(text);
      const firstLine = lines + 1;
      lines += newlinesIn(text);
      // piece by piece (64 KiB): the entries die young, never promoted by the garbage collector
      take((batch) => attachBytes(batch, bytes, ascii, firstLine));
    },
    {
      onBlock: (done) => {
        complete = done;
        handler.progress?.(done);
      },
    },
  );
  parser.end();
  take(); // what end() parsed: the last line when it had no "\n" (or the header, in a one-line file)
  const parsed = parser.end();
  const pending = parsed.issues.some((p) => p.kind === "truncated-line");
  // a cut-off last line is left unconsumed: when the writer finishes it, the next read picks it up
  const endOffset = pending ? complete : total;
  if (parser.header === null || state() === "stopped") {
    return { header: parser.header, fromVersion, entries: [], issues: parsed.issues.map((p) => issueFrom(p, 0, new Map())), endOffset, endLines: lines };
  }
  const texts = parsed.issues.some((p) => p.line > 0) ? lineTextsOf(open(), new Set(parsed.issues.map((p) => p.line))) : new Map<number, string>();
  const issues = parsed.issues.map((p) => issueFrom(p, 0, texts));
  if (state() === "collect") {
    const header = parser.header;
    migrateEntries(header, collected, random);
    if (handler.header(header, fromVersion) && collected.length > 0) handler.entries(collected);
  }
  // the text after the last "\n" holds no "\n": `lines` is the count before endOffset either way
  return { header: parser.header, fromVersion, entries: [], issues, endOffset, endLines: lines };
}

/** The texts of the given 1-based lines of the text `read` gives. */
function lineTextsOf(read: ReadInto, wanted: ReadonlySet<number>): Map<number, string> {
  const collector = lineCollector(wanted);
  readTextBlocks(read, (text) => collector.feed(text));
  return collector.texts;
}
