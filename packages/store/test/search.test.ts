import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InlineStoreJobs, openStore, toFtsQuery } from "../src/index";
import { BEFORE_COMPACTION, HAVE_FIXTURES, HEADER, LARGE_SESSION, line, newStore, tempDir, toolResultEntry, userEntry } from "./support";

describe("search", () => {
  it("finds message text, tool names and file paths across sessions, with snippets", async () => {
    const dir = tempDir();
    const a = path.join(dir, "a.jsonl");
    const b = path.join(dir, "b.jsonl");
    fs.writeFileSync(
      a,
      line(HEADER) +
        line(userEntry("u1", null, "Please refactor the tokenizer module", 1)) +
        line({
          type: "message",
          id: "as1",
          parentId: "u1",
          timestamp: "2025-01-01T00:00:02.000Z",
          message: {
            role: "assistant",
            content: [{ type: "toolCall", id: "c1", name: "edit", arguments: { path: "src/lexer/tokenizer.ts", oldText: "a", newText: "b" } }],
            api: "x",
            provider: "p",
            model: "m",
            usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
            stopReason: "toolUse",
            timestamp: 2,
          },
        }) +
        line(toolResultEntry("t1", "as1", "edit", "Successfully replaced text", 3)),
    );
    fs.writeFileSync(b, line({ ...HEADER, id: "other-session" }) + line(userEntry("x1", null, "unrelated: the weather is nice", 1)));
    const store = newStore(dir);
    await store.importPaths([dir]);

    const text = store.search("tokenizer");
    expect(text.map((h) => h.entryId).sort()).toEqual(["as1", "u1"]);
    const u1 = text.find((h) => h.entryId === "u1")!;
    expect(u1).toMatchObject({ sessionId: HEADER.id, type: "message", role: "user" });
    expect(u1.snippet).toContain("[tokenizer]");

    expect(store.search("edit").map((h) => h.entryId).sort()).toEqual(["as1", "t1"]); // tool names
    expect(store.search("src/lexer/tokenizer.ts").map((h) => h.entryId)).toEqual(["as1"]); // file paths
    expect(store.search("weather").map((h) => h.sessionId)).toEqual(["other-session"]);
    expect(store.search("weather", { sessionId: HEADER.id })).toEqual([]);
    expect(store.search("tokeni*").length).toBe(2); // prefix
    expect(store.search('"refactor the tokenizer"').map((h) => h.entryId)).toEqual(["u1"]); // phrase
    // operators and quotes in user input are literal text, never a syntax error
    for (const q of ['AND OR NOT', '"unbalanced', "col:on", "(paren", "a*b", "NEAR(", "-x", "^start"]) expect(() => store.search(q)).not.toThrow();
    expect(store.search("   ")).toEqual([]);
  });

  it("indexes at most indexLimit pending entries before it looks; the index job indexes the rest in the background", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    let text = line(HEADER);
    for (let i = 0; i < 1200; i++) text += line(userEntry(`e${i}`, i === 0 ? null : `e${i - 1}`, i === 1199 ? "the last quokkaword" : `prompt ${i} quokkaword`, i));
    fs.writeFileSync(file, text);
    const importing = openStore({ path: path.join(dir, "bonsai.db"), backgroundIndexing: false }); // as `bonsai import` opens it
    await importing.importFile(file);
    importing.close();
    const store = newStore(dir);
    expect(store.unindexedCount()).toBe(1200);

    expect(store.search("quokkaword", { indexLimit: 0 })).toEqual([]);
    expect(store.unindexedCount()).toBe(1200);
    const some = store.search("quokkaword", { indexLimit: 300, limit: 500 });
    expect(some.map((h) => h.entryId).sort()).toEqual(Array.from({ length: 300 }, (_, i) => `e${i}`).sort()); // the first 300, in file order
    expect(store.unindexedCount()).toBe(900);
    expect(store.unindexedCount(HEADER.id)).toBe(900);
    expect(store.unindexedCount("another-session")).toBe(0);

    const jobs = new InlineStoreJobs(store);
    expect(await jobs.call("index")).toBe(900);
    for (let turn = 0; turn < 10 && store.unindexedCount() > 0; turn++) await new Promise((r) => setImmediate(r));
    expect(store.unindexedCount()).toBe(0);
    expect(store.search("last quokkaword", { indexLimit: 0 }).map((h) => h.entryId)).toEqual(["e1199"]);
    expect(await jobs.call("index")).toBe(0);
  });

  it("indexes in the background after writes, unless opened without background indexing (a short-lived command)", async () => {
    const dir = tempDir();
    for (const name of ["a", "b"]) fs.writeFileSync(path.join(dir, `${name}.jsonl`), line({ ...HEADER, id: `sess-${name}` }) + line(userEntry(`${name}1`, null, `hello ${name}`, 1)));
    const turns = async () => {
      for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    };
    const quiet = openStore({ path: path.join(dir, "quiet.db"), backgroundIndexing: false });
    await quiet.importPaths([dir]);
    await turns();
    expect(quiet.unindexedCount()).toBe(2);
    quiet.resumeIndexing();
    await turns();
    expect(quiet.unindexedCount()).toBe(2);
    expect(quiet.search("hello").length).toBe(2); // a search still indexes what it needs
    quiet.close();
    const busy = newStore(dir, "busy.db");
    await busy.importPaths([dir]);
    await turns();
    expect(busy.unindexedCount()).toBe(0);
  });

  it("ranks entries where the words stand next to each other first, then those where they are near, then the rest", async () => {
    const dir = tempDir();
    const filler = (n: number): string => Array.from({ length: n }, (_, i) => `filler${i}`).join(" ");
    // bm25 alone prefers "far": both words often, in a short entry
    const far = `context context context context ${filler(12)} overflow overflow overflow overflow`;
    const near = `${filler(40)} the context window had an overflow today ${filler(40)}`;
    const adjacent = `${filler(60)} a context overflow happened ${filler(60)}`;
    fs.writeFileSync(
      path.join(dir, "a.jsonl"),
      line(HEADER) + line(userEntry("far", null, far, 1)) + line(userEntry("near", "far", near, 2)) + line(userEntry("adjacent", "near", adjacent, 3)) + line(userEntry("reversed", "adjacent", `${filler(60)} overflow context ${filler(60)}`, 4)),
    );
    const store = newStore(dir);
    await store.importPaths([dir]);
    const order = (q: string): string[] => store.search(q).map((h) => h.entryId);
    expect(order("context overflow")).toEqual(["adjacent", "near", "reversed", "far"]);
    // without the closeness tiers bm25 alone ranks "far" first: the case this guards
    expect(store.search("context").map((h) => h.entryId)[0]).toBe("far");
    // the rank says the same: lower is better
    const ranks = store.search("context overflow").map((h) => h.rank);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(order('"context overflow"')).toEqual(["adjacent"]);
    expect(order("context overf*")).toEqual(["adjacent", "near", "reversed", "far"]);
  });

  it("searches text with any character as text, never failing", async () => {
    const dir = tempDir();
    const texts = ["match the regex .* here", "a key:* with a colon", 'quoted "words" and a back\\slash', "中文的上下文溢出了", "nothing special"];
    fs.writeFileSync(path.join(dir, "a.jsonl"), line(HEADER) + texts.map((t, i) => line(userEntry(`t${i}`, i === 0 ? null : `t${i - 1}`, t, i + 1))).join(""));
    const store = newStore(dir);
    await store.importPaths([dir]);
    for (const q of [":*", ".*", "\u0000", "a\u0000b", '"', '""', "\\", "'", "*", "**", "中文", "\"上下文溢出\"", "key:*", "(", "NEAR(a b)"]) expect(() => store.search(q), q).not.toThrow();
    expect(store.search("regex").map((h) => h.entryId)).toEqual(["t0"]);
    expect(store.search('"上下文溢出"').map((h) => h.entryId)).toEqual(["t3"]);
    // Chinese words typed apart in a phrase are found where they stand next to each other, as the script writes them
    expect(store.search('"上下文 溢出"').map((h) => h.entryId)).toEqual(["t3"]);
    expect(store.search('"中文 溢出"').map((h) => h.entryId)).toEqual([]);
    expect(store.search("key:*").map((h) => h.entryId)).toEqual(["t1"]);
  });

  it("builds safe FTS5 expressions", () => {
    expect(toFtsQuery("foo bar")).toBe('"foo" AND "bar"');
    expect(toFtsQuery("pre*")).toBe('"pre"*');
    expect(toFtsQuery('say "hello world"')).toBe('"say" AND "hello world"');
    expect(toFtsQuery('a"b')).toBe('"a""b"');
    expect(toFtsQuery("")).toBeNull();
  });

  it.skipIf(!HAVE_FIXTURES)("searches the fixtures", async () => {
    const store = newStore();
    await store.importFile(BEFORE_COMPACTION);
    await store.importFile(LARGE_SESSION);
    const hits = store.search("compaction", { limit: 10 });
    expect(hits.length).toBe(10);
    for (const h of hits) expect(h.snippet.toLowerCase()).toContain("[compaction");
    expect(store.search("bash").length).toBeGreaterThan(0);
  });
});
