/**
 * The backend in its own process. The desktop app runs createBackend in an Electron utility
 * process, so SQLite, imports and exports never block the window's main process; this module is
 * the message protocol between the two, over any port with postMessage / a message listener
 * (Electron's utility-process port, a worker_threads MessagePort in tests).
 *
 *   main -> host  {t:"init", options} {t:"call", id, method, params} {t:"answer", id, ok, value|error} {t:"close"}
 *   host -> main  {t:"ready"} {t:"init-error", message} {t:"result", id, result} {t:"event", event, payload} {t:"closed"}
 *                 {t:"ask", id, what, ...}    (what the host cannot do itself: native dialogs, the OS keychain)
 *                   what: openSessionFiles | saveSessionFile {fileName, format} | chooseFolder {field} | chooseGitRepository
 *                         | confirmSettings {changes} | setKey {key} | clearKey
 *
 * The API key reaches the host in memory only (from the keychain, via init); saving or clearing it
 * is asked of the main process, which owns safeStorage.
 */
import { IpcError, type CallResult } from "@bonsai/ipc";
import { createBackend, type Backend, type BackendOptions } from "./backend";
import type { ExportFormat, FolderSetting, HostDialogs, SettingChange } from "./dialogs";
import type { KeyProvider } from "./keys";
import type { HostInit, PortLike, PortMessage } from "./remote";

type Ask =
  | { what: "openSessionFiles" }
  | { what: "saveSessionFile"; fileName: string; format: ExportFormat }
  | { what: "chooseFolder"; field: FolderSetting }
  | { what: "chooseGitRepository" }
  | { what: "confirmSettings"; changes: readonly SettingChange[] }
  | { what: "setKey"; key: string }
  | { what: "clearKey" };

const isPath = (v: unknown): v is string => typeof v === "string" && v !== "";

/** The main process's dialogs, asked over the port; what comes back is checked for its shape. */
function dialogsOverPort(ask: (question: Ask) => Promise<unknown>): HostDialogs {
  return {
    openSessionFiles: async () => {
      const v = await ask({ what: "openSessionFiles" });
      return Array.isArray(v) && v.every(isPath) ? v : null;
    },
    saveSessionFile: async (fileName, format) => {
      const v = await ask({ what: "saveSessionFile", fileName, format });
      return isPath(v) ? v : null;
    },
    chooseFolder: async (field) => {
      const v = await ask({ what: "chooseFolder", field });
      return isPath(v) ? v : null;
    },
    chooseGitRepository: async () => {
      const v = await ask({ what: "chooseGitRepository" });
      return isPath(v) ? v : null;
    },
    confirmSettings: async (changes) => (await ask({ what: "confirmSettings", changes })) === true,
  };
}

/** Host side: wait for init, create the backend, answer calls, forward events. Resolves with the backend. */
export function serveBackendOverPort(port: PortLike, extra: Pick<BackendOptions, "engine" | "env" | "onInternalError"> = {}): Promise<Backend> {
  let backend: Backend | null = null;
  let nextAsk = 1;
  const asks = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const ask = (question: Ask): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextAsk++;
      asks.set(id, { resolve, reject });
      port.postMessage({ t: "ask", id, ...question });
    });

  return new Promise<Backend>((resolveBackend, rejectBackend) => {
    port.onMessage((raw) => {
      const m = raw as PortMessage;
      if (m.t === "init" && !backend) {
        const init = m.options as HostInit;
        let memoryKey = init.storedKey;
        const keys: KeyProvider = {
          storage: init.keyStorage,
          get: () => memoryKey,
          set: async (key) => {
            await ask({ what: "setKey", key });
            memoryKey = key;
          },
          clear: async () => {
            await ask({ what: "clearKey" });
            memoryKey = null;
          },
        };
        try {
          backend = createBackend({
            ...extra,
            dataDir: init.dataDir,
            dbPath: init.dbPath,
            nativeBinding: init.nativeBinding,
            keyProvider: keys,
            mode: "electron",
            version: init.version,
            worker: init.workerUrl ? { url: new URL(init.workerUrl) } : undefined,
            dialogs: init.nativeDialogs ? dialogsOverPort(ask) : undefined,
          });
        } catch (err) {
          port.postMessage({ t: "init-error", message: err instanceof Error ? err.message : String(err) });
          rejectBackend(err);
          return;
        }
        backend.onEvent((event, payload) => port.postMessage({ t: "event", event, payload }));
        port.postMessage({ t: "ready" });
        resolveBackend(backend);
      } else if (m.t === "call" && typeof m.id === "number") {
        const id = m.id;
        const run: Promise<CallResult> = backend
          ? backend.dispatch(m.method, m.params)
          : Promise.resolve({ ok: false, error: { code: "unavailable", message: "the backend is starting" } });
        void run.then((result) => port.postMessage({ t: "result", id, result }));
      } else if (m.t === "answer" && typeof m.id === "number") {
        const pending = asks.get(m.id);
        asks.delete(m.id);
        if (!pending) return;
        if (m.ok === true) pending.resolve(m.value);
        else pending.reject(new IpcError("unavailable", typeof m.error === "string" ? m.error : "the main process could not do it"));
      } else if (m.t === "close") {
        const closing = backend ? backend.close() : Promise.resolve();
        void closing.finally(() => port.postMessage({ t: "closed" }));
      }
    });
  });
}

