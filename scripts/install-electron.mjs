#!/usr/bin/env node
// Runs after `pnpm install` (root postinstall): downloads the Electron binary for the desktop app
// where that is possible, and never fails the install where it is not (no internet, a proxy, CI
// with ELECTRON_SKIP_BINARY_DOWNLOAD=1). pnpm itself does not run Electron's own install script
// (pnpm-workspace.yaml ignores it) because that script fails the whole install when the download
// fails. Without the binary, `pnpm start` runs Bonsai in the browser instead and says why.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const note = (msg) => console.log(`bonsai: ${msg}`);

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  note("Electron binary download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD); `pnpm start` will use browser mode.");
  process.exit(0);
}

let installScript;
try {
  const pkg = createRequire(path.join(root, "apps/desktop/package.json")).resolve("electron/package.json");
  installScript = path.join(path.dirname(pkg), "install.js");
} catch {
  note("the electron package is not installed; `pnpm start` will use browser mode.");
  process.exit(0);
}
if (!fs.existsSync(installScript)) process.exit(0);

note("downloading the Electron binary (once)…");
const r = spawnSync(process.execPath, [installScript], { cwd: path.dirname(installScript), stdio: ["ignore", "inherit", "pipe"], encoding: "utf8", timeout: 15 * 60_000 });
if (r.status === 0) {
  note("Electron is ready: `pnpm start` opens the desktop app.");
} else {
  const why = r.error ? r.error.message : (r.stderr || "").trim().split("\n")[0] || `exit status ${r.status}`;
  note(`the Electron binary could not be downloaded (${why}).`);
  note("that is fine: `pnpm start` runs Bonsai in your browser instead. Re-run `pnpm install` when you have a connection to get the desktop app.");
}
process.exit(0);
