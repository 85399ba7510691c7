/**
 * Fault-suite support: the simulated agent as a child process, child processes killed with
 * SIGKILL (at a random moment or at a named point of the file protocols), and the checks that
 * follow every trial: no agent line lost or torn, the store and the file agree, no temporary file
 * left, the backup whole. Sizes: bounded by default (it runs in `pnpm test`), full with
 * BONSAI_FAULTS=full (`pnpm test:faults`), whose figures go to .test-results/faults.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrateSession, parseSessionText, type SessionEntry, type SessionHeader } from "@bonsai/core";
import { expect } from "vitest";
import { openStore, type SqliteSessionStore } from "../../src/index";
import { sleepSync } from "../../src/source/bytes";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, "../../../..");
export const FULL = process.env.BONSAI_FAULTS === "full";

/** trials per scenario: at least 30 in the full run (the issue's bar), a few in `pnpm test` */
export function trials(bounded: number, full = 30): number {
  return FULL ? full : bounded;
}

/** a scenario's time limit: the full run's 30 trials on a loaded machine take far longer than `pnpm test`'s few */
export function scenarioTimeout(bounded: number): number {
  return FULL ? 4 * 3_600_000 : bounded;
}

export interface AgentRun {
  /** ids the agent wrote, in order (complete once stopped) */
  readonly written: string[];
  stop(): Promise<string[]>;
  child: ChildProcess;
}

export interface AgentOptions {
  mode?: "lines" | "split" | "held";
  minMs?: number;
  maxMs?: number;
  prefix?: string;
  firstParent?: string | null;
}

/** Starts the simulated agent on `file`; resolves once it has written its first line. */
export function startAgent(file: string, o: AgentOptions = {}): Promise<AgentRun> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(here, "agent.ts"), file, o.mode ?? "lines", String(o.minMs ?? 1), String(o.maxMs ?? 50), o.prefix ?? "ag", o.firstParent ?? "-"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  const written: string[] = [];
  let out = "";
  let err = "";
  let finished: (ids: string[]) => void = () => undefined;
  const done = new Promise<string[]>((r) => (finished = r));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      let nl: number;
      while ((nl = out.indexOf("\n")) !== -1) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.startsWith("w ")) written.push(line.slice(2));
        else if (line === "ready") resolve({ written, child, stop: () => (child.kill("SIGTERM"), done) });
        else if (line.startsWith("done")) finished(written);
      }
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`agent exited with ${code}: ${err}`));
      finished(written);
    });
  });
}

/**
 * Runs `op-child.ts` and kills it with SIGKILL after `delayMs` (from its "ready"), or lets it die at
 * its fault point. Resolves with its output and how it ended.
 */
export function runChild(args: string[], delayMs: number | null): Promise<{ out: string; killed: boolean; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "op-child.ts"), ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (delayMs !== null && out.includes("ready") && !child.killed) setTimeout(() => child.kill("SIGKILL"), delayMs);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL" && code !== 0 && !out.includes("refused")) reject(new Error(`op-child failed (${code}): ${err}${out}`));
      else resolve({ out, killed: signal === "SIGKILL", code });
    });
  });
}

/** Header and entries of a file as core reads it, and its problems. */
export function readFile(file: string): { header: SessionHeader | null; entries: SessionEntry[]; issues: number } {
  const parsed = parseSessionText(fs.readFileSync(file, "utf8"));
  return { header: parsed.header, entries: parsed.entries, issues: parsed.issues.length };
}

/** Every id the agent wrote is in the file exactly once and the file has no broken line. */
export function expectAgentLinesKept(file: string, written: readonly string[]): number {
  const { entries, issues } = readFile(file);
  expect(issues, `${file} has broken lines`).toBe(0);
  const count = new Map<string, number>();
  for (const e of entries) count.set(e.id, (count.get(e.id) ?? 0) + 1);
  const lost = written.filter((id) => count.get(id) !== 1);
  expect(lost, "agent lines lost or duplicated").toEqual([]);
  return lost.length;
}

/**
 * Opens the store (recovery runs), then: the file's entries are exactly the store's (same ids, same
 * JSON, same order), reading the file again changes nothing, and no Bonsai temporary file is left
 * next to it.
 */
export async function expectStoreAgrees(dbPath: string, file: string, sessionId: string): Promise<void> {
  const store = openStore({ path: dbPath });
  try {
    await expectAgreement(store, file, sessionId);
  } finally {
    store.close();
  }
}

/**
 * The store and the file agree: reading the file again changes nothing, and the store holds the
 * file's entries as it reads them (a v2 file that was not upgraded, a refused first write: migrated
 * to v3, as the store keeps it; a v1 file's migration makes up ids, so its callers check v3 files only).
 */
export async function expectAgreement(store: SqliteSessionStore, file: string, sessionId: string): Promise<void> {
  const report = await store.importFile(file);
  expect(report.status, `${report.message}`).toBe("unchanged");
  const { header, entries } = readFile(file);
  expect(header, `${file} has a session header`).not.toBeNull();
  const { fromVersion } = migrateSession(header!, entries);
  expect(fromVersion, `${file}: a v1 file's entries cannot be compared (its migration makes up ids)`).toBeGreaterThanOrEqual(2);
  expect(store.loadEntries(sessionId).map((e) => JSON.stringify(e))).toEqual(entries.map((e) => JSON.stringify(e)));
  expect(bonsaiTemps(path.dirname(file))).toEqual([]);
}

/** Bonsai's temporary files in a folder (the journal names them `.<file>.bonsai-*.tmp`). */
export function bonsaiTemps(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.startsWith(".") && f.endsWith(".tmp"));
}

/**
 * Figures of the run, merged into .test-results/faults.json (docs/RELIABILITY.md quotes the full
 * run). The suite's files run side by side (scripts/test-faults.mjs): the merge holds a lock (a
 * folder made atomically) so that two scenarios finishing together both keep their figures.
 */
export function recordFigures(scenario: string, figures: Record<string, number | string>): void {
  const out = path.join(ROOT, ".test-results", FULL ? "faults-full.json" : "faults.json");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const lock = `${out}.lock`;
  for (let waited = 0; ; waited += 20) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || waited > 30_000) throw err;
      sleepSync(20);
    }
  }
  try {
    let all: Record<string, unknown> = {};
    try {
      all = JSON.parse(fs.readFileSync(out, "utf8")) as Record<string, unknown>;
    } catch {
      // first scenario of the run
    }
    all[scenario] = { ...figures, at: new Date().toISOString() };
    fs.writeFileSync(`${out}.tmp`, `${JSON.stringify(all, null, 2)}\n`);
    fs.renameSync(`${out}.tmp`, out);
  } finally {
    fs.rmdirSync(lock);
  }
  console.log(`[faults] ${scenario}: ${JSON.stringify(figures)}`);
}
