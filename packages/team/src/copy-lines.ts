/**
 * The rows of a one-column `COPY … TO STDOUT (FORMAT binary)`, as lines: each row's bytes followed
 * by a newline, passed on as the bytes PostgreSQL sent (no decoding into strings and encoding back,
 * which is most of the cost of streaming a large session). The input may be cut anywhere; a row is
 * passed on once it has come whole, and a stream that ends before the format's trailer is an error,
 * so a short answer is never taken for a whole one.
 *
 * The format (PostgreSQL's COPY documentation): an 11-byte signature, a 32-bit flags field, a
 * 32-bit header-extension length and that many bytes; then per row a 16-bit field count and per
 * field a 32-bit length (-1 for NULL) and the bytes; a field count of -1 ends the data.
 */

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const NEWLINE = Buffer.from("\n");
const HEADER_BYTES = SIGNATURE.length + 8;

export class CopyFormatError extends Error {}

export async function* copyBinaryLines(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer, void, undefined> {
  /** bytes taken in but not yet parsed, kept as a list so that a long row is joined once, not once per chunk */
  let queue: Buffer[] = [];
  let queued = 0;
  /** how many bytes the next parse needs before it can make progress */
  let need = HEADER_BYTES;
  let headerDone = false;
  let ended = false;
  for await (const chunk of input) {
    if (ended) {
      if (chunk.length > 0) throw new CopyFormatError("bytes after the end of the COPY data");
      continue;
    }
    queue.push(chunk);
    queued += chunk.length;
    if (queued < need) continue;
    const bytes = queue.length === 1 ? (queue[0] as Buffer) : Buffer.concat(queue, queued);
    let at = 0;
    const out: Buffer[] = [];
    if (!headerDone) {
      if (!bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new CopyFormatError("not PostgreSQL's binary COPY format");
      const extension = bytes.readUInt32BE(SIGNATURE.length + 4);
      need = HEADER_BYTES + extension;
      if (bytes.length >= need) {
        at = need;
        headerDone = true;
      }
    }
    while (headerDone && !ended) {
      const left = bytes.length - at;
      if (left < 2) {
        need = 2;
        break;
      }
      const fields = bytes.readInt16BE(at);
      if (fields === -1) {
        ended = true;
        at += 2;
        break;
      }
      if (fields !== 1) throw new CopyFormatError(`a COPY row of ${fields} fields where one was expected`);
      if (left < 6) {
        need = 6;
        break;
      }
      const length = bytes.readInt32BE(at + 2);
      if (length < 0) throw new CopyFormatError("a NULL row in the COPY data");
      if (left < 6 + length) {
        need = 6 + length;
        break;
      }
      out.push(bytes.subarray(at + 6, at + 6 + length), NEWLINE);
      at += 6 + length;
    }
    const rest = bytes.subarray(at);
    queue = rest.length > 0 ? [rest] : [];
    queued = rest.length;
    if (ended && queued > 0) throw new CopyFormatError("bytes after the end of the COPY data");
    if (out.length > 0) yield Buffer.concat(out);
  }
  if (!ended) throw new CopyFormatError("the COPY data ended early");
}
