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
