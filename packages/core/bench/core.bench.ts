/**
 * Core benchmark: load + context, compaction plan, pruning plan and branch plan on the two fixture
 * sessions (../shared/fixtures, when present) and on generated sessions of 25,000, 50,000 and
 * 100,000 entries (to show the growth is linear). Every (session, operation) runs in its own child
 * process, so the peak memory column belongs to that case alone (it includes loading the session).
 *
 *   node --import tsx packages/core/bench/core.bench.ts          the table
 *   ... core.bench.ts --case plan --file S.jsonl                 one case (what the table runs)
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_SETTINGS,
  buildIndex,
  buildSessionContext,
  collectEntriesForBranchSummary,
  computeFileLists,
  defaultLeafId,
  getPath,
  migrateSession,
  parseSessionText,
  planPruning,
  prepareBranchEntries,
  prepareCompaction,
} from "../src/index";
import { argValue, markdownTable, peakRssMb, runBenchChild, timeMedian } from "../../testkit/src/bench";
import { generateSession, writeSessionJsonl } from "../../testkit/src/generate-session";

const OPERATIONS = ["load+context", "plan", "prune", "branch"] as const;
type Operation = (typeof OPERATIONS)[number];
const REPEATS = 5;
/** child processes per (session, operation); the one with the least CPU time is reported */
const CHILD_RUNS = Number(process.env.BONSAI_BENCH_RUNS ?? 2);
const BRANCH_BUDGET = 100_000;

interface CaseResult {
  entries: number;
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  note: string;
}

function load(file: string) {
  const parsed = parseSessionText(readFileSync(file, "utf8"));
  if (!parsed.header) throw new Error(`${file} is not a session`);
  migrateSession(parsed.header, parsed.entries);
  const index = buildIndex(parsed.entries);
  return { entries: parsed.entries, index, leaf: defaultLeafId(parsed.entries) };
}

function runCase(operation: Operation, file: string): CaseResult {
  if (operation === "load+context") {
    const { ms, cpuMs, result } = timeMedian(() => {
      const session = load(file);
      return { entries: session.entries.length, context: buildSessionContext(session.entries, session.leaf, session.index) };
    }, 1);
    return { entries: result.entries, ms, cpuMs, peakRssMb: peakRssMb(), note: `${result.context.messages.length} messages` };
  }
  const session = load(file);
  const path = (): ReturnType<typeof getPath> => getPath(session.index, session.leaf);
  let note = "";
  let timing: { ms: number; cpuMs: number };
  if (operation === "plan") {
    timing = timeMedian(() => {
      const prep = prepareCompaction(path(), DEFAULT_SETTINGS.compaction);
      const lists = prep ? computeFileLists(prep.fileOps) : undefined;
      note = prep ? `summarize ${prep.messagesToSummarize.length}, ${lists?.modifiedFiles.length} modified files` : "nothing to compact";
      return prep;
    }, REPEATS);
  } else if (operation === "prune") {
    timing = timeMedian(() => {
      const plan = planPruning(path());
      note = `${plan.prunedCount} pruned, ${plan.tokensSaved} tokens saved`;
      return plan;
    }, REPEATS);
  } else {
    const target = path()[Math.floor(path().length / 3)]?.id ?? "";
    timing = timeMedian(() => {
      const collected = collectEntriesForBranchSummary(session.index, session.leaf, target);
      const prepared = prepareBranchEntries(collected.entries, BRANCH_BUDGET);
      note = `${collected.entries.length} abandoned, ${prepared.includedEntryIds.length} included`;
      return prepared;
    }, REPEATS);
  }
  return { entries: session.entries.length, ms: timing.ms, cpuMs: timing.cpuMs, peakRssMb: peakRssMb(), note };
}

async function main(): Promise<void> {
  const only = argValue("case");
  if (only) {
    const file = argValue("file");
    if (!file || !OPERATIONS.includes(only as Operation)) throw new Error(`usage: --case ${OPERATIONS.join("|")} --file SESSION.jsonl`);
    console.log(JSON.stringify(runCase(only as Operation, file)));
    return;
  }

  const self = fileURLToPath(import.meta.url);
  const fixtures = resolve(dirname(self), "../../../../shared/fixtures");
  const tmp = mkdtempSync(join(tmpdir(), "bonsai-core-bench-"));
  try {
    const sessions: { name: string; file: string }[] = [];
    for (const name of ["before-compaction.jsonl", "large-session.jsonl"]) {
      const file = join(fixtures, name);
      if (existsSync(file)) sessions.push({ name: `fixture ${name}`, file });
      else console.log(`(fixture ${name} not found in ${fixtures}: skipped)`);
    }
    for (const size of [25_000, 50_000, 100_000]) {
      const file = join(tmp, `generated-${size}.jsonl`);
      await writeSessionJsonl(file, generateSession({ entries: size, seed: 2026 }));
      sessions.push({ name: `generated ${size.toLocaleString("en-US")}`, file });
    }

    const rows: string[][] = [];
    for (const session of sessions) {
      const sizeMb = (readFileSync(session.file).byteLength / 1e6).toFixed(1);
      for (const operation of OPERATIONS) {
        let r = runBenchChild<CaseResult>(self, ["--case", operation, "--file", session.file]);
        for (let run = 1; run < CHILD_RUNS; run++) {
          const again = runBenchChild<CaseResult>(self, ["--case", operation, "--file", session.file]);
          if (again.cpuMs < r.cpuMs) r = again;
        }
        rows.push([
          session.name,
          `${sizeMb} MB`,
          r.entries.toLocaleString("en-US"),
          operation,
          r.ms.toFixed(1),
          r.cpuMs.toFixed(1),
          Math.round(r.entries / (r.cpuMs / 1000)).toLocaleString("en-US"),
          ((r.cpuMs * 1000) / r.entries).toFixed(2),
          r.peakRssMb.toFixed(0),
          r.note,
        ]);
      }
    }
    console.log(
      markdownTable(["session", "file", "entries", "operation", "wall (ms)", "CPU (ms)", "entries/s (CPU)", "µs/entry (CPU)", "peak RSS (MB)", "result"], rows),
    );
    console.log(
      `\nload+context = read + parse + migrate + index + buildSessionContext (one run); plan / prune / branch = path + operation, median of ${REPEATS} runs after loading; best of ${CHILD_RUNS} processes by CPU time; branch = old leaf -> entry at 1/3 of the path, budget ${BRANCH_BUDGET}. Node ${process.version}.`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
