/**
 * A 100,000-entry archived session opened in the page (`pnpm bench team`): a private PostgreSQL
 * server (packages/testkit), a generated session of 100,000 entries (every entry type, branches,
 * compactions; about 140 MB of JSONL) pushed into it, and two (then three) `bonsai team serve` processes of the
 * built CLI on that one database. The page's `openSession` call is timed over the WebSocket, as the
 * page sends it, until its answer (the packed tree skeleton) is parsed:
 *
 *   first open        the first open in a process that holds no copy of the session: the answer
 *                     PostgreSQL keeps (app/page-open.ts), the copy made behind it      target < 1.5 s
 *   next read         that process's next read (the leaf's entry), waiting for the copy
 *   later opens       the same session opened again in that process (median of 3)     target < 1.5 s
 *   pushing process   the first open in the process that took the push (it warmed the session)
 *   warming           from the push's end until that process kept the answer
 *   cold              a third process after the kept answers were deleted: neither a copy nor
 *                     a kept answer (what every first open took before the answers were kept)
 *
 * Sizes: BONSAI_BENCH_TEAM_OPEN_ENTRIES (default 100,000).
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateSession, markdownTable, median } from "@bonsai/testkit";
import { startPostgres } from "@bonsai/testkit/postgres";
import { serveArchive } from "./serve-archive";
import { WebSocket } from "ws";
import { addPerson, addProject, ArchiveClient, grant, openArchiveDatabase, pushSession } from "../src/index";

const ENTRIES = Number(process.env.BONSAI_BENCH_TEAM_OPEN_ENTRIES ?? 100_000);
const ms = (n: number): string => `${n.toFixed(0)} ms`;
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-team-open-bench-"));

const serve = (database: string, name: string) => serveArchive(database, path.join(logDir, `${name}.log`));

/** A page's WebSocket: `open` times one openSession call from send to its answer parsed. */
async function page(url: string, token: string): Promise<{ open(sessionId: string): Promise<{ ms: number; bytes: number; nodes: number }>; call(method: string, params: unknown): Promise<void>; close(): void }> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  let next = 0;
  const waiting = new Map<number, (data: string) => void>();
  ws.on("message", (data) => {
    const text = String(data);
    const id = (JSON.parse(text) as { id: number }).id;
    waiting.get(id)?.(text);
  });
  const send = async (method: string, params: unknown): Promise<{ text: string; value: unknown }> => {
    next += 1;
    const id = next;
    const text = await new Promise<string>((resolve) => {
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ t: "call", id, method, params }));
    });
    const frame = JSON.parse(text) as { t: string; href?: string; result?: { ok: boolean; value?: unknown; error?: { message: string } } };
    // a large answer is downloaded as its result-at frame names it (ipc's LargeAnswers), gzip-encoded, as the page does
    if (frame.t === "result-at") {
      const body = await (await fetch(new URL(frame.href ?? "", url), { cache: "no-store", headers: { authorization: `Bearer ${token}` } })).text();
      return { text: body, value: JSON.parse(body) as unknown };
    }
    if (!frame.result?.ok) throw new Error(`${method} failed: ${frame.result?.error?.message}`);
    return { text, value: frame.result.value };
  };
  return {
    open: async (sessionId) => {
      const t0 = performance.now();
      const { text, value } = await send("openSession", { sessionId });
      return { ms: performance.now() - t0, bytes: text.length, nodes: (value as { skeleton: { ids: string[] } }).skeleton.ids.length };
    },
    call: async (method, params) => {
      await send(method, params);
    },
    close: () => ws.close(),
  };
}

