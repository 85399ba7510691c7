/**
 * Store benchmark (`pnpm bench store`): import MB/s and entries/s, reopen + leaf context, and FTS
 * query latency, each next to the in-memory way of doing the same from the JSONL file.
 *
 *   parse            read the file + parseSessionText (core's lenient parser)
 *   parse+context    parse + migrate + index + buildSessionContext of the leaf (what opening a file costs)
 *   import           SessionStore.importFile into a fresh database (entries durable, skeleton ready)
 *   + search index   indexing the entries for FTS (runs in the background after an import)
 *   reopen+context   open the database, getContextEntries(leaf), buildSessionContext
 *   FTS              store.search (limit 50), median over several queries
 *   skeleton         getSkeleton: one row per entry (what the tree view draws)
 *
 * Targets (issue 3): reopen+context >= 20x faster than parse+context; import <= 2x parse; FTS < 50 ms.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIndex, buildSessionContext, defaultLeafId, migrateSession, parseSessionText } from "@bonsai/core";
import { generateSession, markdownTable, median, peakRssMb, writeSessionJsonl } from "@bonsai/testkit";
import { openStore } from "../src/index";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.resolve(here, "../../../../shared/fixtures");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-store-bench-"));
const GENERATED = Number(process.env.BONSAI_BENCH_ENTRIES ?? 100_000);

interface Timed {
  wall: number;
  cpu: number;
}

function time(fn: () => void): Timed {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

async function timeAsync(fn: () => Promise<unknown>): Promise<Timed> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

function best(runs: Timed[]): Timed {
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
}

const f1 = (n: number): string => n.toFixed(1);
const f0 = (n: number): string => Math.round(n).toLocaleString("en-US");

interface Row {
  name: string;
  mb: number;
  entries: number;
  parse: Timed;
  parseContext: Timed;
  importT: Timed;
  index: Timed;
  reopen: Timed;
  fts: number;
  ftsWorst: number;
  skeleton: Timed;
  contextMessages: number;
}

async function benchFile(name: string, file: string, repeats: number, queries: string[]): Promise<Row> {
  const bytes = fs.statSync(file).size;
  // in memory: parse, then parse + migrate + index + context of the leaf
  const parseRuns: Timed[] = [];
  const ctxRuns: Timed[] = [];
  let entries = 0;
  let contextMessages = 0;
  for (let i = 0; i < repeats; i++) {
    parseRuns.push(time(() => void parseSessionText(fs.readFileSync(file, "utf8"))));
    ctxRuns.push(
      time(() => {
        const parsed = parseSessionText(fs.readFileSync(file, "utf8"));
        if (!parsed.header) throw new Error(`${file} is not a session`);
        migrateSession(parsed.header, parsed.entries);
        const index = buildIndex(parsed.entries);
        const ctx = buildSessionContext(parsed.entries, defaultLeafId(parsed.entries), index);
        entries = parsed.entries.length;
        contextMessages = ctx.messages.length;
      }),
    );
  }
  // the store: import into a fresh database each time
  const importRuns: Timed[] = [];
  const indexRuns: Timed[] = [];
  let db = "";
  let sessionId = "";
  for (let i = 0; i < repeats; i++) {
    db = path.join(work, `${name.replace(/\W+/g, "_")}-${i}.db`);
    const store = openStore({ path: db });
    importRuns.push(
      await timeAsync(async () => {
        sessionId = (await store.importFile(file)).sessionId as string;
      }),
    );
    indexRuns.push(time(() => void store.indexSearch()));
    store.db.pragma("wal_checkpoint(TRUNCATE)");
    store.close();
  }
  // reopen + leaf context
  const reopenRuns: Timed[] = [];
  let check = 0;
  for (let i = 0; i < Math.max(5, repeats); i++) {
    reopenRuns.push(
      time(() => {
        const store = openStore({ path: db });
        const ctx = buildSessionContext(store.getContextEntries(sessionId));
        check = ctx.messages.length;
        store.close();
      }),
    );
  }
  if (check !== contextMessages) throw new Error(`${name}: store context has ${check} messages, in-memory ${contextMessages}`);
  // FTS, and the tree skeleton (one row per entry, what the explorer draws)
  // (a fresh store each time: the store keeps recent skeletons in memory, this measures building one)
  const skeletonRuns: Timed[] = [];
  for (let i = 0; i < 3; i++) {
    const fresh = openStore({ path: db });
    skeletonRuns.push(time(() => void fresh.getSkeleton(sessionId)));
    fresh.close();
  }
  const store = openStore({ path: db });
  const perQuery: number[] = [];
  for (const q of queries) {
    store.search(q, { limit: 50 });
    const runs: number[] = [];
    for (let i = 0; i < 7; i++) runs.push(time(() => void store.search(q, { limit: 50 })).wall);
    perQuery.push(median(runs));
  }
  store.close();
  return {
    name,
    mb: bytes / 1e6,
    entries,
    parse: best(parseRuns),
    parseContext: best(ctxRuns),
    importT: best(importRuns),
    index: best(indexRuns),
    reopen: best(reopenRuns),
    fts: median(perQuery),
    ftsWorst: Math.max(...perQuery),
    skeleton: best(skeletonRuns),
    contextMessages,
  };
}

const QUERIES = ["error", "function", "session tree", "compact*", '"read the file"', "packages/coding-agent", "bash", "zzzznotthere"];

const rows: Row[] = [];
for (const f of ["before-compaction.jsonl", "large-session.jsonl"]) {
  const file = path.join(fixtures, f);
  if (fs.existsSync(file)) rows.push(await benchFile(`fixture ${f}`, file, 5, QUERIES));
  else console.log(`(skipped ${f}: ${fixtures} not found)`);
}
const genFile = path.join(work, `generated-${GENERATED}.jsonl`);
await writeSessionJsonl(genFile, generateSession({ entries: GENERATED, seed: 2026 }));
rows.push(await benchFile(`generated ${f0(GENERATED)} entries`, genFile, GENERATED >= 50_000 ? 2 : 3, QUERIES));

console.log(
  markdownTable(
    ["session", "file", "entries", "parse (ms)", "import (ms)", "import / parse", "import MB/s", "import entries/s", "+ search index (ms)"],
    rows.map((r) => [
      r.name,
      `${f1(r.mb)} MB`,
      f0(r.entries),
      `${f0(r.parse.wall)} (CPU ${f0(r.parse.cpu)})`,
      `${f0(r.importT.wall)} (CPU ${f0(r.importT.cpu)})`,
      `${(r.importT.wall / r.parse.wall).toFixed(2)}x (CPU ${(r.importT.cpu / r.parse.cpu).toFixed(2)}x)`,
      f1(r.mb / (r.importT.wall / 1000)),
      f0(r.entries / (r.importT.wall / 1000)),
      `${f0(r.index.wall)} (CPU ${f0(r.index.cpu)})`,
    ]),
  ),
);
console.log();
console.log(
  markdownTable(
    ["session", "parse+context (ms)", "reopen+context (ms)", "speed-up", "context messages", "FTS median (ms)", "FTS slowest query (ms)", "skeleton (ms)"],
    rows.map((r) => [
      r.name,
      `${f0(r.parseContext.wall)} (CPU ${f0(r.parseContext.cpu)})`,
      `${f1(r.reopen.wall)} (CPU ${f1(r.reopen.cpu)})`,
      `${(r.parseContext.wall / r.reopen.wall).toFixed(1)}x (CPU ${(r.parseContext.cpu / r.reopen.cpu).toFixed(1)}x)`,
      f0(r.contextMessages),
      f1(r.fts),
      f1(r.ftsWorst),
      `${f0(r.skeleton.wall)} (CPU ${f0(r.skeleton.cpu)})`,
    ]),
  ),
);
const big = rows[rows.length - 1] as Row;
const verdict = (ok: boolean): string => (ok ? "met" : "MISSED");
console.log(
  `\ntargets on ${big.name}: reopen+context ${(big.parseContext.wall / big.reopen.wall).toFixed(1)}x >= 20x ${verdict(big.parseContext.wall / big.reopen.wall >= 20)}; ` +
    `import ${(big.importT.wall / big.parse.wall).toFixed(2)}x <= 2x parse ${verdict(big.importT.wall / big.parse.wall <= 2)}; ` +
    `FTS slowest ${f1(big.ftsWorst)} ms < 50 ms ${verdict(big.ftsWorst < 50)}; peak RSS ${f0(peakRssMb())} MB`,
);
fs.rmSync(work, { recursive: true, force: true });
