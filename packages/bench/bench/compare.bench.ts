/**
 * `pnpm bench compare`: whole processes, side by side in one run, on generated sessions of 1,000,
 * 10,000 and 100,000 entries (BONSAI_BENCH_SIZES): the `bonsai` command as a user runs it — read
 * commands on the file and on its stored id, a fresh `import`, and the import of 1,000 lines appended
 * to an imported file (at 1,000 and at 100,000 entries it must cost the same, within 1.5x) — next to
 * the floor (floor.cjs: read the file, JSON.parse every line) and pi's own session code
 * (SessionManager.open + buildSessionContext, @mariozechner/pi-coding-agent). A fresh import is held
 * to at most 1.8x the floor's CPU at 100,000 entries, whole process against whole process (Node's
 * start included in both); the other ratios compare the CPU above Node's start.
 *
 * Every case is a Node process started with `--require usage.cjs`, which reports the process's own
 * CPU time and peak memory at exit. Cases run interleaved, round after round (BONSAI_BENCH_ROUNDS,
 * default 5), so machine load falls on all of them alike; medians are reported. CPU "above start"
 * subtracts the median of `node -e 0` (Node's own start, the same fixed cost for every process);
 * ratios compare that part. The stored-id answers are checked against the file's (same stdout).
 *
 * BONSAI_BENCH_SHAPES (default "default") runs the same cases on other shapes of session as well
 * (SHAPES below: smaller entries with frequent compactions, large tool outputs with many branches,
 * rare compactions, none at all, a UUID session id as pi writes it, the real pi sessions' entries of
 * ../shared/fixtures/real/pi), each at every size: the targets must hold on sessions unlike the
 * default one.
 *
 * The backend's first answers after it starts (backend-first-context.ts: createBackend on the
 * database, then getContextPreview and openSession of the stored session) are measured inside that
 * process, step by step (process.cpuUsage), in the same rounds.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIndex, getPath, parseSessionText, type SessionEntry } from "@bonsai/core";
import { importBar } from "./import-bar";
import { fmt } from "./numbers";
import { REAL_PI_DIR, realPiSession } from "./real-pi-session";
import { generateSession, markdownTable, median, relinkEntry, sessionToJsonl, type GenerateSessionOptions } from "@bonsai/testkit";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const bonsai = path.join(root, "apps/cli/bin/bonsai.cjs");
const usageHook = path.join(here, "usage.cjs");
const SIZES = (process.env.BONSAI_BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const ROUNDS = Number(process.env.BONSAI_BENCH_ROUNDS ?? 5);
const APPENDED = 1000;
const FRESH_IMPORT = "bonsai import FILE (fresh database)";
const SEED = 2026;

/** Shapes of generated session (generateSession's options besides size and seed). */
const SHAPES: Record<string, { label: string; options: Omit<GenerateSessionOptions, "entries" | "seed">; build?: (entries: number) => string | undefined }> = {
  default: { label: "", options: {} },
  small: { label: "small entries (contentScale 0.3), a compaction every 400 entries", options: { contentScale: 0.3, compactionInterval: 400 } },
  large: { label: "large entries (contentScale 3), branches in 15 % of turns", options: { contentScale: 3, branchProbability: 0.15 } },
  rare: { label: "a compaction every 10,000 entries", options: { compactionInterval: 10_000 } },
  none: { label: "no compaction (everything on the path is in the context)", options: { compactionInterval: 0 } },
  // pi names its sessions by UUID (36 characters, in every index key of the store) where the
  // generator's own ids have 16
  "pi-ids": { label: "the default shape with a session id as pi writes it (a UUID)", options: { sessionId: "019ffa2f-5809-74e7-99ce-d479e5403701" } },
  // real entries, not generated ones: the six recorded pi sessions of ../shared/fixtures/real/pi in
  // turn under fresh ids (real-pi-session.ts); skipped with a message where they are absent
  "real-pi": {
    label: "the real pi sessions' entries (../shared/fixtures/real/pi) in turn under fresh ids",
    options: {},
    build: (entries) => realPiSession(entries, "019ffa2f-5809-74e7-99ce-d479e5403702"),
  },
};
const SHAPE_NAMES = (process.env.BONSAI_BENCH_SHAPES ?? "default").split(",");
for (const name of SHAPE_NAMES) if (!(name in SHAPES)) throw new Error(`BONSAI_BENCH_SHAPES: unknown shape ${JSON.stringify(name)} (known: ${Object.keys(SHAPES).join(", ")})`);
const work = process.env.BONSAI_BENCH_DIR ?? path.join(os.tmpdir(), "bonsai-bench-compare");

