/**
 * The Electron main process: one window, the application menu, the security policy of Electron's
 * checklist (context isolation, sandbox, no Node in the renderer, CSP, no navigation, no new
 * windows, no permissions), and the bridge between the window and the backend. The backend (store
 * + engine, with the engine's compaction worker threads) runs in a utility process
 * (backend-host.ts), so SQLite and long work never block this process; main answers what only it
 * can do: native file dialogs and the OS keychain. The renderer reaches the backend only through
 * the preload's contract functions.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, utilityProcess } from "electron";
import { windowIcon } from "./app-icon";
import { archiveWindowMayNavigate, openArchiveWindow } from "./archive-window";
import { APP_INDEX_URL, appUrlCheck } from "./app-origin";
import { registerAppScheme, serveAppFiles } from "./app-protocol";
import { logLine, openLogFile } from "./log-file";
import { sessionPathsIn } from "./open-paths";
import { connectBackendOverPort, type RemoteBackend } from "@bonsai/backend/remote";
import type { Dispatch } from "@bonsai/ipc";
import { serveOverIpcMain, eventMessage } from "@bonsai/ipc/electron";
import { mainProcessDialogs, type DialogApi } from "./host-dialogs";
import { keychainVault } from "./key-store";
import { buildMenu } from "./menu";
import { rememberingImports } from "./recent-imports";
import { loadWindowState, trackWindowState } from "./window-state";

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, "../renderer");
const devServerUrl = (!app.isPackaged && process.env.ELECTRON_RENDERER_URL) || undefined;
/** The renderer's own pages: app://bonsai (the built renderer), or the dev server in `electron-vite dev`. */
const isAppUrl = appUrlCheck(devServerUrl);
/** the renderer's connect page of "Connect to Team Archive…" (shell/ConnectArchive.tsx) */
const CONNECT_ARCHIVE_HASH = "#connect-archive";

// tests and portable setups may put the data folder elsewhere (before anything reads userData)
if (process.env.BONSAI_USER_DATA_DIR) app.setPath("userData", path.resolve(process.env.BONSAI_USER_DATA_DIR));
registerAppScheme();

let win: BrowserWindow | null = null;
let backend: RemoteBackend | null = null;
/** the backend's dispatch, through which every call of the window and of main goes (imports join recent documents) */
let dispatch: Dispatch | null = null;
const log = openLogFile(app.getPath("logs"));
/** session files asked for (open-file, a second launch) before the backend could import them */
const pendingPaths: string[] = [];

function workerUrl(): string | undefined {
  const file = path.join(here, "compaction-worker.js");
  return fs.existsSync(file) ? pathToFileURL(file).href : undefined;
}

