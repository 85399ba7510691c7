/**
 * Search in every script (`pnpm bench search-scripts`): what the trigram index beside the word
 * index costs and gives, on a generated session (BONSAI_BENCH_ENTRIES, default 100,000 entries)
 * where one message in ten also holds a Chinese, Japanese or Thai sentence.
 *
 *   index size       bytes of each FTS index (dbstat), next to the entries' JSON
 *   index time       indexing every entry into the word index only (the trigram table replaced by a
 *                    plain one), into both (what runs after an import), and into the trigram index
 *                    alone (the backfill of a database from before it)
 *   migration        opening a database of the schema before (16): what migration 017 adds to an open
 *   queries          store.search (limit 50), median of 7: words (word index), CJK and Thai words
 *                    (trigram index), two characters (the bounded scan), a mixed query
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SessionEntry } from "@bonsai/core";
import { generateSession, markdownTable, median, writeSessionJsonl } from "@bonsai/testkit";
import { openStore } from "../src/index";

const ENTRIES = Number(process.env.BONSAI_BENCH_ENTRIES ?? 100_000);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-search-scripts-bench-"));

const SENTENCES = ["我们今天需要把数据库迁移到新的服务器上", "sveltia のマイグレーションを進めてください", "กรุณาย้ายฐานข้อมูลไปยังเซิร์ฟเวอร์ใหม่ก่อนวันศุกร์"];

/** one message in ten gets a sentence in an unspaced script at the end of its text */
function plant(entries: SessionEntry[]): void {
  let n = 0;
  for (const e of entries) {
    if (e.type !== "message") continue;
    if (n++ % 10 !== 0) continue;
    const message = (e as { message: { content?: unknown } }).message;
    const sentence = SENTENCES[n % SENTENCES.length] as string;
    if (typeof message.content === "string") message.content = `${message.content}\n${sentence}`;
    else if (Array.isArray(message.content)) message.content.push({ type: "text", text: sentence });
  }
}

function ms(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const f0 = (n: number): string => Math.round(n).toLocaleString("en-US");
const f1 = (n: number): string => n.toFixed(1);

const session = generateSession({ entries: ENTRIES, seed: 2032 });
plant(session.entries);
const file = path.join(work, "generated.jsonl");
await writeSessionJsonl(file, session);
const db = path.join(work, "bonsai.db");

// without the trigram index: the same import and indexing with its table replaced by a plain one
const wordOnlyDb = path.join(work, "word-only.db");
const wordOnly = openStore({ path: wordOnlyDb, backgroundIndexing: false });
wordOnly.db.exec("DROP TABLE entries_trigram; CREATE TABLE entries_trigram (rowid INTEGER PRIMARY KEY, body, paths)");
await wordOnly.importFile(file);
const indexWordOnly = ms(() => void wordOnly.indexSearch());
wordOnly.close();
fs.rmSync(wordOnlyDb, { force: true });

let store = openStore({ path: db, backgroundIndexing: false });
await store.importFile(file);
const indexBoth = ms(() => void store.indexSearch());
const sizes = Object.fromEntries(
  (store.db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all() as { name: string; bytes: number }[]).map((r) => [r.name, r.bytes]),
);
const bytesOf = (prefix: string): number => Object.entries(sizes).reduce((sum, [name, bytes]) => (name.startsWith(prefix) ? sum + bytes : sum), 0);
const wordBytes = bytesOf("entries_fts");
const trigramBytes = bytesOf("entries_trigram");
const jsonBytes = bytesOf("entry_json");

const QUERIES: [string, string][] = [
  ["words (word index)", "function"],
  ["word phrase (word index)", '"read the file"'],
  ["Japanese word (trigram)", "マイグレーション"],
  ["Chinese word (trigram)", "数据库"],
  ["Thai word (trigram)", "ฐานข้อมูล"],
  ["two characters (scan)", "迁移"],
  ["mixed: word + Chinese", "function 数据库"],
  ["absent Chinese word (trigram)", "不存在的词"],
];
const queryRows = QUERIES.map(([what, q]) => {
  const hits = store.search(q, { limit: 50 }).length;
  const runs = Array.from({ length: 7 }, () => ms(() => void store.search(q, { limit: 50 })));
  return [what, q, String(hits), f1(median(runs))];
});
store.db.pragma("wal_checkpoint(TRUNCATE)");

// a database from before the trigram index: the backfill alone, and what the migration adds to an open
store.db.exec("DROP TABLE entries_trigram; DROP TABLE trigram_backfill");
store.db.pragma("user_version = 16");
store.close();
const migrateOpen = ms(() => void (store = openStore({ path: db, backgroundIndexing: false })));
const backfill = ms(() => void store.indexSearch());
store.close();
const reopen = ms(() => openStore({ path: db, backgroundIndexing: false }).close());

console.log(
  markdownTable(
    ["entries", "entries' JSON", "word index", "trigram index", "index, word index only (ms)", "index both (ms)", "trigram backfill alone (ms)", "open with migration 017 (ms)", "open, current (ms)"],
    [[f0(ENTRIES), mb(jsonBytes), mb(wordBytes), mb(trigramBytes), f0(indexWordOnly), f0(indexBoth), f0(backfill), f0(migrateOpen), f0(reopen)]],
  ),
);
console.log();
console.log(markdownTable(["query", "text", "hits", "median (ms)"], queryRows));
fs.rmSync(work, { recursive: true, force: true });
