/**
 * Pure edits of a session file's bytes by line number, for rewrites that must keep every line they
 * do not mean to change byte for byte (lines the import could not read, blank lines, "\r\n" endings,
 * a missing final newline). Lines are numbered as core's parser numbers them: 1-based, every "\n"
 * ends one, a leading BOM belongs to line 1.
 */
import { NEWLINE } from "./bytes";

const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface LineReplacement {
  /** the new text of the line, without "\n" (must not contain one) */
  text: string;
  /** the text the line must have now (without BOM, "\r" and "\n"); null = not checked */
  expect: string | null;
}

/** A replacement's line is missing or does not hold what the store expected. */
export class LineMismatchError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = "LineMismatchError";
  }
}

/**
 * `bytes` with the given lines replaced; every other byte kept. The BOM of line 1, a final "\r" and
 * the "\n" of a replaced line are kept around its new text.
 */
export function replaceLines(bytes: Buffer, replacements: ReadonlyMap<number, LineReplacement>): Buffer {
  if (replacements.size === 0) return bytes;
  const targets = [...replacements.keys()].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let copied = 0; // bytes before this offset are in parts
  let lineNo = 1;
  let lineStart = 0;
  for (const target of targets) {
    if (!Number.isInteger(target) || target < 1) throw new LineMismatchError(target, `line ${target} does not exist`);
    while (lineNo < target) {
      const nl = bytes.indexOf(NEWLINE, lineStart);
      if (nl === -1) throw new LineMismatchError(target, `line ${target} is beyond the end of the file (${lineNo} lines)`);
      lineStart = nl + 1;
      lineNo++;
    }
    if (lineStart >= bytes.length && target > 1) throw new LineMismatchError(target, `line ${target} is beyond the end of the file`);
    const nl = bytes.indexOf(NEWLINE, lineStart);
    let textEnd = nl === -1 ? bytes.length : nl;
    if (textEnd > lineStart && bytes[textEnd - 1] === CR) textEnd--;
    let textStart = lineStart;
    if (target === 1 && bytes.subarray(0, 3).equals(BOM)) textStart = 3;
    const r = replacements.get(target) as LineReplacement;
    if (r.text.includes("\n")) throw new LineMismatchError(target, `the new text of line ${target} contains a line break`);
    if (r.expect !== null && bytes.toString("utf8", textStart, textEnd) !== r.expect) {
      throw new LineMismatchError(target, `line ${target} of the file is not the entry the store holds for it`);
    }
    parts.push(bytes.subarray(copied, textStart), Buffer.from(r.text, "utf8"));
    copied = textEnd;
  }
  parts.push(bytes.subarray(copied));
  return Buffer.concat(parts);
}

/** 1-based number of the line that holds byte `offset`. */
export function lineAt(bytes: Buffer, offset: number): number {
  let n = 1;
  let i = bytes.indexOf(NEWLINE);
  while (i !== -1 && i < offset) {
    n++;
    i = bytes.indexOf(NEWLINE, i + 1);
  }
  return n;
}

/**
 * Repair of a torn append: our line [start, end) (with its "\n") landed after a line another writer
 * had begun. Returns the bytes with our line taken out (the other writer's halves join again) and
 * put back at the end, after a "\n" if the text before it lacks one.
 */
export function moveToEnd(bytes: Buffer, start: number, end: number): Buffer {
  const ours = bytes.subarray(start, end);
  const rest = Buffer.concat([bytes.subarray(0, start), bytes.subarray(end)]);
  const needsNewline = rest.length > 0 && rest[rest.length - 1] !== NEWLINE;
  return Buffer.concat([rest, needsNewline ? Buffer.from("\n") : Buffer.alloc(0), ours]);
}

/**
 * The line of a session file's header as core's parser finds it: the first line that parses as
 * JSON (blank and unparsable lines before it are skipped). 0 when there is none.
 */
export function headerLineOf(bytes: Buffer): number {
  let start = bytes.subarray(0, 3).equals(BOM) ? 3 : 0;
  for (let lineNo = 1; start < bytes.length; lineNo++) {
    const nl = bytes.indexOf(NEWLINE, start);
    const end = nl === -1 ? bytes.length : nl;
    const text = bytes.toString("utf8", start, end).trim();
    if (text !== "") {
      try {
        JSON.parse(text);
        return lineNo;
      } catch {
        // skipped by the parser too
      }
    }
    if (nl === -1) break;
    start = nl + 1;
  }
  return 0;
}
