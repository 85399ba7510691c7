/**
 * Search in scripts written without spaces (Chinese, Japanese, Thai): words inside sentences are
 * found through the trigram index, short words through a bounded scan, mixed with ordinary words;
 * a database from before the trigram index finds them once its backfill has run.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "../src/index";
import { isSubstringTerm, parseQuery, routeTerms } from "../src/search-text";
import { HEADER, line, newStore, tempDir, userEntry } from "./support";

const CODEX = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real/codex/ta93abe__me__1b_d3b5f272f9_0_full.jsonl");
const SKIP_CODEX = fs.existsSync(CODEX) ? false : `real Codex session not found at ${CODEX}: skipped`;

const SENTENCES = [
  "我们今天需要把数据库迁移到新的服务器上", // Chinese: "migrate the database to the new server"
  "กรุณาย้ายฐานข้อมูลไปยังเซิร์ฟเวอร์ใหม่ก่อนวันศุกร์", // Thai: "please move the database to the new server before Friday"
  "sveltia のマイグレーションを進めてください", // Japanese
  "Run the migration of the 数据库 tonight", // mixed
  "数据库数据库数据库 appears three times here",
  "nothing to see in this one",
];

function sessionFile(dir: string, id = HEADER.id, texts = SENTENCES): string {
  const file = path.join(dir, `${id}.jsonl`);
  let text = line({ ...HEADER, id });
  texts.forEach((t, i) => (text += line(userEntry(`${id}-${i}`, i === 0 ? null : `${id}-${i - 1}`, t, i + 1))));
  fs.writeFileSync(file, text);
  return file;
}

const ids = (hits: { entryId: string }[]): string[] => hits.map((h) => h.entryId).sort();
const e = (i: number): string => `${HEADER.id}-${i}`;

describe("search in every script", () => {
  it("routes terms by script: unspaced scripts to substrings, short ones to the scan, the rest to words", () => {
    expect(["マイグレーション", "数据库", "ฐานข้อมูล", "마이그레이션을", "DB迁移"].every(isSubstringTerm)).toBe(true);
    expect(["migration", "café", "Привет", "tokeni*"].some(isSubstringTerm)).toBe(false);
    const routed = routeTerms(parseQuery('migration 数据库 迁 "新的服务器" tok*'));
    expect(routed.words.map((t) => t.text)).toEqual(["migration", "tok"]);
    expect(routed.trigrams.map((t) => t.text)).toEqual(["数据库", "新的服务器"]);
    expect(routed.short.map((t) => t.text)).toEqual(["迁"]);
  });

  it("finds Chinese, Japanese and Thai words inside sentences, with the word marked in the snippet", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    await store.importFile(sessionFile(dir));

    const japanese = store.search("マイグレーション");
    expect(ids(japanese)).toEqual([e(2)]);
    expect(japanese[0]?.snippet).toBe("sveltia の[マイグレーション]を進めてください");
    expect(ids(store.search("迁移到新"))).toEqual([e(0)]);
    const thai = store.search("ฐานข้อมูล");
    expect(ids(thai)).toEqual([e(1)]);
    expect(thai[0]?.snippet).toContain("[ฐานข้อมูล]");
    expect(ids(store.search("เซิร์ฟเวอร์"))).toEqual([e(1)]);
    // the word index still answers whole words; the whole run of CJK is still found
    expect(ids(store.search("migration"))).toEqual([e(3)]);
    expect(ids(store.search("我们今天需要把数据库迁移到新的服务器上"))).toEqual([e(0)]);
    expect(store.search("マイグレーションX")).toEqual([]);
    // only text with such a script is in the trigram index (no other text can match its terms)
    expect(store.db.prepare("SELECT count(*) FROM entries_trigram_docsize").pluck().get()).toBe(SENTENCES.length - 1);
  });

  it("ranks substring matches by bm25 and answers mixed queries (every term required)", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    await store.importFile(sessionFile(dir));

    const db = store.search("数据库");
    expect(ids(db)).toEqual([e(0), e(3), e(4)]);
    expect(db[0]?.entryId).toBe(e(4)); // three occurrences rank first
    expect(db.map((h) => h.rank)).toEqual([...db.map((h) => h.rank)].sort((a, b) => a - b));

    const mixed = store.search("migration 数据库");
    expect(ids(mixed)).toEqual([e(3)]);
    expect(mixed[0]?.snippet).toBe("Run the [migration] of the [数据库] tonight");
    expect(store.search("weather 数据库")).toEqual([]);
    expect(ids(store.search("数据库 新的服务器"))).toEqual([e(0)]);
    expect(ids(store.search("数据库", { sessionId: "another" }))).toEqual([]);
  });

  it("finds one- and two-character words by a scan of the newest entries, alone or inside other matches", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    await store.importFile(sessionFile(dir));

    const two = store.search("迁移");
    expect(ids(two)).toEqual([e(0)]);
    expect(two[0]?.snippet).toContain("[迁移]");
    expect(ids(store.search("库"))).toEqual([e(0), e(3), e(4)]);
    expect(store.search("库")[0]?.entryId).toBe(e(4)); // most occurrences first
    expect(ids(store.search("库", { sessionId: HEADER.id }))).toEqual([e(0), e(3), e(4)]);
    expect(ids(store.search("migration 库"))).toEqual([e(3)]);
    expect(ids(store.search("数据库 迁移"))).toEqual([e(0)]);
    expect(store.search("迁 weather")).toEqual([]);
    expect(store.search("%_")).toEqual([]); // LIKE's wildcards are literal
  });

  it("a database from before the trigram index finds those words once the backfill has indexed its entries", async () => {
    const dir = tempDir();
    const file = path.join(dir, "old.db");
    const old = openStore({ path: file, backgroundIndexing: false });
    await old.importFile(sessionFile(dir));
    old.indexSearch();
    // the database as a build before migration 18 left it
    old.db.exec("DROP TABLE entries_trigram; DROP TABLE trigram_backfill");
    old.db.pragma("user_version = 17");
    old.close();

    const store = openStore({ path: file, backgroundIndexing: false });
    expect(store.unindexedCount()).toBe(SENTENCES.length); // all of them lack the trigram index
    expect(store.unindexedCount(HEADER.id)).toBe(SENTENCES.length);
    expect(ids(store.search("migration", { indexLimit: 0 }))).toEqual([e(3)]); // words are found meanwhile
    expect(store.search("マイグレーション", { indexLimit: 0 })).toEqual([]);
    // an entry written meanwhile is indexed in both at once, the old ones by the backfill
    const late = store.appendEntry(HEADER.id, { type: "message", message: { role: "user", content: "新しいマイグレーション", timestamp: 9 } }).id;
    expect(ids(store.search("マイグレーション", { indexLimit: 1 }))).toEqual([late]);
    expect(store.unindexedCount()).toBe(SENTENCES.length);
    expect(ids(store.search("マイグレーション"))).toEqual([e(2), late].sort());
    expect(store.unindexedCount()).toBe(0);
    expect(store.db.prepare("SELECT count(*) FROM trigram_backfill").pluck().get()).toBe(0);
    // nothing was indexed twice: each entry is one hit
    expect(store.search("数据库").length).toBe(3);
    store.close();
  });

  it.skipIf(SKIP_CODEX)("finds マイグレーション inside the sentence of the real Codex session", async () => {
    const store = newStore();
    await store.importFile(CODEX);
    // every line of the file that holds the word (two user messages, two user-message events) is a hit
    const lines = fs.readFileSync(CODEX, "utf8").split("\n").filter((l) => l.includes("マイグレーション"));
    expect(lines.length).toBe(4);
    const hits = store.search("マイグレーション");
    expect(hits.length).toBe(lines.length);
    for (const h of hits) expect(h.snippet).toMatch(/^(user: )?sveltia の\[マイグレーション\]を進めて$/);
    expect(store.search("進めて").length).toBe(4);
  });
});
