/**
 * A recording stand-in for the `electron` module, so the built main and preload bundles run under
 * plain Node in CI (no Electron binary there). It records what the host asks of Electron (windows
 * and their options, IPC handlers, the menu, guards, protocol handlers, quits) in
 * globalThis.electronStandIn for host-harness.mjs to inspect. utilityProcess.fork runs the backend
 * as a real Node child process (parent-port-shim.mjs gives it process.parentPort).
 */
import { EventEmitter } from "node:events";
import { fork } from "node:child_process";
import { readFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";

const rec = (globalThis.electronStandIn ??= {
  windows: [],
  ipcHandlers: new Map(),
  menuTemplate: null,
  sent: [],
  schemes: [],
  recentDocuments: [],
  exitCode: null,
  children: [],
  exposed: new Map(),
  paths: {},
});

class App extends EventEmitter {
  isPackaged = false;
  name = "Bonsai";
  getVersion() { return "0.0.0-stand-in"; }
  setPath(name, value) { rec.paths[name] = value; }
  getPath(name) { return rec.paths[name] ?? path.join(os.tmpdir(), `bonsai-stand-in-${process.pid}`, name); }
  requestSingleInstanceLock() { return true; }
  whenReady() { return Promise.resolve(); }
  addRecentDocument(file) { rec.recentDocuments.push(file); }
  showAboutPanel() {}
  quit() {
    const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.emit("before-quit", event);
    if (!event.defaultPrevented) this.exit(0);
  }
  exit(code) { rec.exitCode = code ?? 0; this.emit("stand-in-exit", rec.exitCode); }
}
export const app = new App();

let nextContentsId = 1;
class WebContents extends EventEmitter {
  id = nextContentsId++;
  windowOpenHandler = null;
  send(...args) { rec.sent.push(args); }
  setWindowOpenHandler(handler) { this.windowOpenHandler = handler; }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents();
    this.loadedUrl = null;
    rec.windows.push(this);
    app.emit("web-contents-created", {}, this.webContents);
  }
  /**
   * As Electron does: a page of a custom scheme loads only when the window's own session answers
   * that scheme (loaded: the answer's status, or the network error Electron gives).
   */
  async loadURL(url) {
    this.loadedUrl = url;
    const scheme = new URL(url).protocol.slice(0, -1);
    if (["http", "https", "file", "data"].includes(scheme)) return;
    const handlers = (this.options.webPreferences?.session ?? session.defaultSession).protocol.handlers;
    const handler = handlers.get(scheme);
    if (!handler) {
      this.loaded = "ERR_UNKNOWN_URL_SCHEME";
      throw new Error(`ERR_UNKNOWN_URL_SCHEME (-302) loading '${url}'`);
    }
    const response = await handler(new Request(url));
    this.loaded = response.status;
    this.loadedBody = await response.text();
  }
  loadFile(file) { this.loadedUrl = `file://${file}`; return Promise.resolve(); }
  isDestroyed() { return false; }
  isMinimized() { return false; }
  isMaximized() { return false; }
  getBounds() { return { x: 0, y: 0, width: 1200, height: 800 }; }
  maximize() {}
  restore() {}
  focus() {}
  show() {}
}

export const ipcMain = {
  handle(channel, listener) { rec.ipcHandlers.set(channel, listener); },
  removeHandler(channel) { rec.ipcHandlers.delete(channel); },
};

export const Menu = {
  buildFromTemplate(template) { return { template }; },
  setApplicationMenu(menu) { rec.menuTemplate = menu?.template ?? null; },
};

export const dialog = {
  // the files a test has the open dialog pick (rec.openDialogAnswer), else cancelled
  showOpenDialog: async () => (rec.openDialogAnswer ? { canceled: false, filePaths: rec.openDialogAnswer } : { canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true }),
  showMessageBox: async () => ({ response: 0 }),
  showErrorBox(title, message) { rec.errorBox = `${title}: ${message}`; },
};

