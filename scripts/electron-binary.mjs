// Where the desktop app's Electron binary is, and the one decision about downloading it.
// `require("electron")` downloads the binary when it is absent (electron's index.js), so nothing
// here requires it: the binary is found from the package's path.txt. A download is tried by
// scripts/install-electron.mjs (the root postinstall, or `pnpm run install-electron` to retry),
// whose outcome is remembered in .bonsai-dev/electron-download.json; `pnpm start` tries one only
// when no attempt was ever made, and otherwise says what happened and how to retry.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

export const RETRY_COMMAND = "pnpm run install-electron";

/** the electron package's folder, or null when the package is not installed */
export function electronPackageDir(root) {
  try {
    return path.dirname(createRequire(path.join(root, "apps/desktop/package.json")).resolve("electron/package.json"));
  } catch {
    return null;
  }
}

/** the installed Electron executable, or null (never downloads) */
export function installedElectronBinary(root, env = process.env) {
  const dir = electronPackageDir(root);
  if (!dir) return null;
  const pathFile = path.join(dir, "path.txt");
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, "utf8").trim() : "";
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const bin = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || "electron");
    return fs.existsSync(bin) ? bin : null;
  }
  if (!relative) return null;
  const bin = path.join(dir, "dist", relative);
  return fs.existsSync(bin) ? bin : null;
}

const recordFile = (root) => path.join(root, ".bonsai-dev/electron-download.json");

/** the last download attempt ({ok, reason, at}), or null when none was made */
export function lastDownloadAttempt(root) {
  try {
    const value = JSON.parse(fs.readFileSync(recordFile(root), "utf8"));
    return value && typeof value === "object" && typeof value.ok === "boolean" ? value : null;
  } catch {
    return null;
  }
}

function remember(root, attempt) {
  fs.mkdirSync(path.dirname(recordFile(root)), { recursive: true });
  fs.writeFileSync(recordFile(root), `${JSON.stringify(attempt)}\n`);
  return attempt;
}

/**
 * Tries to download the binary once (electron's own install.js) and remembers the outcome.
 * ELECTRON_SKIP_BINARY_DOWNLOAD skips it (nothing remembered: the variable decides each time).
 * Returns {ok, reason}; reason is null on success.
 */
export function downloadElectron(root, env = process.env) {
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) return { ok: false, reason: "ELECTRON_SKIP_BINARY_DOWNLOAD is set" };
  const dir = electronPackageDir(root);
  if (!dir) return { ok: false, reason: "the electron package is not installed" };
  const installScript = path.join(dir, "install.js");
  if (!fs.existsSync(installScript)) return remember(root, { ok: false, reason: "the electron package has no install script", at: new Date().toISOString() });
  const r = spawnSync(process.execPath, [installScript], { cwd: dir, env, stdio: ["ignore", "inherit", "pipe"], encoding: "utf8", timeout: 15 * 60_000 });
  const ok = r.status === 0 && installedElectronBinary(root, env) !== null;
  const firstErrorLine = (r.stderr || "").split("\n").find((l) => /error|fail/i.test(l)) ?? (r.stderr || "").trim().split("\n")[0];
  const reason = ok ? null : r.error ? r.error.message : (firstErrorLine || "").trim() || `exit status ${r.status}`;
  return remember(root, { ok, reason, at: new Date().toISOString() });
}

/**
 * For `pnpm start`: the binary to run, or why there is none. Downloads only when no attempt was
 * ever remembered (and ELECTRON_SKIP_BINARY_DOWNLOAD is unset).
 */
export function electronForStart(root, env = process.env) {
  const bin = installedElectronBinary(root, env);
  if (bin) return { binary: bin, reason: null };
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) return { binary: null, reason: "no Electron binary is installed (ELECTRON_SKIP_BINARY_DOWNLOAD is set)" };
  if (!electronPackageDir(root)) return { binary: null, reason: "the electron package is not installed" };
  const before = lastDownloadAttempt(root);
  const attempt = before ?? downloadElectron(root, env);
  const now = installedElectronBinary(root, env);
  if (now) return { binary: now, reason: null };
  const what = attempt.ok ? "it was downloaded before but is missing now" : `its download failed${before ? ` on ${before.at ?? "an earlier start"}` : ""}: ${attempt.reason}`;
  return { binary: null, reason: `no Electron binary is installed (${what}; run \`${RETRY_COMMAND}\` to try again)` };
}
