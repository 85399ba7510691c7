#!/usr/bin/env node
// The one test command (README, .ci/run): build, static checks, unit/integration tests (vitest),
// end-to-end tests (Playwright in Chromium), and the reference diffcheck on the real fixtures.
// Each suite's own output streams through; the last line is the total: "N passed, N failed[, N skipped]".
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = path.join(root, ".test-results");
fs.mkdirSync(resultsDir, { recursive: true });
const only = new Set(process.argv.slice(2)); // e.g. `pnpm test unit e2e`
const want = (name) => only.size === 0 || only.has(name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
function record(name, passed, failed, skipped = 0, note = "") {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(`${name.padEnd(10)} ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}${note ? `  (${note})` : ""}`);
}
function run(cmd, args, env = {}) {
  console.log(`\n$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status === 0;
}
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

// Bonsai needs Node 24 or newer (README: scripts/node24.sh brings it where the system's is older)
console.log(`node ${process.version}`);
if (Number(process.versions.node.split(".")[0]) < 24) {
  console.error(`bonsai: the tests need Node 24 or newer, not ${process.version}; run them as \`scripts/node24.sh pnpm test\``);
  record("node", 0, 1, 0, `Node ${process.version} is older than 24`);
  finish();
}

// 0. the end-to-end tests need Debian's Chromium: install it now (root + apt) or stop at once saying how
if (want("e2e") && !ensureChromium()) process.exit(1);
// the team archive's unit tests start a private PostgreSQL server from the machine's binaries
// (loaded here: it reads a TypeScript module, which only Node 24 runs as it is)
if (want("unit") && !(await import("./postgres.mjs")).ensurePostgres()) {
  record("postgres", 0, 1, 0, "PostgreSQL's server binaries are missing");
  finish();
}

// 1. build and static checks: each counts as one test
if (want("build")) {
  const ok = run("node", ["scripts/build.mjs"]);
  record("build", ok ? 1 : 0, ok ? 0 : 1);
  if (!ok) finish();
}
if (want("static")) {
  for (const [name, cmd, args] of [
    ["prompts", "node", ["scripts/gen-prompts.mjs", "--check"]],
    ["typecheck", "pnpm", ["exec", "tsc", "-b"]],
    ["lint", "pnpm", ["exec", "eslint", "."]],
  ]) {
    const ok = run(cmd, args);
    record(name, ok ? 1 : 0, ok ? 0 : 1);
  }
}

// 2. vitest
if (want("unit")) {
  const out = path.join(resultsDir, "vitest.json");
  fs.rmSync(out, { force: true });
  const ok = run("pnpm", ["exec", "vitest", "run", "--passWithNoTests", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`]);
  const j = readJson(out);
  if (j) record("unit", j.numPassedTests, j.numFailedTests + (ok || j.numFailedTests ? 0 : 1), j.numPendingTests + j.numTodoTests);
  else record("unit", 0, 1, 0, "vitest produced no report");
}

// 3. Playwright end-to-end (browser mode in Debian Chromium)
if (want("e2e") && fs.existsSync(path.join(root, "e2e/playwright.config.ts"))) {
  const out = path.join(resultsDir, "playwright.json");
  fs.rmSync(out, { force: true });
  const ok = run("pnpm", ["exec", "playwright", "test", "-c", "e2e/playwright.config.ts", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  const j = readJson(out);
  if (j?.stats) {
    const s = j.stats;
    record("e2e", s.expected + (s.flaky ?? 0), s.unexpected + (ok || s.unexpected ? 0 : 1), s.skipped);
  } else record("e2e", 0, 1, 0, "playwright produced no report");
}

// 4. diffcheck against the reference agent's results on the real fixtures
if (want("diffcheck")) {
  const tool = path.join(root, "../shared/tools/diffcheck.mjs");
  if (!fs.existsSync(tool)) record("diffcheck", 0, 0, 1, "../shared/tools/diffcheck.mjs not found: skipped");
  else {
    console.log(`\n$ node ../shared/tools/diffcheck.mjs --jobs 2`);
    const r = spawnSync("node", [tool, "--jobs", "2"], { cwd: root, encoding: "utf8" });
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    const m = /(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/.exec(r.stdout.trim());
    if (m) record("diffcheck", +m[1], +m[2], +(m[3] ?? 0));
    else record("diffcheck", 0, 1, 0, "no summary line");
  }
}

finish();

function finish() {
  console.log("\nSummary");
  for (const l of lines) console.log(`  ${l}`);
  console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
  process.exit(totals.failed > 0 ? 1 : 0);
}
