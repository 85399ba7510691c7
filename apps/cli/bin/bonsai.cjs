#!/usr/bin/env node
// The `bonsai` command. The CLI is bundled to ../dist by `pnpm build` (scripts/build.mjs).
// This entry is CommonJS: a start that runs from a CommonJS bundle (an import, a read of a stored
// session) then never loads Node's ES module loader, which an ES module entry loads first (about
// 7 ms of CPU a start; docs/PERFORMANCE.md, fifteenth pass). bin/bonsai.mjs runs this same entry.
"use strict";
const { existsSync } = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const dist = path.join(__dirname, "../dist");
const bundle = path.join(dist, "bonsai.mjs");

/** bytecode a function runs before V8 optimizes it, in an import (V8's default: 66 KiB) */
const IMPORT_INTERRUPT_BUDGET = 32 * 66 * 1024;
const READS = new Set(["context", "plan", "prune", "branch"]);

/** The command's exit status, or undefined when the command line's bundle is to run it. */
async function runFromOwnBundle(argv) {
  // A read command on a stored session id (its first argument names no file) is tried in the stored
  // reads' own bundle first, without loading the command line's (dist/stored-read.cjs, loaded with
  // its code cache, parses the arguments and decides; it gives back anything it does not answer,
  // and the command line runs it as usual). This only saves a stored read the command line's start.
  const first = argv.slice(1).find((a) => !a.startsWith("-"));
  if (READS.has(argv[0]) && first !== undefined && !existsSync(first)) {
    const storedRead = require("./cached-bundle.cjs").loadBundle(path.join(dist, "stored-read.cjs"));
    const status = await storedRead.runStoredReadCommandLine(argv, storedRead.lazyProcessIo());
    if (status !== undefined) return status;
  }
  // `bonsai import` runs from its own bundle too (dist/import.cjs: one CommonJS module of what an
  // import runs, loaded with its code cache by cached-bundle.cjs); it gives back help and mistakes
  // in the arguments
  if (argv[0] === "import") {
    const importOnly = require("./cached-bundle.cjs").loadBundle(path.join(dist, "import.cjs"));
    // Two of V8's settings, set once the bundle is loaded (V8's code caches, the bundle's and Node's
    // own modules', are valid only under the flags they were made with):
    // - V8 optimizes a function once it has run a budget of bytecode, on a background thread whose
    //   CPU a short import never wins back (the entry preview's function alone took 14 ms to
    //   optimize in an append of 1,000 lines). 32 times the default budget: such an append
    //   optimizes nothing (about 12 ms less CPU) and a 100,000-entry import the same functions a
    //   little later (its CPU the same). docs/PERFORMANCE.md, thirteenth pass.
    // - The young generation stops growing: V8 doubles it after each scavenge that finds it full,
    //   and each doubling touches fresh pages, one page fault each; at its size the import's
    //   short-lived values (each line's parse, its derived columns) reuse the same memory (about
    //   490 fewer page faults in an append of 1,000 lines: 9-11 ms less CPU; a 100,000-entry import
    //   no slower). docs/PERFORMANCE.md, fifteenth pass.
    require("node:v8").setFlagsFromString(`--interrupt-budget=${IMPORT_INTERRUPT_BUDGET} --semi-space-growth-factor=1`);
    return importOnly.runImportCommandLine(argv, importOnly.lazyProcessIo());
  }
  return undefined;
}

async function main() {
  if (!existsSync(bundle)) {
    process.stderr.write("bonsai: the CLI is not built yet; run `pnpm build` in the Bonsai checkout first\n");
    return 2;
  }
  const status = await runFromOwnBundle(process.argv.slice(2));
  if (status !== undefined) return status;
  await import(pathToFileURL(bundle).href);
  return undefined;
}

main().then(
  (status) => {
    if (status !== undefined) process.exitCode = status;
  },
  (err) => {
    process.stderr.write(`bonsai: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
