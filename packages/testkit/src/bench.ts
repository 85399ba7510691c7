/**
 * Small helpers for `pnpm bench` benchmark files (packages/<pkg>/bench/*.bench.ts): timing,
 * peak memory, running one case per child process, and printing a Markdown table.
 */
import { spawnSync } from "node:child_process";

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export interface Timing<T> {
  /** median wall time, ms */
  ms: number;
  /** median CPU time (user + system, all threads of the process), ms: steadier than wall time on a busy machine */
  cpuMs: number;
  result: T;
}

/** Runs `fn` `repeats` times; returns the median wall and CPU times in ms and the last result. */
export function timeMedian<T>(fn: () => T, repeats: number): Timing<T> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let result: T | undefined;
  for (let i = 0; i < Math.max(1, repeats); i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    result = fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: median(wall), cpuMs: median(cpu), result: result as T };
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** A Markdown table; numbers are printed as given (format them first). */
export function markdownTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]): string => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The value following `--name` on this process's command line. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * Runs `file` (a .ts benchmark) in a fresh `node --import tsx` process with `args`, and returns the
 * JSON object it printed on its last stdout line. Each case then has its own peak memory.
 */
export function runBenchChild<T>(file: string, args: readonly string[]): T {
  const result = spawnSync(process.execPath, ["--import", "tsx", file, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`benchmark child ${args.join(" ")} failed (exit ${result.status ?? result.signal}): ${result.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  }
  const lines = result.stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1] ?? "null") as T;
}
