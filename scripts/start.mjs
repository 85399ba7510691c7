#!/usr/bin/env node
// `pnpm start`: builds what is missing or stale, then
//   - runs the Electron app when an Electron binary is installed (and a display is available),
//     with better-sqlite3 built for Electron's ABI in .bonsai-dev/native/electron-<version>/
//     (passed to the app as BONSAI_NATIVE_BINDING; plain Node keeps its own build);
//   - otherwise starts browser mode (`bonsai serve`), says why, and prints/opens the address.
// Options: --browser (force browser mode), --rebuild (build even when up to date); other arguments
// go to `bonsai serve` (e.g. --port 8080 --no-open --data-dir DIR).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { electronForStart } from "./electron-binary.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const forceBrowser = args.includes("--browser");
const forceBuild = args.includes("--rebuild");
const serveArgs = args.filter((a) => a !== "--browser" && a !== "--rebuild");

const say = (msg) => console.log(`bonsai: ${msg}`);

if (Number(process.versions.node.split(".")[0]) < 24) {
  console.error(`bonsai: needs Node 24 or newer, not ${process.version}; start it as \`scripts/node24.sh pnpm start\``);
  process.exit(1);
}

// ------------------------------------------------------------------ build when needed
const outputs = ["apps/cli/dist/bonsai.mjs", "apps/desktop/out/renderer/index.html", "apps/desktop/out/main/index.js", "apps/desktop/out/preload/index.cjs"].map((p) => path.join(root, p));
const sources = ["packages", "apps/cli/src", "apps/desktop/src", "prompts"].map((p) => path.join(root, p));

function newestMtime(dir) {
  let newest = 0;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name === "dist-types" || e.name.startsWith(".")) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|css|html|md|sql)$/.test(e.name)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return newest;
}

const missing = outputs.filter((p) => !fs.existsSync(p));
const oldestOutput = missing.length ? 0 : Math.min(...outputs.map((p) => fs.statSync(p).mtimeMs));
const stale = !missing.length && Math.max(...sources.map(newestMtime)) > oldestOutput;
if (forceBuild || missing.length || stale) {
  say(missing.length ? "building the app (first start)…" : stale ? "sources changed since the last build: rebuilding…" : "rebuilding…");
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs")], { stdio: "inherit", cwd: root });
}

// ------------------------------------------------------------------ Electron or browser
// never `require("electron")`: that downloads the binary when it is absent, on every start
const electron = forceBrowser ? { binary: null, reason: "--browser given" } : electronForStart(root);
const electronBinary = () => electron.binary;

function whyNotElectron() {
  if (!electron.binary) return electron.reason;
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return "no graphical display (DISPLAY / WAYLAND_DISPLAY unset)";
  return null;
}

/** better-sqlite3 for Electron's ABI, in its own folder so plain Node keeps the Node build. */
function electronNativeBinding() {
  const electronVersion = JSON.parse(fs.readFileSync(path.join(path.dirname(createRequire(path.join(root, "apps/desktop/package.json")).resolve("electron/package.json")), "package.json"), "utf8")).version;
  const sqliteVersion = JSON.parse(fs.readFileSync(createRequire(path.join(root, "packages/store/package.json")).resolve("better-sqlite3/package.json"), "utf8")).version;
  const dir = path.join(root, ".bonsai-dev/native", `electron-${electronVersion}-better-sqlite3-${sqliteVersion}`);
  const binding = path.join(dir, "node_modules/better-sqlite3/build/Release/better_sqlite3.node");
  if (fs.existsSync(binding)) return binding;
  say(`building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (once) into ${path.relative(root, dir)}…`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "bonsai-electron-native", private: true }));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const r = spawnSync(npm, ["install", `better-sqlite3@${sqliteVersion}`, "--no-save", "--no-audit", "--no-fund", "--runtime=electron", `--target=${electronVersion}`, "--disturl=https://electronjs.org/headers"], {
    cwd: dir,
    stdio: "inherit",
    env: { ...process.env, npm_config_runtime: "electron", npm_config_target: electronVersion, npm_config_disturl: "https://electronjs.org/headers" },
  });
  if (r.status !== 0 || !fs.existsSync(binding)) return null;
  return binding;
}

const reason = whyNotElectron();
if (reason === null) {
  const binding = electronNativeBinding();
  if (binding) {
    say("starting the desktop app (Electron)");
    const child = spawn(electronBinary(), [path.join(root, "apps/desktop")], { stdio: "inherit", env: { ...process.env, BONSAI_NATIVE_BINDING: binding } });
    child.on("exit", (code) => process.exit(code ?? 0));
  } else {
    startBrowserMode("better-sqlite3 could not be built for Electron (see the output above)");
  }
} else {
  startBrowserMode(reason);
}

function startBrowserMode(why) {
  say(`starting browser mode because ${why}.`);
  say("the same app runs in your browser, served by this machine only (127.0.0.1, private token).");
  const child = spawn(process.execPath, [path.join(root, "apps/cli/bin/bonsai.cjs"), "serve", ...serveArgs], { stdio: "inherit", cwd: root });
  // Ctrl-C reaches the whole process group (the server stops by itself); SIGTERM is passed on
  process.on("SIGINT", () => undefined);
  process.on("SIGTERM", () => child.kill("SIGTERM"));
  child.on("exit", (code) => process.exit(code ?? 0));
}
