/**
 * Decoding a session file block by block, so that it never exists as one string (nor as one
 * Buffer): each block is decoded up to its last "\n" and handed over in pieces cut after a "\n";
 * the bytes after it wait for the next block. The byte 0x0A never occurs inside a multi-byte UTF-8
 * sequence and ends any malformed one, so decoding in pieces cut after a "\n" gives exactly the text
 * decoding the whole file gives (same U+FFFD replacements, a BOM kept for the parser). A piece of
 * pure ASCII is decoded as latin1: the same string as UTF-8 at a tenth of the cost on Node 20.
 *
 * Node only, no SQLite: the CLI's file reader uses it too (imported as "@bonsai/store/blocks").
 */
import { isAscii } from "node:buffer";
import { readSync } from "node:fs";

const NEWLINE = 0x0a;
export const READ_BLOCK_BYTES = 4 * 1024 * 1024;

/**
 * The largest session file Bonsai reads (its size is looked at before a byte is read, so a 2 GiB
 * sparse file or file of zeros is refused at once, in memory bounded by this, not by the file).
 */
export const MAX_SESSION_FILE_BYTES = 512 * 1024 * 1024;

/** Why a file of `size` bytes is not read, or null when it may be. */
export function oversizeReason(size: number): string | null {
  if (size <= MAX_SESSION_FILE_BYTES) return null;
  const gib = size / 1024 ** 3;
  const shown = gib >= 1 ? `${gib.toFixed(1)} GiB` : `${Math.round(size / 1024 ** 2)} MiB`;
  return `too large for Bonsai: ${shown} (it reads session files of up to ${MAX_SESSION_FILE_BYTES / 1024 ** 2} MiB)`;
}
/** decoding unit inside a block */
const PIECE_BYTES = 64 * 1024;

/** Reads up to `length` bytes into buf[offset…] (the next bytes of the source); 0 at its end. */
export type ReadInto = (buf: Buffer, offset: number, length: number) => number;

/**
 * Receives the next piece of text. `bytes`: the bytes it was decoded from, a view of the read buffer
 * valid only until the callback returns (copy what must outlive it); `ascii`: every byte is below
 * 0x80 (the text is then exactly the bytes, one character each).
 */
export type OnText = (text: string, bytes: Buffer, ascii: boolean) => void;

export interface TextBlockOptions {
  blockBytes?: number;
  pieceBytes?: number;
  /** called after each block with the bytes handed over so far (whole lines) */
  onBlock?: (bytesDone: number) => void;
}

/** Hands over buf[start, end) (end just after a "\n") in pieces cut after a "\n". */
function decodePieces(buf: Buffer, start: number, end: number, pieceBytes: number, onText: OnText): void {
  let p = start;
  while (p < end) {
    let q = end;
    if (end - p > pieceBytes) {
      q = buf.lastIndexOf(NEWLINE, p + pieceBytes - 1) + 1;
      if (q <= p) q = buf.indexOf(NEWLINE, p + pieceBytes) + 1; // one line longer than a piece
    }
    const bytes = buf.subarray(p, q);
    const ascii = isAscii(bytes);
    onText(buf.toString(ascii ? "latin1" : "utf8", p, q), bytes, ascii);
    p = q;
  }
}

/**
 * Reads the source to its end and hands its text to `onText` in order, in pieces that each end with
 * a "\n" (only the last may not: the source's text after its last "\n"). Returns the bytes read.
 */
export function readTextBlocks(read: ReadInto, onText: OnText, options: TextBlockOptions = {}): number {
  const pieceBytes = options.pieceBytes ?? PIECE_BYTES;
  let buf = Buffer.allocUnsafe(Math.max(1, options.blockBytes ?? READ_BLOCK_BYTES));
  let filled = 0; // bytes in buf not handed over yet (the start of a line without its "\n")
  let done = 0;
  for (;;) {
    if (filled === buf.length) {
      // one line longer than the block: grow the block
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, filled);
      buf = bigger;
    }
    const n = read(buf, filled, buf.length - filled);
    if (n === 0) break;
    filled += n;
    const last = buf.lastIndexOf(NEWLINE, filled - 1);
    if (last === -1) continue;
    decodePieces(buf, 0, last + 1, pieceBytes, onText);
    done += last + 1;
    buf.copy(buf, 0, last + 1, filled);
    filled -= last + 1;
    options.onBlock?.(done);
  }
  handOverRest(buf, 0, filled, onText);
  return done + filled;
}

/** The text after the last "\n" (none in it): decoded whole (an incomplete UTF-8 sequence at the end becomes U+FFFD). */
function handOverRest(buf: Buffer, start: number, end: number, onText: OnText): void {
  if (end > start) onText(buf.toString("utf8", start, end), buf.subarray(start, end), false);
}

/** A ReadInto over bytes [start, end) of an open file. */
export function fileReader(fd: number, start = 0, end = Infinity): ReadInto {
  let position = start;
  return (buf, offset, length) => {
    const n = readSync(fd, buf, offset, Math.min(length, end - position), position);
    position += n;
    return n;
  };
}

/** A ReadInto over a Buffer held in memory. */
export function bufferReader(bytes: Buffer): ReadInto {
  let position = 0;
  return (buf, offset, length) => {
    const n = bytes.copy(buf, offset, position, Math.min(bytes.length, position + length));
    position += n;
    return n;
  };
}
