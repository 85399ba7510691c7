/**
 * The bytes a file gained since the store last read it, read block by block instead of as one
 * Buffer (an append of 1,000 lines no longer maps 1.5 MB of fresh memory, and one of a few hundred
 * MB no longer holds them all), and the file state the store records once it holds them: the
 * hashes of the first and the last TAIL_WINDOW bytes before the end it consumed, from the bytes as
 * it read them (never read again from the file, which may have changed since).
 *
 * The reader keeps what the state needs as the bytes go by: the first TAIL_WINDOW bytes, the last
 * TAIL_WINDOW, and the last TAIL_WINDOW before the last "\n". An import consumes either all the
 * bytes or those before the last "\n" (a cut-off last line waits for the next read), so these are
 * the only ends it can ask the state of.
 */
import type fs from "node:fs";
import { bufferReader, fileReader, type ReadInto } from "./blocks";
import { readRange } from "./bytes";
import { type AppendedSource, TAIL_WINDOW } from "./reader";
import type { WrittenState } from "./safe-rewrite";

const NEWLINE = 0x0a;

/** The state of a file from its windows (first and last TAIL_WINDOW bytes before `end`). */
export type StateOf = (head: Buffer, tail: Buffer, end: number, lines: number) => WrittenState;

/**
 * The bytes after `offset` in a file that only grew (`length`: to the file's size when it was looked
 * at; `reader()`: every call starts again, only the first one's bytes make the state), and the state
 * to record once they are stored.
 */
export interface AppendedBytes extends AppendedSource {
  /** all of them in one Buffer (a legacy file's migration and the foreign readers take them whole) */
  all(): Buffer;
  /** the state once the store holds bytes [0, end), `lines` "\n" before it: from the bytes as read */
  stateAt(end: number, lines: number): WrittenState;
  close(): void;
}

/**
 * The last `size` bytes of those pushed, kept in one buffer allocated once: a window copied into
 * fresh memory at every block cost an append of 1,000 lines about 150 page faults.
 */
class LastBytes {
  private readonly buf: Buffer;
  private length = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  /** the bytes kept (a view: valid until the next push or copy) */
  get bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
  push(bytes: Buffer): void {
    const size = this.buf.length;
    if (bytes.length >= size) {
      bytes.copy(this.buf, 0, bytes.length - size);
      this.length = size;
      return;
    }
    const keep = Math.min(this.length, size - bytes.length);
    this.buf.copy(this.buf, 0, this.length - keep, this.length);
    bytes.copy(this.buf, keep);
    this.length = keep + bytes.length;
  }
  /** becomes `other`'s bytes followed by `bytes` (the last `size` of them) */
  copyThenPush(other: LastBytes, bytes: Buffer): void {
    if (bytes.length < this.buf.length) {
      other.buf.copy(this.buf, 0, 0, other.length);
      this.length = other.length;
    }
    this.push(bytes);
  }
}

/** The last `max` bytes of `before` followed by `after`, copied (neither is kept). */
function lastBytes(before: Buffer, after: Buffer, max: number): Buffer {
  const window = new LastBytes(max);
  window.push(before);
  window.push(after);
  return window.bytes;
}

/** What the state needs of bytes seen in order: their first and last windows, and the last before a "\n". */
class Windows {
  first: Buffer = Buffer.alloc(0);
  private readonly lastSeen = new LastBytes(TAIL_WINDOW);
  private readonly beforeNewline = new LastBytes(TAIL_WINDOW);
  /** bytes seen */
  total = 0;
  /** bytes seen up to and with the last "\n" (0: none yet) */
  newlineEnd = 0;

  /** the last TAIL_WINDOW bytes seen (a view) */
  get last(): Buffer {
    return this.lastSeen.bytes;
  }

  /** the last TAIL_WINDOW bytes seen before the last "\n", with it (a view) */
  get lastBeforeNewline(): Buffer {
    return this.beforeNewline.bytes;
  }

  see(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.first.length < TAIL_WINDOW) this.first = Buffer.concat([this.first, bytes.subarray(0, TAIL_WINDOW - this.first.length)]);
    const newline = bytes.lastIndexOf(NEWLINE);
    if (newline !== -1) {
      this.beforeNewline.copyThenPush(this.lastSeen, bytes.subarray(0, newline + 1));
      this.newlineEnd = this.total + newline + 1;
    }
    this.lastSeen.push(bytes);
    this.total += bytes.length;
  }
}

interface Source {
  length: number;
  /** a reader over the bytes from the first */
  open(): ReadInto;
  /** all of them at once */
  whole(): Buffer;
  close(): void;
}

/**
 * `head` = the file's first min(TAIL_WINDOW, offset) bytes and `tail` = the TAIL_WINDOW before
 * `offset`, both as checked against the store's record.
 */
function appendedBytes(offset: number, head: Buffer, tail: Buffer, source: Source, state: StateOf): AppendedBytes {
  const seen = new Windows();
  let tracking = true;
  let whole: Buffer | null = null;
  return {
    length: source.length,
    reader() {
      const read = source.open();
      if (!tracking) return read;
      tracking = false; // the first reader's bytes are the ones the state is made of
      return (buf, at, length) => {
        const n = read(buf, at, length);
        seen.see(buf.subarray(at, at + n));
        return n;
      };
    },
    all() {
      whole ??= source.whole();
      return whole;
    },
    stateAt(end, lines) {
      const consumed = end - offset;
      if (whole !== null) {
        const used = whole.subarray(0, consumed);
        return state(Buffer.concat([head, used.subarray(0, Math.max(0, TAIL_WINDOW - head.length))]), lastBytes(tail, used, TAIL_WINDOW), end, lines);
      }
      let last: Buffer;
      if (consumed === 0) last = Buffer.alloc(0);
      else if (consumed === seen.total) last = seen.last;
      else if (consumed === seen.newlineEnd) last = seen.lastBeforeNewline;
      else throw new Error(`the state of ${offset + source.length}-byte file at ${end} was asked, but the read stopped at ${offset + seen.total}`);
      const first = seen.first.subarray(0, Math.min(consumed, Math.max(0, TAIL_WINDOW - head.length)));
      return state(Buffer.concat([head, first]), lastBytes(tail, last, TAIL_WINDOW), end, lines);
    },
    close: () => source.close(),
  };
}

/** The appended bytes of an open file: [offset, stat.size), read from `fd` (closed by close()). */
export function appendedFromFile(fd: number, stat: fs.Stats, offset: number, head: Buffer, tail: Buffer, state: StateOf, close: () => void): AppendedBytes {
  return appendedBytes(offset, head, tail, { length: stat.size - offset, open: () => fileReader(fd, offset, stat.size), whole: () => readRange(fd, offset, stat.size), close }, state);
}

/** The appended bytes of a file held in memory (`bytes`, the whole file). */
export function appendedFromMemory(bytes: Buffer, offset: number, head: Buffer, tail: Buffer, state: StateOf): AppendedBytes {
  const chunk = bytes.subarray(offset);
  return appendedBytes(offset, head, tail, { length: chunk.length, open: () => bufferReader(chunk), whole: () => chunk, close: () => undefined }, state);
}

/**
 * Bytes an agent appended while the file was being rewritten (safe-rewrite's catch-up), read from
 * memory; the state is the rewritten file's as written (`after`), whatever the end.
 */
export function appendedDuringRewrite(bytes: Buffer, after: WrittenState): AppendedBytes {
  return { length: bytes.length, reader: () => bufferReader(bytes), all: () => bytes, stateAt: () => after, close: () => undefined };
}