export const shell = {
  openExternal: async (url) => { (rec.openedExternal ??= []).push(url); },
  // Electron's answer: "" when opened, else the error (a test sets rec.openPathError)
  openPath: async (p) => { (rec.openedPaths ??= []).push(p); return rec.openPathError ?? ""; },
};

/**
 * A session's protocol handlers: as in Electron, a custom scheme is answered only in the sessions
 * whose own `protocol` it was handled on (the module's `protocol` is the default session's).
 */
class SessionProtocol {
  constructor() { this.handlers = new Map(); }
  handle(scheme, handler) { this.handlers.set(scheme, handler); }
  isProtocolHandled(scheme) { return this.handlers.has(scheme); }
}

/** a browsing session other than the default one (session.fromPartition), recorded by name */
class PartitionSession extends EventEmitter {
  constructor(name) { super(); this.partition = name; this.protocol = new SessionProtocol(); }
  setPermissionRequestHandler(handler) { this.permissionRequestHandler = handler; }
  setPermissionCheckHandler(handler) { this.permissionCheckHandler = handler; }
}

const defaultProtocol = new SessionProtocol();
rec.protocolHandlers = defaultProtocol.handlers;

export const session = {
  defaultSession: {
    protocol: defaultProtocol,
    setPermissionRequestHandler(handler) { rec.permissionRequestHandler = handler; },
    setPermissionCheckHandler(handler) { rec.permissionCheckHandler = handler; },
  },
  fromPartition(name) {
    rec.partitions ??= new Map();
    if (!rec.partitions.has(name)) rec.partitions.set(name, new PartitionSession(name));
    return rec.partitions.get(name);
  },
};

export const protocol = {
  registerSchemesAsPrivileged(schemes) { rec.schemes.push(...schemes); },
  handle(scheme, handler) { defaultProtocol.handle(scheme, handler); },
  isProtocolHandled(scheme) { return defaultProtocol.isProtocolHandled(scheme); },
};

/** Electron's net.fetch reads file: URLs; Node's fetch does not, so the stand-in does. */
export const net = {
  fetch: async (url) => (url.startsWith("file:") ? new Response(await readFile(new URL(url))) : fetch(url)),
};

/** No keychain in CI: safeStorage reports the Linux plain-text backend. */
export const safeStorage = {
  getSelectedStorageBackend: () => "basic_text",
  isAsyncEncryptionAvailable: async () => false,
  encryptStringAsync: async () => { throw new Error("stand-in: no encryption"); },
  decryptStringAsync: async () => { throw new Error("stand-in: no encryption"); },
};

const shim = new URL("./parent-port-shim.mjs", import.meta.url).href;

export const utilityProcess = {
  fork(modulePath, args, options) {
    const child = fork(modulePath, args ?? [], {
      env: options?.env,
      execArgv: ["--import", shim],
      serialization: "advanced",
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    rec.children.push(child);
    const emitter = new EventEmitter();
    emitter.stdout = child.stdout;
    emitter.stderr = child.stderr;
    emitter.postMessage = (message) => child.send(message);
    child.on("message", (message) => emitter.emit("message", message));
    child.on("exit", (code) => emitter.emit("exit", code ?? 0));
    return emitter;
  },
};

// preload side
export const contextBridge = {
  exposeInMainWorld(key, api) { rec.exposed.set(key, api); },
};
/** Electron's webUtils: a File the user dropped or picked knows its path; the stand-in reads it from `standInPath`. */
export const webUtils = {
  getPathForFile(file) { (rec.pathsAsked ??= []).push(file?.name ?? null); return file?.standInPath ?? ""; },
};
export const ipcRenderer = {
  invoke: async (channel, ...args) => { (rec.invoked ??= []).push([channel, ...args]); return { ok: true, value: null }; },
  on() {},
  removeListener() {},
};

export default { app, BrowserWindow, ipcMain, Menu, dialog, shell, session, protocol, net, safeStorage, utilityProcess, contextBridge, ipcRenderer, webUtils };
