#!/usr/bin/env node
// The `bonsai` command. The CLI is bundled to ../dist by `pnpm build` (scripts/build.mjs): the
// command line in dist/bonsai.mjs, each command's implementation in a chunk it loads when it runs.
// Node's compile cache (module.enableCompileCache) keeps the compiled bundle between runs.
"use strict";
const { existsSync } = require("node:fs");
const nodeModule = require("node:module");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const bundle = path.join(__dirname, "../dist/bonsai.mjs");

if (Number(process.versions.node.split(".")[0]) < 24) {
  process.stderr.write(`bonsai: needs Node 24 or newer, not ${process.version}; from the Bonsai checkout: scripts/node24.sh pnpm -s bonsai ...\n`);
  process.exitCode = 2;
} else if (!existsSync(bundle)) {
  process.stderr.write("bonsai: the CLI is not built yet; run `pnpm build` in the Bonsai checkout first\n");
  process.exitCode = 2;
} else {
  nodeModule.enableCompileCache();
  import(pathToFileURL(bundle).href).catch((err) => {
    process.stderr.write(`bonsai: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
