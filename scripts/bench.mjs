#!/usr/bin/env node
// `pnpm bench`: runs every benchmark file, each in its own Node process (so that peak memory is per
// benchmark), and prints what they print (their tables).
//
//   pnpm bench                 every packages/*/bench/*.bench.ts and apps/*/bench/*.bench.ts, then
//                              the browser benchmarks (e2e/bench/*.bench.ts: explorer, what-if;
//                              Playwright in Chromium against `bonsai serve`; the app is built first if needed)
//   pnpm bench core store      only files whose path contains one of the words
//
// Benchmarks are TypeScript run with `node --import tsx`. A benchmark that exits non-zero is
// reported and makes the run exit 1; the others still run.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const filters = process.argv.slice(2);

function benchFiles() {
  const files = [];
  for (const group of ["packages", "apps"]) {
    const groupDir = path.join(root, group);
    if (!fs.existsSync(groupDir)) continue;
    for (const pkg of fs.readdirSync(groupDir).sort()) {
      const dir = path.join(groupDir, pkg, "bench");
      if (!fs.existsSync(dir)) continue;
      for (const name of fs.readdirSync(dir).sort()) {
        if (name.endsWith(".bench.ts")) files.push(path.join(dir, name));
      }
    }
  }
  const e2eBench = path.join(root, "e2e", "bench");
  if (fs.existsSync(e2eBench)) for (const name of fs.readdirSync(e2eBench).sort()) if (name.endsWith(".bench.ts")) files.push(path.join(e2eBench, name));
  return files.filter((f) => filters.length === 0 || filters.some((w) => path.relative(root, f).includes(w)));
}

/** The e2e benchmarks (explorer, what-if) drive the built app in a browser: build it when it is not built. */
function runInBrowser(file) {
  const built = ["apps/cli/dist/bonsai.mjs", "apps/desktop/out/renderer/index.html"].every((f) => fs.existsSync(path.join(root, f)));
  if (!built) {
    console.log("(building the app first: pnpm build)");
    const b = spawnSync("pnpm", ["build"], { cwd: root, stdio: "inherit" });
    if (b.status !== 0) return b;
  }
  return spawnSync("pnpm", ["exec", "playwright", "test", "-c", "e2e/bench/playwright.config.ts", "--project", "chromium", "--reporter=list", path.relative(root, file)], { cwd: root, stdio: "inherit" });
}

const files = benchFiles();
if (files.length === 0) {
  console.error(filters.length ? `bench: no benchmark matches ${filters.join(", ")}` : "bench: no benchmark files found");
  process.exit(1);
}

const failed = [];
for (const file of files) {
  const rel = path.relative(root, file);
  console.log(`\n## ${rel}\n`);
  const started = Date.now();
  const result = rel.startsWith("e2e")
    ? runInBrowser(file)
    : spawnSync(process.execPath, ["--import", "tsx", file], { cwd: root, stdio: "inherit", env: { ...process.env, BONSAI_BENCH: "1" } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failed.push(rel);
    console.log(`\n${rel} FAILED (exit ${result.status ?? result.signal}) after ${seconds} s`);
  } else {
    console.log(`\n(${rel}: ${seconds} s)`);
  }
}
console.log(`\n${files.length - failed.length} benchmark files passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