interface Usage {
  cpuMs: number;
  rssMb: number;
}

interface Case {
  name: string;
  /** argv after `node` */
  argv: string[];
  env?: Record<string, string>;
  /** runs before each round of this case (not measured) */
  prepare?: () => void;
  runs: Usage[];
  stdout?: string;
}

/** Runs `node --require usage.cjs ...argv`; returns its CPU time and peak memory as it reported them. */
function measure(c: Case): Usage {
  const usageFile = path.join(work, "usage.jsonl");
  fs.rmSync(usageFile, { force: true });
  const r = spawnSync(process.execPath, ["--require", usageHook, ...c.argv], {
    cwd: work,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, ...c.env, BONSAI_BENCH_USAGE: usageFile, HOME: path.join(work, "home"), BONSAI_DEBUG: "" },
  });
  if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status ?? r.signal}: ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  c.stdout = r.stdout;
  const lines = fs.readFileSync(usageFile, "utf8").trim().split("\n");
  const u = JSON.parse(lines[lines.length - 1] as string) as { user: number; system: number; maxRSS: number };
  return { cpuMs: (u.user + u.system) / 1000, rssMb: u.maxRSS / 1024 };
}

/**
 * Lines to append to a session of `shape`: entries of the same shape (generated with the shape's
 * options and another seed, or the shape's own build), under new ids, the first one hanging off
 * `parent`: what an agent appends to that session. The new ids are random-looking 8-hex ids as pi
 * writes them (a hash of the old one), so they land all over the stored session's id order as an
 * agent's appended lines do (a common prefix would put them side by side in every index keyed by id).
 */
function appendedLines(count: number, parent: string, shape: (typeof SHAPES)[string]): string {
  const text = shape.build ? shape.build(count) : sessionToJsonl(generateSession({ ...shape.options, entries: count, seed: SEED + 1 }));
  if (text === undefined) throw new Error("appendedLines: the shape's session could not be built");
  const entries = parseSessionText(text).entries as unknown as Record<string, unknown>[];
  const rename = (id: string): string => createHash("sha256").update(`appended:${id}`).digest("hex").slice(0, 8);
  const lines = entries.map((e) => JSON.stringify(relinkEntry(e, rename, parent)));
  return `${lines.join("\n")}\n`;
}

interface BackendRun {
  startMs: number;
  contextMs: number;
  openMs: number;
}

