// Preloaded into every process the comparison measures (node --import): at exit, the process appends
// its own CPU time (user, system: all threads, microseconds) and peak resident memory (KB) to the
// file BONSAI_BENCH_USAGE names. Every measured command is a Node process, so this is exact and the
// same for each of them (bonsai, the floor, pi, and `node -e 0`).
import { appendFileSync } from "node:fs";

const out = process.env.BONSAI_BENCH_USAGE;
if (out) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    appendFileSync(out, `${JSON.stringify({ user: u.userCPUTime, system: u.systemCPUTime, maxRSS: u.maxRSS })}\n`);
  });
}
