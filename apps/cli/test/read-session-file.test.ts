/**
 * readSessionFile (the read commands' file reader) decodes and parses the file block by block; the
 * result must be exactly what parsing the whole decoded file gives, whatever the block size:
 * multi-byte characters and malformed bytes across block ends, a BOM, CRLF, blank and corrupt
 * lines, a line longer than a block, a truncated last line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSessionText } from "@bonsai/core";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { readSessionFile } from "../src/read-session-file";

const dir = mkdtempSync(path.join(tmpdir(), "bonsai-read-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = `{"type":"session","id":"s1","timestamp":"2025-01-01T00:00:00Z","cwd":"/p"}`;
const message = (id: string, text: string): string =>
  JSON.stringify({ type: "message", id, parentId: null, timestamp: "2025-01-01T00:00:01Z", message: { role: "user", content: text, timestamp: 1 } });

function write(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

function wholeFileParse(file: string): ReturnType<typeof parseSessionText> {
  return parseSessionText(readFileSync(file, "utf8"));
}

describe("readSessionFile", () => {
  const text = [
    `\uFEFF${HEADER}`,
    message("a", "héllo wörld ✓ 😀 — ünïcödé"),
    "",
    "   ",
    "not json at all",
    message("b", "x".repeat(300)),
    `${message("c", "crlf line")}\r`,
    "[1,2]",
    message("d", "日本語のテキスト".repeat(20)),
  ].join("\n");
  // malformed UTF-8 inside a line (a lone continuation byte, a cut 3-byte sequence) and a truncated last line
  const bytes = Buffer.concat([
    Buffer.from(`${text}\n`, "utf8"),
    Buffer.from('{"type":"message","id":"e","parentId":null,"timestamp":"t","message":{"role":"user","content":"bad ', "utf8"),
    Buffer.from([0x80, 0xe2, 0x82]),
    Buffer.from(' bytes","timestamp":1}}\n{"type":"message","id":"f"', "utf8"),
  ]);
  const file = write("messy.jsonl", bytes);

  it("gives what parsing the whole decoded file gives, for every block size from 1 byte up", () => {
    const expected = wholeFileParse(file);
    expect(expected.entries.map((e) => e.id)).toEqual(["a", "b", "c", "d", "e"]);
    expect(expected.issues.map((i) => i.kind)).toEqual(["invalid-json", "not-an-object", "truncated-line"]);
    for (let block = 1; block <= 64; block++) expect(readSessionFile(file, block), `block ${block}`).toStrictEqual(expected);
    for (const block of [100, 333, 1000, 4096, bytes.length - 1, bytes.length, bytes.length + 1]) {
      expect(readSessionFile(file, block), `block ${block}`).toStrictEqual(expected);
    }
    expect(readSessionFile(file)).toStrictEqual(expected);
  });

  it("decoding pieces of any size (ASCII pieces as latin1, the others as UTF-8) changes nothing", () => {
    const expected = wholeFileParse(file);
    for (const piece of [1, 2, 3, 5, 8, 13, 40, 100, 250, 1000]) {
      for (const block of [7, 64, 512, 100_000]) expect(readSessionFile(file, block, piece), `block ${block}, piece ${piece}`).toStrictEqual(expected);
    }
  });

  it("a generated session with every entry type reads the same as the whole-file parse", async () => {
    const generated = path.join(dir, "generated.jsonl");
    await writeSessionJsonl(generated, generateSession({ entries: 2_000, seed: 7 }));
    const expected = wholeFileParse(generated);
    expect(expected.entries).toHaveLength(2_000);
    expect(readSessionFile(generated, 64 * 1024)).toStrictEqual(expected);
  });

  it("an empty file and a file without a final newline", () => {
    expect(readSessionFile(write("empty.jsonl", Buffer.alloc(0)), 8)).toStrictEqual(parseSessionText(""));
    const noNewline = write("no-newline.jsonl", Buffer.from(`${HEADER}\n${message("a", "last")}`, "utf8"));
    expect(readSessionFile(noNewline, 16)).toStrictEqual(wholeFileParse(noNewline));
    expect(readSessionFile(noNewline, 16).entries).toHaveLength(1);
  });

  it("a missing file throws the fs error (the caller turns it into one line)", () => {
    expect(() => readSessionFile(path.join(dir, "nope.jsonl"))).toThrow(/ENOENT/);
  });
});
