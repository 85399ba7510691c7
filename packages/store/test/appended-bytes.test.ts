/**
 * The bytes a file gained, read block by block (source/appended-bytes.ts through
 * SourceSync.readChanges): the file state recorded once they are stored is the one a whole read of
 * the file records at the same end (the hashes of its first and last 64 KiB before the end), for
 * every end an import can stop at; it comes from the bytes as read, never from the file again.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/database";
import type { ReadInto } from "../src/source/blocks";
import { type FileChange, type KnownFile, SourceSync } from "../src/source/source-sync";

// one folder for the whole file (support's tempDir is emptied after each test)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-appended-bytes-"));
const db = openDatabase({ path: path.join(dir, "bonsai.db") });
const files = new SourceSync(db, { writeThrough: false });
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** random lines of 0..max bytes each, "\n"-ended, with some non-ASCII */
const lines = (count: number, max: number): fc.Arbitrary<Buffer> =>
  fc.array(fc.tuple(fc.integer({ min: 0, max }), fc.constantFrom("a", "é", "🌳", " ")), { minLength: 0, maxLength: count }).map((ls) => Buffer.from(ls.map(([n, c]) => `${c.repeat(Math.ceil(n / Buffer.byteLength(c)))}\n`).join("")));

/** reads a source to its end in reads of random sizes */
function drain(read: ReadInto, sizes: number[]): number {
  const buf = Buffer.alloc(512 * 1024);
  let total = 0;
  for (let i = 0; ; i++) {
    const n = read(buf, 0, sizes[i % sizes.length] as number);
    if (n === 0) return total;
    total += n;
  }
}

let n = 0;
/** the state a whole read of `file` records at `end` */
function wholeState(file: string, end: number) {
  const change = files.readChanges(file, null);
  if (change.kind !== "whole") throw new Error(`expected a whole read, got ${change.kind}`);
  const whole = change.open();
  try {
    return whole.stateAt(end, 0);
  } finally {
    whole.close();
  }
}

function appendedChange(change: FileChange) {
  if (change.kind !== "appended") throw new Error(`expected appended bytes, got ${change.kind}`);
  return change;
}

describe("appended bytes read block by block", () => {
  it("record the state a whole read records, at the end of all of them and at their last line's end", () => {
    fc.assert(
      fc.property(
        lines(40, 9000),
        lines(60, 12000),
        fc.constantFrom("", "{cut-off line", "x".repeat(70 * 1024)),
        fc.array(fc.integer({ min: 1, max: 300 * 1024 }), { minLength: 1, maxLength: 5 }),
        (before, added, tail, sizes) => {
          const file = path.join(dir, `grown-${n++}.jsonl`);
          const start = Buffer.concat([Buffer.from("{}\n"), before]);
          fs.writeFileSync(file, start);
          const known: KnownFile = { ...wholeState(file, start.length), size: -1, mtimeMs: -1 };
          const appended = Buffer.concat([added, Buffer.from(tail)]);
          if (appended.length === 0) return;
          fs.appendFileSync(file, appended);
          const change = appendedChange(files.readChanges(file, known));
          expect(change.offset).toBe(start.length);
          const bytes = change.open();
          try {
            expect(bytes.length).toBe(appended.length);
            expect(drain(bytes.reader(), sizes)).toBe(appended.length);
            const ends = new Set([start.length, start.length + appended.length, start.length + appended.lastIndexOf(0x0a) + 1]);
            for (const end of ends) {
              expect(bytes.stateAt(end, 0), `end ${end}`).toEqual(wholeState(file, end));
            }
            // an end the read did not stop at is refused, not guessed from the file
            const odd = start.length + 1;
            if (!ends.has(odd)) expect(() => bytes.stateAt(odd, 0)).toThrow(/read stopped at/);
          } finally {
            bytes.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("taken whole (a legacy file, a foreign reader), record the state at any end", () => {
    const file = path.join(dir, "whole.jsonl");
    const start = Buffer.from(`{}\n${"b".repeat(100 * 1024)}\n`);
    fs.writeFileSync(file, start);
    const known: KnownFile = { ...wholeState(file, start.length), size: -1, mtimeMs: -1 };
    fs.appendFileSync(file, `${"c".repeat(3000)}\n${"d".repeat(80 * 1024)}\nend`);
    const bytes = appendedChange(files.readChanges(file, known)).open();
    try {
      expect(bytes.all().toString("latin1", 0, 3)).toBe("ccc");
      for (const end of [start.length + 10, start.length + 3001, fs.statSync(file).size]) expect(bytes.stateAt(end, 0)).toEqual(wholeState(file, end));
    } finally {
      bytes.close();
    }
  });

  it("come from the file as it was checked: a rewrite after the check is not read into the state", () => {
    const file = path.join(dir, "swapped.jsonl");
    const start = Buffer.from(`{}\n${"e".repeat(5000)}\n`);
    fs.writeFileSync(file, start);
    const known: KnownFile = { ...wholeState(file, start.length), size: -1, mtimeMs: -1 };
    fs.appendFileSync(file, `${"f".repeat(2000)}\n`);
    const expected = wholeState(file, fs.statSync(file).size);
    const bytes = appendedChange(files.readChanges(file, known)).open();
    try {
      // the file is replaced by another (rename over it) while its appended bytes are being read
      const other = path.join(dir, "other.jsonl");
      fs.writeFileSync(other, `{}\n${"g".repeat(7002)}\n`);
      fs.renameSync(other, file);
      expect(drain(bytes.reader(), [1000])).toBe(2001);
      expect(bytes.stateAt(start.length + 2001, 0)).toEqual({ ...expected, lines: 0 });
    } finally {
      bytes.close();
    }
  });
});
