#!/usr/bin/env node
// The `bonsai` command. The CLI is bundled to ../dist by `pnpm build` (scripts/build.mjs).
import { createRequire } from "node:module";

// Node's modules by require(): an ES module import of node:fs would build its namespace (and load
// file streams) on every start
const require = createRequire(import.meta.url);
const { existsSync } = require("node:fs");
const { fileURLToPath } = require("node:url");

const bundle = new URL("../dist/bonsai.mjs", import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  process.stderr.write("bonsai: the CLI is not built yet; run `pnpm build` in the Bonsai checkout first\n");
  process.exit(2);
}

// A read command on a stored session id (its first argument names no file) is tried in the stored
// reads' own bundle first, without loading the command line's (dist/stored-read.mjs parses the
// arguments and decides; it gives back anything it does not answer, and the command line runs it
// as usual). This only saves a stored read the command line's start.
const argv = process.argv.slice(2);
/** bytecode a function runs before V8 optimizes it, in an import (V8's default: 66 KiB) */
const IMPORT_INTERRUPT_BUDGET = 32 * 66 * 1024;
const READS = new Set(["context", "plan", "prune", "branch"]);
const first = argv.slice(1).find((a) => !a.startsWith("-"));
let status;
if (READS.has(argv[0]) && first !== undefined && !existsSync(first)) {
  const storedRead = await import(new URL("../dist/stored-read.mjs", import.meta.url).href);
  status = await storedRead.runStoredReadCommandLine(argv, storedRead.lazyProcessIo());
}
// `bonsai import` runs from its own bundle too (dist/import.cjs: one CommonJS module of what an
// import runs, loaded with its code cache by cached-bundle.mjs); it gives back help and mistakes in
// the arguments
if (argv[0] === "import") {
  const { loadBundle } = await import("./cached-bundle.mjs");
  const importOnly = loadBundle(fileURLToPath(new URL("../dist/import.cjs", import.meta.url)));
  // V8 optimizes a function once it has run a budget of bytecode, on a background thread whose CPU
  // a short import never wins back (the entry preview's function alone took 14 ms to optimize in an
  // append of 1,000 lines). 32 times the default budget: such an append optimizes nothing (about
  // 12 ms less CPU) and a 100,000-entry import the same functions a little later (its CPU the same).
  // Set once the bundle is loaded: V8's code caches (the bundle's, Node's own modules') are valid
  // only under the flags they were made with. docs/PERFORMANCE.md, thirteenth pass.
  require("node:v8").setFlagsFromString(`--interrupt-budget=${IMPORT_INTERRUPT_BUDGET}`);
  status = await importOnly.runImportCommandLine(argv, importOnly.lazyProcessIo());
}
if (status === undefined) await import(bundle.href);
else process.exitCode = status;
