/**
 * Appended lines read block by block and piece by piece (streamAppended, source/reader.ts) against
 * the whole-chunk read (readAppended): the same entries with the same lines and texts, the same
 * issues, the same end offset and line count, on random chunks that span several 64 KiB pieces and
 * blocks of random sizes, and hold every kind of line a damaged or odd file has. The store's append then takes each piece's entries as they come.
 */
import { isUtf8 } from "node:buffer";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@bonsai/core";
import type { StoreEvents } from "../src/index";
import { bufferReader } from "../src/source/blocks";
import { APPENDED_BLOCK_BYTES, readAppended, streamAppended, type ReadEntry } from "../src/source/reader";
import { HEADER, line, newStore, tempDir, userEntry } from "./support";

const HEADER_JSON = JSON.stringify(HEADER);

/** one line of an appended chunk, as bytes without its "\n" */
const lineKinds = (n: number): fc.Arbitrary<Buffer> =>
  fc.oneof(
    // entries: plain, padded past a piece now and then, non-ASCII, with bytes that are not UTF-8
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 3000 }).map((pad) => Buffer.from(JSON.stringify(userEntry(`e${n}`, n > 0 ? `e${n - 1}` : "root", `text ${"x".repeat(pad)}`)))) },
    { weight: 1, arbitrary: fc.constant(Buffer.from(JSON.stringify(userEntry(`big${n}`, null, "y".repeat(70 * 1024))))) },
    { weight: 2, arbitrary: fc.constant(Buffer.from(JSON.stringify(userEntry(`u${n}`, null, `héllo ✓ 🌳 ${"ü".repeat(300)}`)))) },
    { weight: 1, arbitrary: fc.constant(Buffer.concat([Buffer.from(`{"type":"message","id":"bad${n}","parentId":null,"message":{"role":"user","content":"a`), Buffer.from([0xff, 0xc3]), Buffer.from('b"}}')])) },
    // CRLF, leading spaces, blank and whitespace lines
    { weight: 1, arbitrary: fc.constant(Buffer.from(`${JSON.stringify(userEntry(`cr${n}`, null, "crlf"))}\r`)) },
    { weight: 1, arbitrary: fc.constant(Buffer.from(`   ${JSON.stringify(userEntry(`sp${n}`, null, "spaces"))}`)) },
    { weight: 1, arbitrary: fc.constantFrom(Buffer.from(""), Buffer.from("   \t")) },
    // not entries: invalid JSON, a value that is not an object, a second header, an entry without id
    { weight: 1, arbitrary: fc.constantFrom(Buffer.from("{not json"), Buffer.from("[1,2]"), Buffer.from("42"), Buffer.from(HEADER_JSON)) },
    { weight: 1, arbitrary: fc.constant(Buffer.from(JSON.stringify({ type: "message", parentId: null, message: { role: "user", content: "no id" } }))) },
  );

/** the chunk's end: a last line with its "\n", a complete entry without one, or a cut-off line */
const endings = fc.constantFrom("", JSON.stringify(userEntry("last", null, "no newline")), '{"type":"message","id":"cut","mess');

const chunks = fc
  .tuple(fc.integer({ min: 1, max: 120 }), endings, fc.integer({ min: 1, max: 5000 }))
  .chain(([count, ending, linesBefore]) =>
    fc.tuple(fc.tuple(...Array.from({ length: count }, (_, i) => lineKinds(i))), fc.constant(ending), fc.constant(linesBefore)),
  )
  .map(([lines, ending, linesBefore]) => ({ chunk: Buffer.concat([...lines.flatMap((l) => [l, Buffer.from("\n")]), Buffer.from(ending)]), linesBefore }));

/** blocks read at a time: smaller than one line now and then (the block grows), up to the real size */
const blockSizes = fc.oneof(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 4096, max: APPENDED_BLOCK_BYTES }), fc.constant(APPENDED_BLOCK_BYTES));

const plain = (entries: readonly ReadEntry[]): unknown[] => entries.map((e) => ({ entry: e.entry, line: e.line, json: e.json }));

