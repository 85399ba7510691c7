/**
 * Which reader a file needs, from its first lines (never its name): pi / oh-my-pi files keep the
 * store's own import; Claude Code and Codex files go to the formats layer's readers.
 */
import { describeUnknown, detectFormat, firstValues, looksLikePi, SNIFF_LINES, type SessionReader } from "@bonsai/formats";

/** at most this much of a file's start is decoded to detect its format */
const MAX_HEAD_BYTES = 8 * 1024 * 1024;

export type SourceKind =
  /**
   * pi / oh-my-pi, or a file no reader knows; `unknownReason` (one sentence, quoting nothing of the
   * file) when it does not even look like a broken pi file (then core's parser says what is wrong)
   */
  | { kind: "pi"; unknownReason: string | null }
  | { kind: "foreign"; reader: SessionReader };

/** The start of `bytes` holding its first SNIFF_LINES lines (or all of it, at most MAX_HEAD_BYTES). */
function head(bytes: Buffer): string {
  let end = 0;
  for (let lines = 0; lines < SNIFF_LINES && end < bytes.length && end < MAX_HEAD_BYTES; lines++) {
    const nl = bytes.indexOf(0x0a, end);
    end = nl === -1 ? bytes.length : nl + 1;
  }
  return bytes.toString("utf8", 0, Math.min(end, MAX_HEAD_BYTES));
}

/** A pi header on the first line is decided without parsing anything else. */
function startsWithPiHeader(bytes: Buffer): boolean {
  const start = bytes.subarray(0, 64).toString("latin1").replace(/^\uFEFF|^\xEF\xBB\xBF/, "").trimStart();
  return /^\{\s*"type"\s*:\s*"session"/.test(start);
}

/** at most this much is read first: a pi header needs only the first line */
const FIRST_READ_BYTES = 64 * 1024;

/**
 * detectSource on the start of a file that is read as far as it needs (`readPrefix(n)`: its first n
 * bytes): the first 64 KiB, and up to MAX_HEAD_BYTES only when those do not hold a pi header.
 */
export function detectSourceOf(readPrefix: (bytes: number) => Buffer): SourceKind {
  const first = readPrefix(FIRST_READ_BYTES);
  if (startsWithPiHeader(first) || first.length < FIRST_READ_BYTES) return detectSource(first);
  return detectSource(readPrefix(MAX_HEAD_BYTES));
}

export function detectSource(bytes: Buffer): SourceKind {
  if (startsWithPiHeader(bytes)) return { kind: "pi", unknownReason: null };
  const text = head(bytes);
  const detection = detectFormat(text);
  if (detection.reader === null) {
    const values = firstValues(text);
    return { kind: "pi", unknownReason: looksLikePi(values) ? null : describeUnknown(values, { quote: false }) };
  }
  return detection.reader.format === "pi" ? { kind: "pi", unknownReason: null } : { kind: "foreign", reader: detection.reader };
}
