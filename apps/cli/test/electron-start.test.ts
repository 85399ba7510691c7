/**
 * `pnpm start` without an Electron binary: the download is decided once (scripts/electron-binary.mjs,
 * shared with the postinstall scripts/install-electron.mjs), remembered, and never tried again by a
 * start; the reason and how to retry are said. Runs the real scripts against a checkout-shaped
 * folder whose electron package's install.js fails the way an offline machine does (and counts runs).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bonsai-electron-start-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Decision {
  binary: string | null;
  reason: string | null;
}

/** a folder laid out like a checkout: apps/desktop with an electron package whose install.js fails (or succeeds) */
function checkout(name: string, install: "fails" | "succeeds"): { dir: string; runs: () => number } {
  const dir = path.join(tmp, name);
  const pkg = path.join(dir, "apps/desktop/node_modules/electron");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(dir, "apps/desktop/package.json"), JSON.stringify({ name: "desktop", private: true }));
  writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "electron", version: "0.0.0-test", main: "index.js" }));
  // electron's index.js downloads when required: here it leaves a trace instead
  writeFileSync(path.join(pkg, "index.js"), `require("fs").appendFileSync(${JSON.stringify(path.join(dir, "required"))}, "x"); module.exports = "";`);
  const count = path.join(dir, "install-runs");
  const body =
    install === "fails"
      ? `console.error("Downloading Electron binary... TypeError: fetch failed"); process.exit(1);`
      : `const fs = require("fs"); fs.mkdirSync(__dirname + "/dist", { recursive: true }); fs.writeFileSync(__dirname + "/dist/electron", ""); fs.writeFileSync(__dirname + "/path.txt", "electron");`;
  writeFileSync(path.join(pkg, "install.js"), `require("fs").appendFileSync(${JSON.stringify(count)}, "x");\n${body}\n`);
  return { dir, runs: () => (existsSync(count) ? readFileSync(count, "utf8").length : 0) };
}

/** what `pnpm start` decides, run in its own process as start.mjs runs it */
function decide(dir: string, env: Record<string, string | undefined> = {}): Decision {
  const moduleUrl = pathToFileURL(path.join(root, "scripts/electron-binary.mjs")).href;
  const code = `import(${JSON.stringify(moduleUrl)}).then((m) => console.log(JSON.stringify(m.electronForStart(${JSON.stringify(dir)}))))`;
  const { ELECTRON_SKIP_BINARY_DOWNLOAD: _skip, ...base } = process.env;
  const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8", env: { ...base, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "null") as Decision;
}

describe("pnpm start and the Electron binary", () => {
  it("a failed download is tried once, remembered, and not tried again by later starts; the reason says how to retry", () => {
    const { dir, runs } = checkout("offline", "fails");
    const first = decide(dir);
    expect(first.binary).toBeNull();
    expect(runs()).toBe(1);
    expect(first.reason).toContain("fetch failed");
    expect(first.reason).toContain("pnpm run install-electron");
    for (let i = 0; i < 3; i++) {
      const again = decide(dir);
      expect(again.binary).toBeNull();
      expect(again.reason).toContain("pnpm run install-electron");
    }
    expect(runs()).toBe(1);
    // electron's index.js (which downloads when required) is never loaded
    expect(existsSync(path.join(dir, "required"))).toBe(false);
  });

  it("the postinstall's failed attempt counts as the one attempt; running it again (the retry) tries again", () => {
    const { dir, runs } = checkout("postinstall", "fails");
    // install-electron.mjs works on its own checkout: run a copy placed in this folder's scripts/
    mkdirSync(path.join(dir, "scripts"), { recursive: true });
    for (const f of ["install-electron.mjs", "electron-binary.mjs"]) writeFileSync(path.join(dir, "scripts", f), readFileSync(path.join(root, "scripts", f)));
    const { ELECTRON_SKIP_BINARY_DOWNLOAD: _skip, ...base } = process.env;
    const install = () => spawnSync(process.execPath, [path.join(dir, "scripts/install-electron.mjs")], { encoding: "utf8", env: base });
    const r = install();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("could not be downloaded");
    expect(runs()).toBe(1);
    expect(decide(dir).binary).toBeNull();
    expect(runs()).toBe(1);
    install();
    expect(runs()).toBe(2);
  });

  it("ELECTRON_SKIP_BINARY_DOWNLOAD: no download, by a start or by the postinstall, and the reason names it", () => {
    const { dir, runs } = checkout("skip", "fails");
    const out = decide(dir, { ELECTRON_SKIP_BINARY_DOWNLOAD: "1" });
    expect(out).toEqual({ binary: null, reason: expect.stringContaining("ELECTRON_SKIP_BINARY_DOWNLOAD") });
    expect(runs()).toBe(0);
  });

  it("a download that works gives the binary, and later starts use it without downloading", () => {
    const { dir, runs } = checkout("online", "succeeds");
    const first = decide(dir);
    expect(first.binary).toBe(path.join(dir, "apps/desktop/node_modules/electron/dist/electron"));
    expect(decide(dir).binary).toBe(first.binary);
    expect(runs()).toBe(1);
  });
});
