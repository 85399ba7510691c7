#!/usr/bin/env node
// Builds what the tests and the app need:
//   node scripts/build.mjs        prompts + CLI bundle + desktop (electron-vite)
//   node scripts/build.mjs cli    prompts + CLI bundle only (fast, ~1 s)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const only = process.argv[2];

execFileSync(process.execPath, [path.join(root, "scripts/gen-prompts.mjs")], { stdio: "inherit" });

const entryPoints = { bonsai: path.join(root, "apps/cli/src/main.ts") };
const workerEntry = path.join(root, "packages/engine/src/worker/compaction-worker.ts");
if (fs.existsSync(workerEntry)) entryPoints["compaction-worker"] = workerEntry;

await build({
  entryPoints,
  outdir: path.join(root, "apps/cli/dist"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external: ["better-sqlite3", "electron"],
  banner: { js: "import { createRequire as __bonsaiCreateRequire } from 'node:module'; const require = __bonsaiCreateRequire(import.meta.url);" },
  logLevel: "warning",
});

if (only !== "cli" && fs.existsSync(path.join(root, "apps/desktop/electron.vite.config.ts"))) {
  execFileSync("pnpm", ["--filter", "@bonsai/desktop", "build"], { stdio: "inherit", cwd: root });
}
