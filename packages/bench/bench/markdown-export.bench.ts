/**
 * `pnpm bench markdown-export`: `bonsai export FILE --format html -o page.html` as a user runs it, on a
 * 500 KB pi session whose messages are adversarial Markdown (quotes nested thousands deep, runs of
 * backticks, runs of `[a](`, emphasis markers by the thousand): the page must be written in under 1 s
 * of CPU (the process's user + system time, which the machine's load does not inflate as it does the
 * wall time, also shown). Each round is its own process (CPU and peak memory reported by usage.cjs);
 * medians of BONSAI_BENCH_ROUNDS rounds (default 5).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSession, markdownTable, median, sessionToJsonl } from "@bonsai/testkit";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const bonsai = path.join(root, "apps/cli/bin/bonsai.cjs");
const usageHook = path.join(here, "usage.cjs");
const ROUNDS = Number(process.env.BONSAI_BENCH_ROUNDS ?? 5);
const TARGET_BYTES = 500_000;
const LIMIT_MS = 1000;

/** Markdown that costs a naive parser time: one piece of each kind, `size` characters each, in turn. */
const ADVERSARIAL: readonly ((size: number) => string)[] = [
  (size) => `${">".repeat(size - 8)} deepest`,
  (size) => "``` a `` b ` c ".repeat(Math.ceil(size / 15)).slice(0, size),
  (size) => "[a](".repeat(Math.ceil(size / 4)).slice(0, size),
  (size) => "*a **b ***c _d __e ___f ".repeat(Math.ceil(size / 24)).slice(0, size),
  (size) => `${"*".repeat(size / 2)}x${"_".repeat(size / 2)}`,
];

/** A pi session (generated, then each message's text replaced by adversarial Markdown) of about TARGET_BYTES. */
function adversarialSession(): string {
  const lines = sessionToJsonl(generateSession({ entries: 60, seed: 32, compactionInterval: 0 })).trim().split("\n");
  const texts = lines.filter((l) => l.includes('"type":"text"')).length;
  const size = Math.floor(TARGET_BYTES / Math.max(1, texts));
  let n = 0;
  return `${lines
    .map((line) => {
      const entry = JSON.parse(line) as { type?: string; message?: { content?: unknown } };
      const content = entry.message?.content;
      if (entry.type !== "message" || !Array.isArray(content)) return line;
      for (const part of content as { type?: string; text?: string }[]) if (part.type === "text") part.text = (ADVERSARIAL[n++ % ADVERSARIAL.length] as (size: number) => string)(size);
      return JSON.stringify(entry);
    })
    .join("\n")}\n`;
}

if (!fs.existsSync(path.join(root, "apps/cli/dist/bonsai.mjs"))) execFileSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { stdio: "inherit" });
const work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-bench-export-"));
try {
  const file = path.join(work, "adversarial.jsonl");
  fs.writeFileSync(file, adversarialSession());
  const runs: { wallMs: number; cpuMs: number; rssMb: number }[] = [];
  const usageFile = path.join(work, "usage.jsonl");
  for (let round = 0; round < ROUNDS; round++) {
    const page = path.join(work, `page-${round}.html`);
    fs.rmSync(usageFile, { force: true });
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ["--require", usageHook, bonsai, "export", file, "--format", "html", "-o", page], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, BONSAI_BENCH_USAGE: usageFile, BONSAI_DB: path.join(work, "bonsai.db"), HOME: work, BONSAI_DEBUG: "" },
    });
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) throw new Error(`bonsai export --format html: exit ${r.status ?? r.signal}: ${r.stderr.trim()}`);
    if (!fs.readFileSync(page, "utf8").includes("deepest")) throw new Error("the page lacks the session's text");
    const u = JSON.parse(fs.readFileSync(usageFile, "utf8").trim().split("\n").pop() as string) as { user: number; system: number; maxRSS: number };
    runs.push({ wallMs, cpuMs: (u.user + u.system) / 1000, rssMb: u.maxRSS / 1024 });
  }
  const wall = median(runs.map((r) => r.wallMs));
  const cpu = median(runs.map((r) => r.cpuMs));
  const size = fs.statSync(file).size;
  console.log(`Adversarial Markdown to HTML (node ${process.version}; ${(size / 1000).toFixed(0)} KB session; medians of ${ROUNDS} rounds; load average ${os.loadavg()[0]?.toFixed(2)})\n`);
  console.log(markdownTable(["process", "wall (ms)", "CPU (ms)", "peak RSS (MB)"], [["bonsai export FILE --format html -o page.html", wall.toFixed(0), cpu.toFixed(0), median(runs.map((r) => r.rssMb)).toFixed(0)]]));
  console.log(`\n- ${cpu < LIMIT_MS ? "met" : "MISSED"}: the page of a 500 KB session of adversarial Markdown is written in under 1 s of CPU (${cpu.toFixed(0)} ms)`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
