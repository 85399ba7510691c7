/**
 * `bonsai import --git` against importing the same transcripts as files (`pnpm bench git-import`):
 * a repository built with git whose `entire/checkpoints/v1` branch holds BONSAI_BENCH_CHECKPOINTS
 * checkpoints (default 500), each with one generated pi session (BONSAI_BENCH_ENTRIES entries,
 * default 200), and 500 code commits naming them in Entire-Checkpoint trailers. Each case imports
 * into a fresh database; median of 3 runs, wall and CPU time of this process (git's own time is in
 * the wall time only). Target: the git import at most 2x the file import.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateSession, markdownTable, median, sessionToJsonl } from "@bonsai/testkit";
import { EntireRepo } from "@bonsai/testkit/entire-repo";
import { importGitRepository, openStore } from "../src/index";

const CHECKPOINTS = Number(process.env.BONSAI_BENCH_CHECKPOINTS ?? 500);
const ENTRIES = Number(process.env.BONSAI_BENCH_ENTRIES ?? 200);
const RUNS = 3;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-git-import-bench-"));

const files = path.join(work, "files");
fs.mkdirSync(files);
const repo = EntireRepo.create(work);
const checkpoints: { id: string; sessions: { sessionId: string; agent: string; createdAt: string; transcript: Buffer }[] }[] = [];
let bytes = 0;
for (let i = 0; i < CHECKPOINTS; i++) {
  const session = generateSession({ entries: ENTRIES, seed: 5000 + i });
  const text = Buffer.from(sessionToJsonl(session));
  bytes += text.length;
  const id = (0x100000000000 + i * 7919).toString(16).slice(-12);
  fs.writeFileSync(path.join(files, `${i}.jsonl`), text);
  checkpoints.push({ id, sessions: [{ sessionId: session.header.id, agent: "Pi", createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), transcript: text }] });
}
repo.addCheckpoints(checkpoints);
for (let i = 0; i < CHECKPOINTS; i += 1) repo.commitCode(`src/f${i % 50}.ts`, `export const v = ${i};\n`, `Change ${i}`, [checkpoints[i]!.id]);

async function timed(fn: (dir: string) => Promise<number>): Promise<{ ms: number; cpuMs: number; sessions: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let sessions = 0;
  for (let r = 0; r < RUNS; r++) {
    const dir = fs.mkdtempSync(path.join(work, "db-"));
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    sessions = await fn(dir);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: median(wall), cpuMs: median(cpu), sessions };
}

const asFiles = await timed(async (dir) => {
  const store = openStore({ path: path.join(dir, "bonsai.db"), backgroundIndexing: false });
  const r = await store.importPaths([files]);
  store.close();
  return r.reports.filter((x) => x.status === "imported").length;
});
const viaGit = await timed(async (dir) => {
  const store = openStore({ path: path.join(dir, "bonsai.db"), backgroundIndexing: false });
  const r = await importGitRepository(store, repo.dir);
  const linked = store.db.prepare("SELECT count(*) AS n FROM git_commit_checkpoints").get() as { n: number };
  store.close();
  if (linked.n !== CHECKPOINTS) throw new Error(`expected ${CHECKPOINTS} commit links, found ${linked.n}`);
  return r.sessions.filter((x) => x.report.status === "imported").length;
});
const again = await timed(async (dir) => {
  const store = openStore({ path: path.join(dir, "bonsai.db"), backgroundIndexing: false });
  await importGitRepository(store, repo.dir);
  const t0 = performance.now();
  const r = await importGitRepository(store, repo.dir);
  const ms = performance.now() - t0;
  store.close();
  if (r.checkpointsRead !== 0) throw new Error("the second import read checkpoints again");
  return Math.round(ms);
});

const f0 = (n: number): string => Math.round(n).toLocaleString("en-US");
console.log(`${CHECKPOINTS} checkpoints, one generated pi session of ${ENTRIES} entries each (${(bytes / 1e6).toFixed(1)} MB of transcripts), ${CHECKPOINTS} commits with trailers; median of ${RUNS}\n`);
console.log(
  markdownTable(
    ["case", "sessions", "wall ms", "CPU ms (this process)", "vs files"],
    [
      ["import the transcripts as files (importPaths)", asFiles.sessions, f0(asFiles.ms), f0(asFiles.cpuMs), "1.00x"],
      ["import --git (checkpoint branch + commit links)", viaGit.sessions, f0(viaGit.ms), f0(viaGit.cpuMs), `${(viaGit.ms / asFiles.ms).toFixed(2)}x`],
    ],
  ),
);
console.log(`\nimport --git again with nothing new: ${again.sessions} ms (median of ${RUNS})`);
fs.rmSync(work, { recursive: true, force: true });
