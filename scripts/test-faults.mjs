#!/usr/bin/env node
// `pnpm test:faults`: the fault suite at full size (docs/RELIABILITY.md): live-agent races and
// kill -9 at every point of the file protocols, 30+ trials each, through the store and the built
// CLI, a `bonsai push` killed and repeated against a real PostgreSQL, plus the browser-mode capability checks. `pnpm test` runs the same files at a bounded size.
// Figures: .test-results/faults-full.json. Last line: "N passed, N failed".
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, ".test-results", "vitest-faults.json");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.rmSync(out, { force: true });
fs.rmSync(path.join(root, ".test-results", "faults-full.json"), { force: true });
fs.rmSync(path.join(root, ".test-results", "faults-full.json.lock"), { recursive: true, force: true });

const build = spawnSync("node", ["scripts/build.mjs", "cli"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const files = ["packages/store/test/faults", "apps/cli/test/faults.test.ts", "apps/cli/test/disk-full-commands.test.ts", "apps/cli/test/push-faults.test.ts", "packages/backend/test/two-writers.test.ts", "packages/backend/test/capabilities.test.ts"].filter((f) => fs.existsSync(path.join(root, f)));
// the files run side by side: their trials mostly wait (the agent's pace, settle and line waits)
const r = spawnSync("pnpm", ["exec", "vitest", "run", ...files, "--maxWorkers=4", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, BONSAI_FAULTS: "full" },
});
let passed = 0;
let failed = r.status === 0 ? 0 : 1;
try {
  const j = JSON.parse(fs.readFileSync(out, "utf8"));
  passed = j.numPassedTests;
  failed = j.numFailedTests + (r.status === 0 || j.numFailedTests ? 0 : 1);
} catch {
  // no report: counted as one failure above
}
console.log(`\nfigures: ${path.relative(root, path.join(root, ".test-results", "faults-full.json"))}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