describe("appended lines read piece by piece", () => {
  it("give readAppended's entries, issues, end offset and line count; each entry's bytes are its stored text", () => {
    fc.assert(
      fc.property(chunks, fc.integer({ min: 0, max: 1e9 }), blockSizes, ({ chunk, linesBefore }, offset, blockBytes) => {
        const whole = readAppended(chunk, offset, linesBefore, HEADER_JSON, 3);
        const batches: ReadEntry[][] = [];
        const source = { length: chunk.length, reader: () => bufferReader(chunk) };
        const streamed = streamAppended(
          source,
          offset,
          linesBefore,
          HEADER_JSON,
          3,
          (batch) => {
            // bytes are views of the block read, valid as the batch is handed over: check them now
            for (const e of batch) {
              if (e.bytes !== undefined) expect(e.bytes.toString("utf8")).toBe(e.json);
            }
            batches.push(batch);
          },
          blockBytes,
        );
        const entries = batches.flat();
        expect(plain(entries)).toEqual(plain(whole.entries));
        expect(streamed.issues).toEqual(whole.issues);
        expect(streamed.endOffset).toBe(whole.endOffset);
        expect(streamed.endLines).toBe(whole.endLines);
        expect(streamed.header).toEqual(whole.header);
        expect(streamed.entries).toEqual([]);
        // every line that is valid UTF-8 and ends with its "\n" travels as bytes (the last, unended line may not)
        for (const e of entries) {
          const raw = chunk.toString("latin1").split("\n")[e.line - linesBefore - 1] as string;
          const bytes = Buffer.from(raw.endsWith("\r") ? raw.slice(0, -1) : raw, "latin1");
          if (isUtf8(bytes) && chunk.includes(0x0a, chunk.indexOf(bytes))) expect(e.bytes).toBeDefined();
        }
        // a chunk longer than a piece comes in several batches
        if (chunk.length > 2 * 64 * 1024 && entries.length > 10) expect(batches.length).toBeGreaterThan(1);
      }),
      { numRuns: 60 },
    );
  });
});

describe("an append longer than a piece", () => {
  it("stores every entry and reports issues in readAppended's order: the parse's, then entries without ids, then the tree's", async () => {
    const dir = tempDir();
    const file = path.join(dir, "grown.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a0", null, "first")));
    const store = newStore(dir);
    const first = await store.importFile(file);
    const sessionId = first.sessionId as string;

    // 300 lines of ~1 KiB (five pieces); issues spread over the pieces
    const lines: string[] = [];
    let parent = "a0";
    for (let i = 1; i <= 300; i++) {
      if (i === 40) lines.push(JSON.stringify(userEntry("a0", parent, "a stored id again"))); // duplicate of a stored id
      if (i === 100) lines.push(JSON.stringify({ type: "message", parentId: parent, message: { role: "user", content: "no id" } }));
      if (i === 160) lines.push("{broken");
      if (i === 220) lines.push(JSON.stringify(userEntry("orphan", "nowhere", "missing parent")));
      if (i === 280) lines.push(JSON.stringify(userEntry(`a${i - 10}`, parent, "an id of this append again")));
      const id = `a${i}`;
      lines.push(JSON.stringify(userEntry(id, parent, `line ${i} ${"z".repeat(1000)}`)));
      parent = id;
    }
    fs.appendFileSync(file, `${lines.join("\n")}\n`);
    const events: StoreEvents["entries-added"][] = [];
    store.on("entries-added", (e) => events.push(e));
    const report = await store.importFile(file);
    expect(report.status).toBe("appended");
    expect(report.bytesRead).toBeGreaterThan(5 * 64 * 1024);
    const lineOf = (index: number): number => 3 + index; // the header and a0 are lines 1 and 2
    expect(report.issues.map((i) => `${i.line}:${i.kind}`)).toEqual([
      `${lineOf(lines.indexOf("{broken"))}:invalid-json`,
      `${lineOf(lines.findIndex((l) => l.includes("no id")))}:missing-id`,
      `${lineOf(lines.findIndex((l) => l.includes("a stored id again")))}:duplicate-id`,
      `${lineOf(lines.findIndex((l) => l.includes('"orphan"')))}:missing-parent`,
      `${lineOf(lines.findIndex((l) => l.includes("an id of this append again")))}:duplicate-id`,
    ]);
    const stored = 1 + 300 + 3; // a0, the 300, the duplicate, the orphan, the repeated id
    expect(report.entriesAdded).toBe(stored - 1);
    expect(store.getSession(sessionId)?.entryCount).toBe(stored);
    // the event carries every entry of the append, in file order, across the pieces
    expect(events).toHaveLength(1);
    const added = (events[0] as StoreEvents["entries-added"]).entries as SessionEntry[];
    expect(added.map((e) => e.id)).toEqual(
      lines.filter((l) => l.startsWith("{") && l !== "{broken" && l.includes('"id"')).map((l) => (JSON.parse(l) as { id: string }).id),
    );
    // the stored text of every entry is its line
    const texts = store.db
      .prepare("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? AND e.seq > 0 ORDER BY e.seq")
      .pluck()
      .all(sessionId);
    expect(texts).toEqual(lines.filter((l) => l !== "{broken" && l.includes('"id"')));
  });
});
