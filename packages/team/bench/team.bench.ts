/**
 * Team archive benchmark (`pnpm bench team`): a private PostgreSQL server (packages/testkit), an
 * archive of 10,000 sessions and 2,000,000 entries generated inside it (generate-archive.ts), and two
 * `bonsai team serve` processes of the built CLI on that one database. Everything is measured through
 * HTTP as a member of 3 of the 10 projects:
 *
 *   list             the first page of the session list (200 rows)                target < 200 ms
 *   deep page        a page of 200 halfway down the member's list, and the whole list by pages of 1,000
 *   search p95       a set of queries: words, quoted phrases, a prefix, Chinese    target < 300 ms
 *   big session      a 100,000-entry session fetched whole as JSONL                target < 1.5 s
 *   load             50 clients for 60 s over both servers (list, search, session) no error, p99 < 500 ms
 *                    (and the same over two servers started with --cache-mb 0, shown beside it)
 *   push             a 100,000-entry session pushed, then 1,000 appended lines: bytes sent and time
 *   sizing           bytes per entry in the entries table and its indexes (pg_total_relation_size)
 *
 * Sizes: BONSAI_BENCH_TEAM_SESSIONS, BONSAI_BENCH_TEAM_ENTRIES, BONSAI_BENCH_TEAM_SECONDS (load duration).
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { markdownTable, median } from "@bonsai/testkit";
import { startPostgres } from "@bonsai/testkit/postgres";
import { serveArchive } from "./serve-archive";
import { addPerson, addProject, ArchiveClient, grant, openArchiveDatabase, pushSession, type PushSource } from "../src/index";
import { generateArchive } from "./generate-archive";

const SESSIONS = Number(process.env.BONSAI_BENCH_TEAM_SESSIONS ?? 10_000);
const ENTRIES = Number(process.env.BONSAI_BENCH_TEAM_ENTRIES ?? 2_000_000);
const BIG = Math.min(100_000, Math.floor(ENTRIES / 2));
const LOAD_SECONDS = Number(process.env.BONSAI_BENCH_TEAM_SECONDS ?? 60);
const CLIENTS = 50;
const QUERIES = ["deploy", "migration failed", "compaction summary", '"compaction summary"', "time*", "rollback database", '"rollback database"', "数据库迁移", "テスト"];

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (n: number): string => `${n.toFixed(0)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** the servers' request logs, kept so that a load error can be traced to its cause */
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-team-bench-"));

const serve = (database: string, name: string, extraArgs: string[] = []) => serveArchive(database, path.join(logDir, `${name}.log`), extraArgs);

interface LoadResult {
  times: number[];
  errors: number;
  errorKinds: Map<string, number>;
}

/** CLIENTS clients for LOAD_SECONDS, half on each server, each asking in turn for the list, a search and a short session */
async function load(one: ArchiveClient, other: ArchiveClient, smallSessions: readonly string[]): Promise<LoadResult> {
  const result: LoadResult = { times: [], errors: 0, errorKinds: new Map() };
  const until = performance.now() + LOAD_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      const client = c % 2 ? other : one;
      for (let i = 0; performance.now() < until; i++) {
        const kind = (c + i) % 3;
        try {
          result.times.push(
            await timed(() =>
              kind === 0 ? client.sessions({ limit: 200 }) : kind === 1 ? client.search(QUERIES[(c + i) % QUERIES.length] as string) : client.sessionJsonl(smallSessions[(c * 7 + i) % smallSessions.length] as string),
            ),
          );
        } catch (error) {
          result.errors += 1;
          const message = error instanceof Error ? error.message.slice(0, 120) : String(error);
          result.errorKinds.set(message, (result.errorKinds.get(message) ?? 0) + 1);
        }
      }
    }),
  );
  return result;
}

const loadFigure = (r: LoadResult): string => `${r.times.length.toLocaleString("en-US")}, ${r.errors}, ${ms(percentile(r.times, 50))} / ${ms(percentile(r.times, 99))}`;

/** A client that counts the request bytes it sends. */
class CountingClient extends ArchiveClient {
  sentBytes = 0;
  override async call(method: string, p: string, body?: unknown): Promise<unknown> {
    if (body !== undefined) this.sentBytes += Buffer.byteLength(JSON.stringify(body));
    return super.call(method, p, body);
  }
}

function generatedSource(entries: unknown[]): PushSource {
  return {
    session: (sessionId) => ({ sessionId, agent: "pi", title: "push bench", cwd: "/work/push", header: JSON.stringify({ type: "session", version: 3, id: sessionId }), startedAt: null }),
    entries: () => entries,
  };
}

