// Preloaded into every process the comparison measures (node --require): at exit, the process
// appends its own CPU time (user, system: all threads, microseconds) and peak resident memory (KB) to
// the file BONSAI_BENCH_USAGE names. Every measured command is a Node process, so this is exact and
// the same for each of them (bonsai, the floor, pi, and `node -e 0`). It is CommonJS: an ES module
// preload (--import) would load Node's ES module loader into every process, `node -e 0` included,
// which a user's start of a CommonJS entry never loads.
"use strict";
const { appendFileSync } = require("node:fs");

const out = process.env.BONSAI_BENCH_USAGE;
if (out) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    appendFileSync(out, `${JSON.stringify({ user: u.userCPUTime, system: u.systemCPUTime, maxRSS: u.maxRSS })}\n`);
  });
}
