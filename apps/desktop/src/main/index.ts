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
import { connectBackendOverPort, type RemoteBackend } from "@bonsai/backend/remote";
import { serveOverIpcMain, eventMessage } from "@bonsai/ipc/electron";
import { mainProcessDialogs, type DialogApi } from "./host-dialogs";
import { keychainKeyProvider } from "./key-store";
import { buildMenu } from "./menu";
import { loadWindowState, trackWindowState } from "./window-state";

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererIndex = path.join(here, "../renderer/index.html");
const rendererUrl = pathToFileURL(rendererIndex).href;
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;

// tests and portable setups may put the data folder elsewhere (before anything reads userData)
if (process.env.BONSAI_USER_DATA_DIR) app.setPath("userData", path.resolve(process.env.BONSAI_USER_DATA_DIR));

let win: BrowserWindow | null = null;
let backend: RemoteBackend | null = null;

/** The renderer's own pages: the built index.html, or the dev server in `electron-vite dev`. */
function isAppUrl(url: string): boolean {
  if (devServerUrl) return url.startsWith(devServerUrl);
  return url.split(/[?#]/)[0] === rendererUrl;
}

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
  if (devServerUrl) void w.loadURL(devServerUrl);
  else void w.loadFile(rendererIndex);
  return w;
}

function lockDown(): void {
  app.on("web-contents-created", (_e, contents) => {
    contents.on("will-navigate", (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on("will-attach-webview", (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
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
  const keychain = keychainKeyProvider(userData);
  const child = utilityProcess.fork(path.join(here, "backend-host.js"), [], {
    serviceName: "Bonsai backend",
    stdio: "inherit",
    env: { ...process.env },
  });
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
      storedKey: keychain.get(),
      keyStorage: "keychain",
    },
    {
      ...mainProcessDialogs(windowDialogs(), app.getPath("documents")),
      setKey: (key) => keychain.set(key),
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

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  lockDown();
  const userData = app.getPath("userData");

  try {
    backend = await startBackend(userData);
  } catch (err) {
    dialog.showErrorBox("Bonsai cannot start", err instanceof Error ? err.message : String(err));
    app.exit(1);
    return;
  }
  const remote = backend;

  serveOverIpcMain(ipcMain, remote.dispatch, isAppUrl);
  remote.onEvent(sendToWindow);
  const sendMenuCommand = (command: Parameters<Parameters<typeof buildMenu>[0]>[0]) => sendToWindow("menuCommand", { command });
  Menu.setApplicationMenu(buildMenu(sendMenuCommand, userData));
  win = createWindow(userData);
  win.on("closed", () => (win = null));

  app.on("second-instance", () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
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
