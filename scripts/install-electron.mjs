#!/usr/bin/env node
// Runs after `pnpm install` (root postinstall): downloads the Electron binary for the desktop app
// where that is possible, and never fails the install where it is not (no internet, a proxy, CI
// with ELECTRON_SKIP_BINARY_DOWNLOAD=1). pnpm itself does not run Electron's own install script
// (pnpm-workspace.yaml ignores it) because that script fails the whole install when the download
// fails. Without the binary, `pnpm start` runs Bonsai in the browser instead and says why. The
// outcome is remembered (scripts/electron-binary.mjs); `pnpm run install-electron` tries again.
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { downloadElectron, electronPackageDir, installedElectronBinary } from "./electron-binary.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const note = (msg) => console.log(`bonsai: ${msg}`);

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  note("Electron binary download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD); `pnpm start` will use browser mode.");
  process.exit(0);
}
if (!electronPackageDir(root)) {
  note("the electron package is not installed; `pnpm start` will use browser mode.");
  process.exit(0);
}
if (installedElectronBinary(root)) {
  note("Electron is ready: `pnpm start` opens the desktop app.");
  process.exit(0);
}

note("downloading the Electron binary (once)…");
const attempt = downloadElectron(root);
if (attempt.ok) {
  note("Electron is ready: `pnpm start` opens the desktop app.");
} else {
  note(`the Electron binary could not be downloaded (${attempt.reason}).`);
  note("that is fine: `pnpm start` runs Bonsai in your browser instead and does not try again by itself; run `pnpm run install-electron` when you have a connection to get the desktop app.");
}
process.exit(0);
