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
  sessionVersion,
  type ParseIssue,
  type RandomSource,
  type SessionEntry,
  type SessionHeader,
} from "@bonsai/core";
import type { ImportIssue } from "../session-store";
import { countNewlines } from "./bytes";

export const TAIL_WINDOW = 64 * 1024;
const NEWLINE = 0x0a;

export interface ReadEntry {
  entry: SessionEntry;
  /** 1-based line in the file */
  line: number;
  /** the JSON stored for this entry: the line as read, or the migrated entry re-serialized */
  json: string;
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
 * The texts of the given 1-based lines of `text` (numbered as parseSessionText numbers them: BOM
 * skipped, a final "\r" dropped). Used only for the few lines an issue is reported on.
 */
function lineTexts(text: string, wanted: ReadonlySet<number>): Map<number, string> {
  const out = new Map<number, string>();
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let no = 1; pos < text.length && out.size < wanted.size; no++) {
    let nl = text.indexOf("\n", pos);
    if (nl === -1) nl = text.length;
    if (wanted.has(no)) {
      const line = text.slice(pos, nl);
      out.set(no, line.endsWith("\r") ? line.slice(0, -1) : line);
    }
    pos = nl + 1;
  }
  return out;
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
  let pendingLine: number | null = null;
  const issues: ImportIssue[] = [];
  for (const p of parsed.issues) {
    if (p.kind === "truncated-line") pendingLine = p.line;
    if (p.line > 0 && p.line <= skipLines) continue;
    issues.push(issueFrom(p, lineShift, texts));
  }
  const entries: ReadEntry[] = parsed.header
    ? parsed.entries.map((entry, i) => ({ entry, line: parsed.entryLines[i]! + lineShift, json: parsed.entryTexts[i]! }))
    : [];
  return { header: parsed.header, entries, issues, pendingLine };
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