const cluster = await startPostgres();
const servers: ChildProcess[] = [];
try {
  const database = cluster.createDatabase("teamopen");
  const db = await openArchiveDatabase(database);
  const admin = await addPerson(db.pool, "admin", "admin");
  await addProject(db.pool, "project-0");
  await grant(db.pool, "admin", "project-0");
  const generated = generateSession({ entries: ENTRIES, sessionId: "open-bench" });
  const jsonlBytes = generated.entries.reduce<number>((n, e) => n + Buffer.byteLength(JSON.stringify(e)) + 1, 0);
  const [a, b] = await Promise.all([serve(database, "server-a"), serve(database, "server-b")]);
  servers.push(a.child, b.child);
  console.log(`pushing a generated session of ${ENTRIES.toLocaleString("en-US")} entries (${(jsonlBytes / 1e6).toFixed(0)} MB of JSONL)…`);
  const pushStarted = performance.now();
  await pushSession(
    {
      session: (sessionId) => ({ sessionId, agent: "pi", title: "open bench", cwd: generated.header.cwd, header: JSON.stringify(generated.header), startedAt: generated.header.timestamp }),
      entries: () => generated.entries,
    },
    "open-bench",
    { client: new ArchiveClient(a.url, admin.token), project: "project-0" },
  );
  console.log(`pushed in ${((performance.now() - pushStarted) / 1000).toFixed(0)} s`);

  // the process that took the push warms the session (app/page-open.ts): its copy, and the open answer kept in PostgreSQL
  const warmStarted = performance.now();
  for (;;) {
    const kept = await db.pool.query("SELECT 1 FROM opened_sessions o JOIN sessions s ON s.id = o.session_pk WHERE s.session_id = 'open-bench' AND o.entry_count = s.entry_count");
    if (kept.rowCount === 1) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const warmSeconds = (performance.now() - warmStarted) / 1000;

  const pageB = await page(b.url, admin.token);
  const first = await pageB.open("open-bench");
  // the page's next read (the leaf's entry in the inspector) waits for the copy made behind the answer
  const entryStarted = performance.now();
  await pageB.call("getEntry", { sessionId: "open-bench", entryId: generated.entries[generated.entries.length - 1]?.id });
  const firstEntry = performance.now() - entryStarted;
  const later: number[] = [];
  for (let i = 0; i < 3; i++) later.push((await pageB.open("open-bench")).ms);
  const pageA = await page(a.url, admin.token);
  const pusher = await pageA.open("open-bench");

  // neither a copy nor a kept answer: a third process after the kept answers were deleted (the old first open)
  await db.pool.query("DELETE FROM opened_sessions");
  const c = await serve(database, "server-c");
  servers.push(c.child);
  const pageC = await page(c.url, admin.token);
  const cold = await pageC.open("open-bench");
  for (const p of [pageA, pageB, pageC]) p.close();

  const cmd = "pnpm bench team";
  const size = `${ENTRIES.toLocaleString("en-US")}-entry session (${(jsonlBytes / 1e6).toFixed(0)} MB of JSONL, answer ${(first.bytes / 1e6).toFixed(1)} MB, ${first.nodes.toLocaleString("en-US")} nodes)`;
  console.log(
    "\n" +
      markdownTable(
        ["measure", "figure", "target", "command"],
        [
          [`${size} opened in the page: first open in a process with no copy (the kept answer)`, ms(first.ms), "< 1.5 s", cmd],
          ["the same process: its next read (the leaf's entry), waiting for the copy made behind the answer", ms(firstEntry), "", cmd],
          ["the same process: later opens (median of 3)", ms(median(later)), "< 1.5 s", cmd],
          ["first open in the process that took the push (warmed: its copy)", ms(pusher.ms), "< 1.5 s", cmd],
          ["the push's process: from the push's end until the answer was kept (copy + open)", `${warmSeconds.toFixed(1)} s`, "", cmd],
          ["first open with neither a copy nor a kept answer (a kept answer deleted)", ms(cold.ms), "", cmd],
        ],
      ),
  );
  for (const name of ["server-a", "server-b", "server-c"]) {
    const lines = fs.readFileSync(path.join(logDir, `${name}.log`), "utf8").split("\n");
    for (const line of lines.filter((l) => / CACHE |openSession|getEntry|error/.test(l))) console.log(`${name}: ${line}`);
  }
  const missed = [first.ms >= 1500 && "first open", median(later) >= 1500 && "later opens", pusher.ms >= 1500 && "pushing process"].filter(Boolean);
  if (missed.length > 0) console.log(`\nmissed: ${missed.join(", ")}`);
  await db.close();
} finally {
  for (const child of servers) child.kill("SIGTERM");
  cluster.stop();
}