/** One run of backend-first-context.ts (its own process) on a data folder holding the session. */
function firstContext(dataDir: string, sessionId: string): BackendRun {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(here, "backend-first-context.ts"), dataDir, sessionId], { cwd: root, encoding: "utf8", env: { ...process.env, HOME: path.join(work, "home") } });
  if (r.status !== 0) throw new Error(`backend-first-context: exit ${r.status ?? r.signal}: ${r.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() as string) as BackendRun;
}

function ensureCli(): void {
  if (fs.existsSync(path.join(root, "apps/cli/dist/bonsai.mjs"))) return;
  console.log("(building the CLI first: node scripts/build.mjs cli)");
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { stdio: "inherit" });
}

const ratio = (a: number, b: number): string => (b > 0 ? `${fmt(a / b, 1)}x` : "-");

/** One size's table and targets, and the CPU (above Node's start) of importing the appended lines. */
interface SizeResult {
  lines: string[];
  appendedMs?: number;
}

function runSize(entries: number, shapeName: string): SizeResult {
  const shape = SHAPES[shapeName] as (typeof SHAPES)[string];
  const dir = path.join(work, shapeName === "default" ? `s${entries}` : `s${entries}-${shapeName}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "session.jsonl");
  if (!fs.existsSync(file)) {
    const text = shape.build ? shape.build(entries) : sessionToJsonl(generateSession({ ...shape.options, entries, seed: SEED }));
    if (text === undefined) return { lines: [`### ${fmt(entries)} entries, ${shape.label}: skipped (${REAL_PI_DIR} is absent)`, ""] };
    fs.writeFileSync(file, text);
  }
  const all = parseSessionText(fs.readFileSync(file, "utf8")).entries;
  const leaf = (all[all.length - 1] as SessionEntry).id;
  const pathIds = getPath(buildIndex(all), leaf).map((e) => e.id);
  const farTarget = pathIds[Math.floor(pathIds.length / 3)] as string;
  const nearTarget = pathIds[Math.max(0, pathIds.length - 200)] as string;
  const bytes = fs.statSync(file).size;

  // the stored session the read commands use, in its own database
  const db = path.join(dir, "read.db");
  for (const f of [db, `${db}-wal`, `${db}-shm`]) fs.rmSync(f, { force: true });
  const imported = spawnSync(process.execPath, [bonsai, "import", file, "--json"], { encoding: "utf8", env: { ...process.env, BONSAI_DB: db } });
  const sessionId = (JSON.parse(imported.stdout) as { reports: { sessionId: string }[] }).reports[0]?.sessionId as string;
  const storedEnv = { BONSAI_DB: db };

  const freshDb = path.join(dir, "fresh.db");
  const clearDb = (f: string): void => {
    for (const x of [f, `${f}-wal`, `${f}-shm`]) fs.rmSync(x, { force: true });
  };
  const grown = path.join(dir, "grown.jsonl");
  const grownDb = path.join(dir, "grown.db");
  const extra = appendedLines(APPENDED, leaf, shape);

  const read = (name: string, arg: string, args: string[], env?: Record<string, string>): Case => ({ name, argv: [bonsai, args[0] as string, arg, ...args.slice(1)], env, runs: [] });
  const commands: [string, string[]][] = [
    ["context", ["context", "--json"]],
    ["plan", ["plan", "--json"]],
    ["prune --dry-run", ["prune", "--dry-run", "--json"]],
    ["branch (to 1/3 of the path)", ["branch", "--to", farTarget, "--json"]],
    ["branch (200 entries back)", ["branch", "--to", nearTarget, "--json"]],
  ];
  const cases: Case[] = [
    { name: "node -e 0", argv: ["-e", "0"], runs: [] },
    { name: "floor: read + JSON.parse per line", argv: [path.join(here, "floor.cjs"), file], runs: [] },
    { name: "pi: SessionManager.open + buildSessionContext", argv: [path.join(here, "pi-context.mjs"), file], runs: [] },
    ...commands.map(([n, a]) => read(`bonsai ${n} FILE`, file, a)),
    ...commands.map(([n, a]) => read(`bonsai ${n} SESSION_ID`, sessionId, a, storedEnv)),
    { name: FRESH_IMPORT, argv: [bonsai, "import", file], env: { BONSAI_DB: freshDb }, prepare: () => clearDb(freshDb), runs: [] },
    {
      name: `bonsai import FILE (${fmt(APPENDED)} lines appended)`,
      argv: [bonsai, "import", grown],
      env: { BONSAI_DB: grownDb },
      prepare: () => {
        clearDb(grownDb);
        fs.copyFileSync(file, grown);
        spawnSync(process.execPath, [bonsai, "import", grown], { env: { ...process.env, BONSAI_DB: grownDb } });
        fs.appendFileSync(grown, extra);
      },
      runs: [],
    },
  ];
  // the backend's data folder: the stored session's database under the name the backend opens
  const backendDir = path.join(dir, "backend");
  const backendRuns: BackendRun[] = [];
  const prepareBackend = (): void => {
    fs.rmSync(backendDir, { recursive: true, force: true });
    fs.mkdirSync(backendDir, { recursive: true });
    fs.copyFileSync(db, path.join(backendDir, "bonsai.db"));
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      c.prepare?.();
      c.runs.push(measure(c));
    }
    prepareBackend();
    backendRuns.push(firstContext(backendDir, sessionId));
  }
  for (const [n] of commands) {
    const a = cases.find((c) => c.name === `bonsai ${n} FILE`);
    const b = cases.find((c) => c.name === `bonsai ${n} SESSION_ID`);
    if (a?.stdout !== b?.stdout) throw new Error(`${entries} entries: \`bonsai ${n}\` by stored id printed something else than on the file`);
  }

  const cpu = (c: Case): number => median(c.runs.map((r) => r.cpuMs));
  const rss = (c: Case): number => median(c.runs.map((r) => r.rssMb));
  const byName = (prefix: string): Case => cases.find((c) => c.name.startsWith(prefix)) as Case;
  const start = cpu(byName("node -e 0"));
  const floor = byName("floor");
  const pi = byName("pi:");
  const above = (c: Case): number => Math.max(0.1, cpu(c) - start);
  const rows = cases.map((c) => [
    c.name,
    fmt(cpu(c)),
    c === cases[0] ? "-" : fmt(above(c)),
    fmt(rss(c)),
    c === cases[0] || c === floor ? "-" : c.name === FRESH_IMPORT ? `${fmt(cpu(c) / cpu(floor), 2)}x the floor's CPU (whole processes)` : ratio(above(floor), above(c)),
    c === cases[0] || c === pi ? "-" : ratio(above(pi), above(c)),
    c === cases[0] || c === floor ? "-" : `${fmt((rss(c) / rss(floor)) * 100)} %`,
  ]);
  const out = [
    `### ${fmt(entries)} entries${shape.label ? `, ${shape.label}` : ""} (${fmt(bytes / 1e6, 1)} MB; ${shape.build ? "" : `seed ${SEED}; `}medians of ${ROUNDS} rounds)`,
    "",
    markdownTable(["process", "CPU (ms)", "CPU above node start (ms)", "peak RSS (MB)", "faster than the floor", "faster than pi", "memory / floor"], rows),
    "",
  ];
  // the targets (docs/PERFORMANCE.md "compare")
  const checks: [string, boolean][] = [];
  for (const [n] of commands) {
    const c = byName(`bonsai ${n} SESSION_ID`);
    if (entries >= 100_000) {
      checks.push([`${n} by stored id at least 20x faster than the floor (${ratio(above(floor), above(c))})`, above(floor) / above(c) >= 20]);
      checks.push([`${n} by stored id under a third of the floor's memory (${fmt((rss(c) / rss(floor)) * 100)} %)`, rss(c) < rss(floor) / 3]);
    }
    if (entries <= 1000) checks.push([`${n} by stored id no slower than pi (${fmt(above(c))} vs ${fmt(above(pi))} ms)`, above(c) <= above(pi)]);
  }
  const fresh = byName(FRESH_IMPORT);
  const appended = byName("bonsai import FILE (1,000");
  if (entries >= 100_000) {
    const bar = importBar(fresh.runs.map((r) => r.cpuMs), floor.runs.map((r) => r.cpuMs));
    out.splice(out.length - 1, 0, "", bar.line);
    checks.push([bar.check, bar.met]);
  }
  const step = (k: keyof BackendRun): number => median(backendRuns.map((r) => r[k]));
  out.splice(
    out.length - 1,
    0,
    "",
    `Backend (createBackend on the database, then its first calls; CPU inside the process, medians): start ${fmt(step("startMs"))} ms, first getContextPreview ${fmt(step("contextMs"))} ms, then openSession (summary and packed tree skeleton) ${fmt(step("openMs"))} ms`,
  );
  if (entries >= 100_000) checks.push([`backend's first context after start within 100 ms of CPU (${fmt(step("contextMs"))} ms)`, step("contextMs") <= 100]);
  for (const [what, ok] of checks) out.push(`- ${ok ? "met" : "MISSED"}: ${what}`);
  return { lines: out, appendedMs: above(appended) };
}