function entry(i: number): unknown {
  const id = i.toString(16).padStart(8, "0");
  return { type: "message", id, parentId: i === 0 ? null : (i - 1).toString(16).padStart(8, "0"), timestamp: "2026-01-01T00:00:00Z", message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `step ${i}: ran the tests, fixed the parser and moved on to the next file` }] } };
}

const cluster = await startPostgres();
const servers: ChildProcess[] = [];
try {
  const database = cluster.createDatabase("teambench");
  const db = await openArchiveDatabase(database);
  const admin = await addPerson(db.pool, "admin", "admin");
  const member = await addPerson(db.pool, "member", "member");
  const projectIds: number[] = [];
  for (let i = 0; i < 10; i++) projectIds.push(await addProject(db.pool, `project-${i}`));
  for (const name of ["project-0", "project-1", "project-2"]) await grant(db.pool, "member", name);

  console.log(`generating ${SESSIONS.toLocaleString("en-US")} sessions and ${ENTRIES.toLocaleString("en-US")} entries in PostgreSQL…`);
  const genStarted = performance.now();
  const archive = await generateArchive(db.pool, { sessions: SESSIONS, entries: ENTRIES, bigEntries: BIG, projectIds, pushedBy: admin.personId, onProgress: (line) => console.log(line) });
  const genSeconds = (performance.now() - genStarted) / 1000;

  const size = (await db.pool.query<{ table: string; total: string; rows: string }>(
    "SELECT pg_relation_size('entries') AS table, pg_total_relation_size('entries') AS total, (SELECT count(*) FROM entries) AS rows",
  )).rows[0] as { table: string; total: string; rows: string };
  const rows = Number(size.rows);
  const perEntry = Number(size.total) / rows;
  const perEntryTable = Number(size.table) / rows;

  const [a, b] = await Promise.all([serve(database, "server-a"), serve(database, "server-b")]);
  servers.push(a.child, b.child);
  const memberA = new ArchiveClient(a.url, member.token);
  const memberB = new ArchiveClient(b.url, member.token);
  const adminA = new ArchiveClient(a.url, admin.token);
  await memberA.me();

  const listTimes: number[] = [];
  for (let i = 0; i < 20; i++) listTimes.push(await timed(() => memberA.sessions({ limit: 200 })));
  // a page of 200 deep in the list (keyset paging: it should cost what the first page does); and every session, a page of 1,000 at a time, as `ls --archive` reads them
  const cursors: string[] = [];
  const allStarted = performance.now();
  for await (const s of memberA.allSessions()) cursors.push(s.cursor);
  const allTime = performance.now() - allStarted;
  const readable = cursors.length;
  const deepAt = Math.floor(readable / 2);
  const deepCursor = cursors[deepAt];
  const deepTimes: number[] = [];
  for (let i = 0; i < 20 && deepCursor !== undefined; i++) deepTimes.push(await timed(() => memberA.sessions({ limit: 200, after: deepCursor })));
  const searchTimes: number[] = [];
  const perQuery: string[] = [];
  for (const q of QUERIES) {
    // the first run of a query reads its index and table pages into PostgreSQL's cache: shown, not in the p95
    const first = await timed(() => memberB.search(q, { limit: 50 }));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(await timed(() => memberB.search(q, { limit: 50 })));
    searchTimes.push(...times);
    perQuery.push(`${q} ${ms(median(times))} (first run ${ms(first)})`);
  }
  const bigTimes: number[] = [];
  let bigBytes = 0;
  for (let i = 0; i < 3; i++) {
    bigTimes.push(
      await timed(async () => {
        bigBytes = (await adminA.sessionJsonl(archive.bigSession)).jsonl.length;
      }),
    );
  }

  // 50 clients, half on each server, for LOAD_SECONDS: with the servers as started (answers kept), then with two
  // more servers that keep none (--cache-mb 0), so that both are shown
  const smallSessions = (await memberA.sessions({ limit: 200 })).map((s) => s.id);
  const kept = await load(memberA, memberB, smallSessions);
  const [c, d] = await Promise.all([serve(database, "server-c", ["--cache-mb", "0"]), serve(database, "server-d", ["--cache-mb", "0"])]);
  servers.push(c.child, d.child);
  const [memberC, memberD] = [new ArchiveClient(c.url, member.token), new ArchiveClient(d.url, member.token)];
  // as the first two were by the measures above: their connections opened and each query asked once
  for (const client of [memberC, memberD]) {
    await client.sessions({ limit: 200 });
    for (const q of QUERIES) await client.search(q, { limit: 50 });
  }
  const none = await load(memberC, memberD, smallSessions);
  c.child.kill("SIGTERM");
  d.child.kill("SIGTERM");

  // push: a 100,000-entry session, then 1,000 appended lines
  const pushEntries = Array.from({ length: BIG }, (_, i) => entry(i));
  const pusher = new CountingClient(a.url, member.token);
  let t0 = performance.now();
  const first = await pushSession(generatedSource(pushEntries), "push-bench", { client: pusher, project: "project-0" });
  const firstSeconds = (performance.now() - t0) / 1000;
  const firstBytes = pusher.sentBytes;
  for (let i = BIG; i < BIG + 1000; i++) pushEntries.push(entry(i));
  pusher.sentBytes = 0;
  t0 = performance.now();
  const again = await pushSession(generatedSource(pushEntries), "push-bench", { client: pusher, project: "project-0" });
  const againSeconds = (performance.now() - t0) / 1000;

  const cmd = "pnpm bench team";
  console.log(`\narchive: ${archive.sessions.toLocaleString("en-US")} sessions, ${rows.toLocaleString("en-US")} entries, generated in ${genSeconds.toFixed(0)} s; PostgreSQL ${(await db.pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v}; two \`bonsai team serve\` processes\n`);
  console.log(
    markdownTable(
      ["measure", "figure", "target", "command"],
      [
        ["first page of the session list (200 rows), median / p95", `${ms(median(listTimes))} / ${ms(percentile(listTimes, 95))}`, "< 200 ms", cmd],
        [`a page of the session list (200 rows) after ${deepAt.toLocaleString("en-US")} sessions, median / p95`, deepTimes.length > 0 ? `${ms(median(deepTimes))} / ${ms(percentile(deepTimes, 95))}` : "-", "as the first page", cmd],
        [`every session the member may read (${readable.toLocaleString("en-US")}), pages of 1,000`, ms(allTime), "", cmd],
        [`search p95 over the ${QUERIES.length} queries below x 5, after a first run of each`, ms(percentile(searchTimes, 95)), "< 300 ms", cmd],
        [`${archive.bigEntries.toLocaleString("en-US")}-entry session as JSONL (${(bigBytes / 1e6).toFixed(1)} MB), median`, ms(median(bigTimes)), "< 1.5 s (the JSONL body, streamed; the page's open: open-in-page.bench.ts)", cmd],
        [`${CLIENTS} clients for ${LOAD_SECONDS} s over both servers (as started: answers kept): requests, errors, p50 / p99`, loadFigure(kept), "no error, p99 < 500 ms", cmd],
        [`the same over two more servers that keep no answer (--cache-mb 0): requests, errors, p50 / p99`, loadFigure(none), "", cmd],
        [`first push of ${BIG.toLocaleString("en-US")} entries: sent, bytes, time`, `${first.sent.toLocaleString("en-US")}, ${(firstBytes / 1e6).toFixed(1)} MB, ${firstSeconds.toFixed(1)} s`, "", cmd],
        ["push of 1,000 appended lines: sent, bytes, time", `${again.sent.toLocaleString("en-US")}, ${(pusher.sentBytes / 1e3).toFixed(0)} kB, ${(againSeconds * 1000).toFixed(0)} ms`, "only those lines", cmd],
        ["entries: bytes per entry, table / table + indexes", `${perEntryTable.toFixed(0)} / ${perEntry.toFixed(0)} B`, "", cmd],
        [`100x on paper (${(rows * 100).toLocaleString("en-US")} entries), table + indexes`, `${((perEntry * rows * 100) / 1e9).toFixed(1)} GB`, "", cmd],
      ],
    ),
  );
  console.log(`\nsearch medians (and first runs): ${perQuery.join(", ")}`);
  for (const [kind, count] of [...kept.errorKinds, ...none.errorKinds]) console.log(`load error x${count}: ${kind}`);
  for (const name of ["server-a", "server-b", "server-c", "server-d"]) {
    const lines = fs.readFileSync(path.join(logDir, `${name}.log`), "utf8").split("\n");
    const bad = lines.filter((line) => line.startsWith("error ") || / (?:[45]\d\d|200-cut) [\d.]+ms /.test(line));
    console.log(`${name}: ${lines.length - 1} log lines, ${bad.length} errors${bad.length > 0 ? `:\n  ${bad.slice(0, 20).join("\n  ")}` : ""}`);
  }
  console.log(`server logs: ${logDir}`);
  const missed = [
    percentile(listTimes, 50) >= 200 && "list",
    percentile(searchTimes, 95) >= 300 && "search",
    median(bigTimes) >= 1500 && "big session",
    (kept.errors > 0 || percentile(kept.times, 99) >= 500) && "load",
    again.sent !== 1000 && "incremental push",
  ].filter(Boolean);
  if (missed.length > 0) console.log(`\nmissed: ${missed.join(", ")}`);
  await db.close();
} finally {
  for (const child of servers) child.kill("SIGTERM");
  cluster.stop();
}