function createWindow(userData: string): BrowserWindow {
  const state = loadWindowState(userData);
  const w = new BrowserWindow({
    ...state.bounds,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: "Bonsai",
    ...windowIcon(process.platform),
    webPreferences: {
      preload: path.join(here, "../preload/index.cjs"),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  if (state.maximized) w.maximize();
  trackWindowState(w, userData);
  w.once("ready-to-show", () => w.show());
  void w.loadURL(devServerUrl ?? APP_INDEX_URL);
  return w;
}

function lockDown(): void {
  app.on("web-contents-created", (_e, contents) => {
    contents.on("will-navigate", (event, url) => {
      // a team-archive window goes from the connect page to its archive, and stays there
      if (!isAppUrl(url) && !archiveWindowMayNavigate(contents.id, url)) event.preventDefault();
    });
    contents.on("will-attach-webview", (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      // links to the web open in the browser; nothing opens a window inside the app
      if (/^https?:\/\//.test(url) && !isAppUrl(url)) void shell.openExternal(url);
      return { action: "deny" };
    });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

function sendToWindow(event: string, payload: unknown): void {
  if (win && !win.isDestroyed()) win.webContents.send(...eventMessage(event, payload));
}

/** Electron's dialogs, modal to the window when there is one. */
function windowDialogs(): DialogApi {
  return {
    showOpenDialog: (options) => (win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options)),
    showSaveDialog: (options) => (win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options)),
    showMessageBox: (options) => (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options)),
  };
}

/** Forks the backend process and connects to it. */
async function startBackend(userData: string): Promise<RemoteBackend> {
  const keychain = keychainVault(userData);
  const child = utilityProcess.fork(path.join(here, "backend-host.js"), [], {
    serviceName: "Bonsai backend",
    stdio: "pipe",
    env: { ...process.env },
  });
  // the backend's output goes to the log file (a packaged app has no terminal)
  child.stdout?.on("data", (chunk: Buffer) => log.write(logLine("backend", chunk.toString())));
  child.stderr?.on("data", (chunk: Buffer) => log.write(logLine("backend", chunk.toString())));
  const port = {
    postMessage: (message: unknown) => child.postMessage(message),
    onMessage: (listener: (message: unknown) => void) => {
      child.on("message", listener);
      return () => child.off("message", listener);
    },
  };
  let remote: RemoteBackend | null = null;
  let quitting = false;
  app.once("before-quit", () => (quitting = true));
  const exited = new Promise<number>((resolve) => child.once("exit", resolve));
  void exited.then((code) => {
    log.write(logLine("main", `the backend process exited (code ${code})`));
    remote?.disconnect(`the backend process exited (code ${code})`);
    if (!quitting) {
      sendToWindow("notification", { level: "error", message: `Bonsai's backend stopped (exit code ${code}). Restart the app to continue.`, sessionId: null });
    }
  });
  const connecting = connectBackendOverPort(
    port,
    {
      dataDir: userData,
      // better-sqlite3 built for Electron's ABI (scripts/start.mjs builds it; packaged apps rebuild it in place)
      nativeBinding: process.env.BONSAI_NATIVE_BINDING || undefined,
      workerUrl: workerUrl(),
      version: app.getVersion(),
      nativeDialogs: true,
      storedKey: await keychain.read(),
      keyStorage: "keychain",
    },
    {
      ...mainProcessDialogs(windowDialogs(), app.getPath("documents")),
      setKey: (key) => keychain.write(key),
      clearKey: () => keychain.clear(),
    },
  );
  remote = await Promise.race([
    connecting,
    exited.then((code) => {
      throw new Error(`the backend process exited during start-up (code ${code})`);
    }),
  ]);
  return remote;
}

/** Import session files where they are (as the Import dialog does); those stored join the recent documents. */
function openSessionFiles(paths: readonly string[]): void {
  if (paths.length === 0) return;
  if (!dispatch) {
    pendingPaths.push(...paths);
    return;
  }
  void dispatch("importSessions", { paths: [...paths] }).then((result) => {
    if (!result.ok) sendToWindow("notification", { level: "error", message: `Could not open ${paths.join(", ")}: ${result.error.message}`, sessionId: null });
  });
}

/** Opens a folder in the system's file manager; when that fails, the window says so. */
async function openFolder(folder: string): Promise<void> {
  const error = await shell.openPath(folder);
  if (error) sendToWindow("notification", { level: "error", message: `Could not open ${folder}: ${error}`, sessionId: null });
}

function showWindow(): void {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.focus();
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // macOS: a session file opened from Finder or the Dock (may come before ready)
  app.on("open-file", (event, file) => {
    event.preventDefault();
    openSessionFiles([file]);
  });
  app.on("second-instance", (_event, argv, workingDirectory) => {
    showWindow();
    openSessionFiles(sessionPathsIn(argv.slice(1), workingDirectory));
  });
  await app.whenReady();
  log.write(logLine("main", `Bonsai ${app.getVersion()} starting (Electron ${process.versions.electron ?? "?"})`));
  lockDown();
  serveAppFiles(rendererDir);
  const userData = app.getPath("userData");

  try {
    backend = await startBackend(userData);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log.write(logLine("main", `cannot start: ${message}`));
    dialog.showErrorBox("Bonsai cannot start", message);
    app.exit(1);
    return;
  }
  const remote = backend;

  dispatch = rememberingImports(remote.dispatch, (file) => app.addRecentDocument(file));
  serveOverIpcMain(ipcMain, dispatch, isAppUrl);
  remote.onEvent(sendToWindow);
  Menu.setApplicationMenu(
    buildMenu({
      send: (command) => sendToWindow("menuCommand", { command }),
      openDataFolder: () => void openFolder(userData),
      showLogs: () => void openFolder(path.dirname(log.file)),
      connectArchive: () => void openArchiveWindow(`${devServerUrl ?? APP_INDEX_URL}${CONNECT_ARCHIVE_HASH}`, windowIcon(process.platform), rendererDir),
    }),
  );
  win = createWindow(userData);
  win.on("closed", () => (win = null));
  openSessionFiles([...pendingPaths.splice(0), ...sessionPathsIn(process.argv.slice(1), process.cwd())]);

  app.on("activate", () => {
    if (!win) win = createWindow(userData);
  });
  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  let closing = false;
  app.on("before-quit", (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    void remote.close().finally(() => app.exit(0));
  });
}

void main();
