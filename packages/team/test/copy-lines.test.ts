/**
 * The binary COPY reader that streams a session: every row passed on as sent, whatever the cuts
 * between the chunks it arrives in; a stream that ends early or holds more than one column is an
 * error, never a short session taken as whole.
 */
import { describe, expect, it } from "vitest";
import { copyBinaryLines, CopyFormatError } from "../src/copy-lines";

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

function header(extension = Buffer.alloc(0)): Buffer {
  const fixed = Buffer.alloc(8);
  fixed.writeUInt32BE(extension.length, 4);
  return Buffer.concat([SIGNATURE, fixed, extension]);
}

function row(...fields: (string | null)[]): Buffer {
  const count = Buffer.alloc(2);
  count.writeInt16BE(fields.length);
  const parts = [count];
  for (const field of fields) {
    const length = Buffer.alloc(4);
    length.writeInt32BE(field === null ? -1 : Buffer.byteLength(field));
    parts.push(length);
    if (field !== null) parts.push(Buffer.from(field));
  }
  return Buffer.concat(parts);
}

const TRAILER = Buffer.from([0xff, 0xff]);

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function lines(input: AsyncIterable<Buffer>): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of copyBinaryLines(input)) out.push(chunk);
  return Buffer.concat(out).toString("utf8");
}

const ROWS = ['{"a":1}', "", '{"text":"ünïcode «» 数据库 \\\\ \\"q\\""}', "x".repeat(70_000)];
const STREAM = Buffer.concat([header(Buffer.from("ext")), ...ROWS.map((r) => row(r)), TRAILER]);
const EXPECTED = ROWS.map((r) => `${r}\n`).join("");

describe("copyBinaryLines", () => {
  it("gives each row as a line, byte for byte, whatever size the chunks come in", async () => {
    for (const size of [1, 2, 3, 5, 7, 19, 64, 1000, 65_536, STREAM.length]) expect(await lines(chunked(STREAM, size))).toBe(EXPECTED);
  });

  it("gives nothing for no rows", async () => {
    expect(await lines(chunked(Buffer.concat([header(), TRAILER]), 4))).toBe("");
  });

  it("refuses a stream cut off anywhere before its trailer", async () => {
    for (const cut of [0, 5, 19, 25, STREAM.length - 3, STREAM.length - 1]) {
      await expect(lines(chunked(STREAM.subarray(0, cut), 4))).rejects.toThrow(CopyFormatError);
    }
  });

  it("refuses what is not binary COPY, rows of other than one column, NULL rows and bytes after the trailer", async () => {
    await expect(lines(chunked(Buffer.from("not copy data at all"), 100))).rejects.toThrow(/binary COPY format/);
    await expect(lines(chunked(Buffer.concat([header(), row("a", "b"), TRAILER]), 100))).rejects.toThrow(/2 fields/);
    await expect(lines(chunked(Buffer.concat([header(), row(null), TRAILER]), 100))).rejects.toThrow(/NULL/);
    await expect(lines(chunked(Buffer.concat([header(), row("a"), TRAILER, Buffer.from("x")]), 100))).rejects.toThrow(/after the end/);
  });
});
