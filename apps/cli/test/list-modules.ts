/** Runs the built `bonsai` (bin/bonsai.cjs) as a user does, listing the CLI's own modules the process loaded. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const bin = path.join(root, "apps/cli/bin/bonsai.cjs");

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
 * run() of `options.entry` (bin/bonsai.cjs by default) that also lists Node's own modules the process
 * loaded after its start (`process.moduleLoadList`, written at exit by a CommonJS preload, which
 * itself loads nothing). `options.stdio`: "ignore" sends that stream to the null device.
 */
export function runListingBuiltins(
  cwd: string,
  database: string,
  args: readonly string[],
  options: { entry?: string; stdio?: ("pipe" | "ignore")[] } = {},
): Run & { builtins: string[] } {
  const name = Math.random().toString(36).slice(2);
  const log = path.join(cwd, `builtins-${name}.json`);
  const preload = path.join(cwd, `builtins-${name}.cjs`);
  writeFileSync(preload, `const before = new Set(process.moduleLoadList); process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(log)}, JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m)))));`);
  const r = spawnSync(process.execPath, ["--require", preload, options.entry ?? bin, ...args], {
    encoding: "utf8",
    cwd,
    env: { ...process.env, BONSAI_DB: database, BONSAI_DEBUG: "", HOME: cwd },
    stdio: (options.stdio ?? ["ignore", "pipe", "pipe"]) as ["ignore", "pipe", "pipe"],
  });
  rmSync(preload, { force: true });
  return { code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "", builtins: JSON.parse(readFileSync(log, "utf8")) as string[] };
}

/**
 * A preload that logs, one line each, the CLI's own files the process loads: CommonJS files as
 * Node's loader reads them, ES modules as a resolve hook (registered from the preload) sees them.
 * It is CommonJS itself (`--require`): with an ES module preload (`--import`), Node would run the
 * entry through its ES module loader, not as a user's start runs it.
 */
const PRELOAD = `
const { appendFileSync } = require("node:fs");
const Module = require("node:module");
const log = process.env.BONSAI_LIST_MODULES_LOG;
const NEWLINE = String.fromCharCode(10);
const load = Module.prototype.load;
Module.prototype.load = function (filename) {
  appendFileSync(log, "file://" + filename + NEWLINE);
  return load.call(this, filename);
};
const hook = "import { appendFileSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith('file:')) appendFileSync(" + JSON.stringify(log) + ", r.url + String.fromCharCode(10)); return r; }";
Module.register("data:text/javascript," + encodeURIComponent(hook));
`;

/**
 * run() that also lists the CLI's own modules the process loaded, relative to apps/cli, in the order
 * they were loaded: CommonJS files, ES modules, and the CommonJS bundles bin/cached-bundle.cjs
 * loads (BONSAI_TRACE_BUNDLES logs them, with whether V8 took their code cache: `bundleCaches`).
 * Files of dependencies (node_modules) are left out.
 */
export function runListingModules(cwd: string, database: string, ...args: string[]): Run & { modules: string[]; bundleCaches: Record<string, string> } {
  const log = path.join(cwd, `modules-${Math.random().toString(36).slice(2)}.log`);
  const preload = path.join(cwd, `list-modules-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(preload, PRELOAD);
  const r = spawnSync(process.execPath, ["--require", preload, bin, ...args], { encoding: "utf8", cwd, env: { ...process.env, BONSAI_DB: database, BONSAI_DEBUG: "", HOME: cwd, BONSAI_TRACE_BUNDLES: log, BONSAI_LIST_MODULES_LOG: log } });
  rmSync(preload, { force: true });
  const modules: string[] = [];
  const bundleCaches: Record<string, string> = {};
  for (const line of existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []) {
    if (line === "") continue;
    const bundle = /^bundle (.+) cache=(\w+)$/.exec(line);
    const file = bundle ? (bundle[1] as string) : fileURLToPath(line);
    const name = path.relative(path.join(root, "apps/cli"), file);
    if (name.split(path.sep).includes("node_modules")) continue;
    if (modules.at(-1) !== name) modules.push(name);
    if (bundle) bundleCaches[name] = bundle[2] as string;
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, modules, bundleCaches };
}

/** builds the CLI bundle (scripts/build.mjs cli) */
export function buildCli(): void {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
}

/**
 * The size of a code cache of the built bundle dist/NAME.cjs's top level alone (what its cache
 * would be without the build's warm-up): written for a copy of the bundle, which is then removed.
 */
export function topLevelCacheSize(name: string): number {
  const bundle = path.join(root, "apps/cli/dist", `${name}.cjs`);
  const copy = path.join(root, "apps/cli/dist", `${name}-cold-${process.pid}.cjs`);
  try {
    writeFileSync(copy, readFileSync(bundle));
    const cold = spawnSync(process.execPath, [path.join(root, "apps/cli/bin/cached-bundle.cjs"), "--write-cache", copy], { encoding: "utf8" });
    if (cold.status !== 0) throw new Error(`cached-bundle.cjs --write-cache ${copy}: ${cold.stderr}`);
    return readFileSync(`${copy}.cache`).length;
  } finally {
    rmSync(copy, { force: true });
    rmSync(`${copy}.cache`, { force: true });
  }
}
