/** Runs the built `bonsai` (bin/bonsai.cjs) as a user does, in a folder of its own with its own database. */
import { spawnSync } from "node:child_process";
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

/** builds the CLI bundle (scripts/build.mjs cli) */
export function buildCli(): void {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
}