/**
 * The append target, across sizes: importing the same 1,000 appended lines costs the same (within
 * 1.5x) whether the stored session holds 1,000 or 100,000 entries, i.e. a re-import's work follows
 * what was appended, not what was there.
 */
function appendTarget(appendedMs: Map<number, number>): string[] {
  const small = appendedMs.get(1000);
  const large = appendedMs.get(100_000);
  if (small === undefined || large === undefined) return [];
  const r = Math.max(small, large) / Math.min(small, large);
  return [`- ${r <= 1.5 ? "met" : "MISSED"}: importing ${fmt(APPENDED)} appended lines costs the same at 1,000 and at 100,000 entries (${fmt(small)} vs ${fmt(large)} ms above node start, ${fmt(r, 2)}x; within 1.5x)`];
}

ensureCli();
fs.mkdirSync(path.join(work, "home"), { recursive: true });
const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
console.log(`Side by side, whole processes (node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? "?"}); load average at start ${load()}`);
for (const shape of SHAPE_NAMES) {
  const appendedMs = new Map<number, number>();
  for (const entries of SIZES) {
    console.log("");
    const result = runSize(entries, shape);
    for (const line of result.lines) console.log(line);
    if (result.appendedMs !== undefined) appendedMs.set(entries, result.appendedMs);
  }
  const across = appendTarget(appendedMs);
  if (across.length > 0) console.log(["", `### Across sizes${shape === "default" ? "" : `, ${SHAPES[shape]?.label ?? shape}`}`, "", ...across].join("\n"));
}
console.log(`\nload average at the end ${load()}`);
