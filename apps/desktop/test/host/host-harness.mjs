/**
 * Runs the built desktop host (out/main/index.js, out/preload/index.cjs) under Node with the
 * electron stand-in (run with `node --import ./register-stand-in.mjs host-harness.mjs <outDir>`),
 * drives it as Electron would, and prints what it saw as one JSON line for host.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as electron from "electron";

const outDir = path.resolve(process.argv[2]);
const urlsToTry = JSON.parse(process.argv[3]);
const methodNames = JSON.parse(process.argv[4]);
const rec = globalThis.electronStandIn;

async function until(check, what) {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// a page that fails to load rejects loadURL, which the host leaves unhandled: recorded, not fatal
const unhandled = [];
process.on("unhandledRejection", (reason) => unhandled.push(reason instanceof Error ? reason.message : String(reason)));

await import(pathToFileURL(path.join(outDir, "main/index.js")).href);
await until(() => rec.windows.length > 0 && rec.ipcHandlers.size > 0, "the window and the IPC handler");
const win = rec.windows[0];
const contents = win.webContents;
const appUrl = win.loadedUrl;

// navigation and new-window guards
const guards = {};
for (const url of urlsToTry) {
  const event = { prevented: false, preventDefault() { this.prevented = true; } };
  contents.emit("will-navigate", event, url);
  const opened = (rec.openedExternal ?? []).length;
  const action = contents.windowOpenHandler({ url }).action;
  guards[url] = { navigationAllowed: !event.prevented, windowAllowed: action !== "deny", openedExternally: (rec.openedExternal ?? []).length > opened };
}

// every contract method through main's handler, from a foreign frame and from the app's page
const calls = {};
for (const [channel, handler] of rec.ipcHandlers) {
  for (const method of methodNames) {
    const foreign = await handler({ senderFrame: { url: "http://localhost:5173.evil.example/" } }, method, "not-valid-params");
    const own = await handler({ senderFrame: { url: appUrl } }, method, "not-valid-params");
    calls[method] = { channel, foreign: foreign.ok ? "ok" : foreign.error.code, own: own.ok ? "ok" : own.error.code };
  }
}

// every menu item with a click: what it sends to the window
const menuSends = [];
const labels = [];
function walk(items) {
  for (const item of items ?? []) {
    if (item.label) labels.push(item.label);
    if (item.role) labels.push(`role:${item.role}`);
    if (typeof item.click === "function") {
      const before = { sent: rec.sent.length, opened: (rec.openedPaths ?? []).length, windows: rec.windows.length };
      item.click();
      menuSends.push({
        label: item.label,
        sent: rec.sent.slice(before.sent).map((m) => [m[1], m[2]]),
        openedPaths: (rec.openedPaths ?? []).slice(before.opened),
        windowsOpened: rec.windows.slice(before.windows).map((w) => w.loadedUrl),
      });
    }
    if (Array.isArray(item.submenu)) walk(item.submenu);
  }
}
walk(rec.menuTemplate);

// Help's folders when the system cannot open them: the window is told
rec.openPathError = "no application is registered for folders";
const helpItems = rec.menuTemplate.find((m) => m.role === "help")?.submenu ?? [];
const failedFolders = [];
for (const label of ["Open Data Folder", "Show Logs"]) {
  const before = rec.sent.length;
  helpItems.find((i) => i.label === label)?.click();
  await new Promise((r) => setTimeout(r, 20));
  failedFolders.push([label, rec.sent.slice(before).map((m) => [m[1], m[2]])]);
}
delete rec.openPathError;

// "Connect to Team Archive…": a window of its own, and where it may go
const archiveWin = rec.windows.find((w) => w !== win && String(w.loadedUrl).endsWith("#connect-archive"));
let archiveWindow = null;
if (archiveWin) {
  if (String(archiveWin.loadedUrl).startsWith("app:")) await until(() => archiveWin.loaded !== undefined, "the archive window's page");
  const navigate = (url) => {
    const event = { prevented: false, preventDefault() { this.prevented = true; } };
    archiveWin.webContents.emit("will-navigate", event, url);
    return !event.prevented;
  };
  const { session: s, ...prefs } = archiveWin.options.webPreferences;
  archiveWindow = {
    loadedUrl: archiveWin.loadedUrl,
    // what its page's load got from the window's own session (a status, or Electron's error)
    loaded: archiveWin.loaded ?? null,
    loadedCsp: /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(archiveWin.loadedBody ?? "")?.[1] ?? null,
    webPreferences: prefs,
    partition: s?.partition ?? null,
    permissionCheck: s?.permissionCheckHandler?.() ?? null,
    // the first web address it goes to is its archive; then it stays there
    navigation: ["file:///etc/passwd", "https://archive.example/?token=t", "https://archive.example/x", "https://evil.example/"].map((url) => [url, navigate(url)]),
    // the app's own window may still not go to the archive
    mainWindowToArchive: (() => {
      const event = { prevented: false, preventDefault() { this.prevented = true; } };
      win.webContents.emit("will-navigate", event, "https://archive.example/");
      return !event.prevented;
    })(),
  };
}

// File → Import's dialog picks a session file (BONSAI_HOST_IMPORT_FILE): once imported, it is a recent document
let dialogImport = null;
if (process.env.BONSAI_HOST_IMPORT_FILE) {
  rec.openDialogAnswer = [process.env.BONSAI_HOST_IMPORT_FILE];
  const [handler] = rec.ipcHandlers.values();
  const result = await handler({ senderFrame: { url: appUrl } }, "importFromDialog", { requestId: "host-import" });
  dialogImport = { ok: result.ok, imported: result.ok ? result.value.results.map((r) => [r.source, r.ok]) : result.error.message, recentDocuments: [...rec.recentDocuments] };
}

// the preload, as Electron's sandboxed preload runs it: a CommonJS function with a limited require
const preloadCode = fs.readFileSync(path.join(outDir, "preload/index.cjs"), "utf8");
const preloadModule = { exports: {} };
new Function("require", "module", "exports", preloadCode)((id) => {
  if (id === "electron") return electron;
  throw new Error(`the preload required ${id}: a sandboxed preload may require only electron`);
}, preloadModule, preloadModule.exports);
const exposed = Object.fromEntries([...rec.exposed].map(([key, api]) => [key, Object.keys(api).sort()]));
// a dropped file's path comes from webUtils.getPathForFile
const droppedPath = rec.exposed.get("bonsaiFiles")?.pathForFile({ name: "dropped.jsonl", standInPath: "/home/me/dropped.jsonl" }) ?? null;
const pathForFile = { droppedPath, asked: rec.pathsAsked ?? [] };

// the custom protocol: the index page is served, a path out of the folder is not
const handler = rec.protocolHandlers.get("app");
const served = handler ? (await handler(new Request(appUrl))).status : null;
const escaped = handler ? (await handler(new Request("app://bonsai/..%2f..%2fpackage.json"))).status : null;

// quitting closes the backend
const child = rec.children[0];
const childExited = new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
const beforeQuit = { prevented: false, preventDefault() { this.prevented = true; } };
electron.app.emit("before-quit", beforeQuit);
await until(() => rec.exitCode !== null, "app.exit after before-quit");
const backendExit = await Promise.race([childExited, new Promise((r) => setTimeout(() => r("still running"), 10_000))]);

const report = {
  webPreferences: win.options.webPreferences,
  icon: win.options.icon ?? null,
  appUrl,
  schemes: rec.schemes,
  guards,
  calls,
  menuSends,
  labels,
  exposed,
  pathForFile,
  served,
  escaped,
  quit: { prevented: beforeQuit.prevented, exitCode: rec.exitCode, backendExit },
  permissionCheck: rec.permissionCheckHandler?.(),
  archiveWindow,
  unhandled,
  dialogImport,
  failedFolders,
  paths: { userData: electron.app.getPath("userData"), logs: electron.app.getPath("logs") },
};
process.stdout.write(`${JSON.stringify(report)}\n`);
if (child.exitCode === null) child.kill();
process.exit(0);
