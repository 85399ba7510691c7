/**
 * Which agent wrote a session file, from its content (never its name): each reader sniffs the
 * parsed values of the file's first lines. A file no reader knows gets one sentence saying what it
 * looks like and what Bonsai reads.
 */
import { claudeCodeReader } from "./claude-code/index";
import { codexReader } from "./codex/index";
import { isBlankLine, parseLine } from "./lines";
import { piReader } from "./pi/reader";
import type { ReadSession, SessionReader } from "./types";
import { isObj } from "./values";

/** Every reader, in the order they are asked. */
export const READERS: readonly SessionReader[] = [piReader, claudeCodeReader, codexReader];

/** How many non-blank lines detection looks at. */
export const SNIFF_LINES = 20;

export const WHAT_BONSAI_READS =
  "Bonsai reads pi / oh-my-pi sessions (first line {\"type\":\"session\",…}), Claude Code transcripts (lines with uuid, parentUuid and sessionId) and Codex rollouts (lines {timestamp, type, payload})";

/** The same without quoting anything (for messages that must not contain a quote of any file). */
const WHAT_BONSAI_READS_PLAIN = "Bonsai reads pi / oh-my-pi sessions, Claude Code transcripts and Codex rollouts";

export type Detection = { reader: SessionReader } | { reader: null; reason: string };

/** The parsed values of the first non-blank lines (undefined for a line that is not JSON). */
export function firstValues(text: string, max = SNIFF_LINES): unknown[] {
  const values: unknown[] = [];
  let pos = 0;
  while (pos < text.length && values.length < max) {
    const nl = text.indexOf("\n", pos);
    const line = text.slice(pos, nl === -1 ? text.length : nl);
    pos = nl === -1 ? text.length : nl + 1;
    if (isBlankLine(line)) continue;
    const parsed = parseLine(line);
    values.push(parsed.ok ? parsed.value : undefined);
  }
  return values;
}

function describeValue(value: unknown, quote: boolean): string {
  if (value === undefined) return "not JSON";
  if (!isObj(value)) return value === null ? "null" : Array.isArray(value) ? "a JSON array" : `a JSON ${typeof value}`;
  const keys = Object.keys(value);
  if (!quote) return `an object with ${keys.length === 1 ? "one key" : `${keys.length} keys`}`;
  const type = typeof value.type === "string" ? ` of type ${JSON.stringify(value.type)}` : "";
  return `an object${type} with keys ${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", …" : ""}`;
}

/**
 * Why no reader knows these values: what the file looks like and what Bonsai reads (one sentence).
 * `quote: false` leaves out the first line's type and key names and quotes nothing (for messages
 * shown where the file's content must not appear, e.g. a browser window).
 */
export function describeUnknown(values: readonly unknown[], options: { quote?: boolean } = {}): string {
  const quote = options.quote !== false;
  const reads = quote ? WHAT_BONSAI_READS : WHAT_BONSAI_READS_PLAIN;
  if (values.length === 0) return `not a session file: it is empty; ${reads}`;
  if (values.every((v) => v === undefined)) return `not a session file: it is not JSON lines (its first line is not JSON); ${reads}`;
  const first = values.find((v) => v !== undefined);
  return `not a session file: it is JSON lines but no session format Bonsai knows (its first line is ${describeValue(first, quote)}); ${reads}`;
}

/** A first value shaped like a pi entry or header (a broken pi file rather than another format). */
export function looksLikePi(values: readonly unknown[]): boolean {
  const first = values.find((v) => v !== undefined);
  return isObj(first) && (first.type === "session" || (typeof first.type === "string" && "id" in first));
}

/** The reader of a file's text (a prefix of it is enough when it holds a few whole lines). */
export function detectFormat(text: string): Detection {
  const values = firstValues(text);
  for (const reader of READERS) if (reader.sniff(values)) return { reader };
  return { reader: null, reason: describeUnknown(values) };
}

/** A file whose format no reader knows; the message is one sentence without the file name. */
export class UnknownFormatError extends Error {
  override readonly name = "UnknownFormatError";
}

/** Detects the format and reads the whole text. */
export function readSession(text: string): ReadSession {
  const detection = detectFormat(text);
  if (!detection.reader) throw new UnknownFormatError(detection.reason);
  return detection.reader.read(text);
}
