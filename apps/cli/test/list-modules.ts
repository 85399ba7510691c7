/** Runs the built `bonsai` (bin/bonsai.mjs) as a user does, listing the CLI's own modules the process loaded. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const bin = path.join(root, "apps/cli/bin/bonsai.mjs");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `bonsai ...args` in `cwd` on the database `database` (HOME = cwd) */
export function run(cwd: string, database: string, ...args: string[]): Run {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd, env: { ...process.env, BONSAI_DB: database, BONSAI_DEBUG: "", HOME: cwd }, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * run() that also lists the CLI's own modules the process loaded, relative to apps/cli: ES modules
 * (a resolve hook logs them) and the CommonJS bundles bin/cached-bundle.mjs loads
 * (BONSAI_TRACE_BUNDLES logs them, with whether V8 took their code cache: `bundleCaches`)
 */
export function runListingModules(cwd: string, database: string, ...args: string[]): Run & { modules: string[]; bundleCaches: Record<string, string> } {
  const log = path.join(cwd, `modules-${Math.random().toString(36).slice(2)}.log`);
  const hook = `data:text/javascript,${encodeURIComponent(`import { appendFileSync } from "node:fs"; export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith("file:")) appendFileSync(${JSON.stringify(log)}, r.url + "\\n"); return r; }`)}`;
  const register = `data:text/javascript,${encodeURIComponent(`import { register } from "node:module"; register(${JSON.stringify(hook)});`)}`;
  const r = spawnSync(process.execPath, ["--import", register, bin, ...args], { encoding: "utf8", cwd, env: { ...process.env, BONSAI_DB: database, BONSAI_DEBUG: "", HOME: cwd, BONSAI_TRACE_BUNDLES: log } });
  const modules: string[] = [];
  const bundleCaches: Record<string, string> = {};
  for (const line of existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []) {
    const bundle = /^bundle (.+) cache=(\w+)$/.exec(line);
    const file = bundle ? (bundle[1] as string) : fileURLToPath(line);
    const name = path.relative(path.join(root, "apps/cli"), file);
    modules.push(name);
    if (bundle) bundleCaches[name] = bundle[2] as string;
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, modules, bundleCaches };
}

/** builds the CLI bundle (scripts/build.mjs cli) */
export function buildCli(): void {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
}
