/**
 * The backend in its own process. The desktop app runs createBackend in an Electron utility
 * process, so SQLite, imports and exports never block the window's main process; this module is
 * the message protocol between the two, over any port with postMessage / a message listener
 * (Electron's utility-process port, a worker_threads MessagePort in tests).
 *
 *   main -> host  {t:"init", options} {t:"call", id, method, params} {t:"answer", id, ok, value|error} {t:"close"}
 *   host -> main  {t:"ready"} {t:"init-error", message} {t:"result", id, result} {t:"event", event, payload} {t:"closed"}
 *                 {t:"ask", id, what, key?}   (what the host cannot do itself: native dialogs, the OS keychain)
 *
 * The API key reaches the host in memory only (from the keychain, via init); saving or clearing it
 * is asked of the main process, which owns safeStorage.
 */
import { IpcError, type CallResult, type Dispatch } from "@bonsai/ipc";
import { createBackend, type Backend, type BackendOptions } from "./backend";
import type { KeyProvider } from "./keys";

export interface PortLike {
  postMessage(message: unknown): void;
  /** returns the unsubscribe function */
  onMessage(listener: (message: unknown) => void): () => void;
}

export interface HostInit {
  dataDir: string;
  dbPath?: string;
  nativeBinding?: string;
  workerUrl?: string;
  version: string;
  /** the main process can show a native file picker */
  nativeDialogs: boolean;
  /** the stored key, decrypted by the main process (null when none) */
  storedKey: string | null;
  keyStorage: "keychain" | "file";
}

type Ask = { what: "chooseSessionFiles" } | { what: "setKey"; key: string } | { what: "clearKey" };

interface Message {
  t?: unknown;
  id?: unknown;
  [k: string]: unknown;
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
      const m = raw as Message;
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
            chooseSessionFiles: init.nativeDialogs ? async () => (await ask({ what: "chooseSessionFiles" })) as string[] | null : undefined,
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

export interface HostAnswers {
  chooseSessionFiles(): Promise<string[] | null>;
  setKey(key: string): void | Promise<void>;
  clearKey(): void | Promise<void>;
}

export interface RemoteBackend {
  dispatch: Dispatch;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** the host went away: every pending and later call fails with "unavailable" */
  disconnect(reason: string): void;
  /** ask the host to close the backend (database, workers); resolves when it did or after timeoutMs */
  close(timeoutMs?: number): Promise<void>;
}

/** Main side: start the host with `init` and talk to it; resolves once the backend is ready. */
export function connectBackendOverPort(port: PortLike, init: HostInit, answers: HostAnswers): Promise<RemoteBackend> {
  let nextId = 1;
  let down: string | null = null;
  const pending = new Map<number, (r: CallResult) => void>();
  const listeners = new Set<(event: string, payload: unknown) => void>();
  let onClosed: (() => void) | null = null;

  const remote: RemoteBackend = {
    dispatch: (method, params) => {
      if (down !== null) return Promise.resolve({ ok: false, error: { code: "unavailable", message: down } });
      const id = nextId++;
      return new Promise<CallResult>((resolve) => {
        pending.set(id, resolve);
        port.postMessage({ t: "call", id, method, params });
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    disconnect(reason) {
      down = reason;
      for (const [, resolve] of pending) resolve({ ok: false, error: { code: "unavailable", message: reason } });
      pending.clear();
      onClosed?.();
    },
    close(timeoutMs = 5000) {
      if (down !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          onClosed = null;
          resolve();
        }
        onClosed = done;
        port.postMessage({ t: "close" });
      }).then(() => remote.disconnect("the backend was closed"));
    },
  };

  const answer = (id: number, work: () => unknown) => {
    void Promise.resolve()
      .then(work)
      .then(
        (value) => port.postMessage({ t: "answer", id, ok: true, value: value ?? null }),
        (err: unknown) => port.postMessage({ t: "answer", id, ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
  };

  return new Promise<RemoteBackend>((resolve, reject) => {
    port.onMessage((raw) => {
      const m = raw as Message;
      if (m.t === "ready") resolve(remote);
      else if (m.t === "closed") onClosed?.();
      else if (m.t === "init-error") reject(new Error(String(m.message)));
      else if (m.t === "result" && typeof m.id === "number") {
        const done = pending.get(m.id);
        pending.delete(m.id);
        done?.(m.result as CallResult);
      } else if (m.t === "event" && typeof m.event === "string") {
        for (const l of listeners) l(m.event, m.payload);
      } else if (m.t === "ask" && typeof m.id === "number") {
        const id = m.id;
        if (m.what === "chooseSessionFiles") answer(id, () => answers.chooseSessionFiles());
        else if (m.what === "setKey" && typeof m.key === "string") answer(id, () => answers.setKey(m.key as string));
        else if (m.what === "clearKey") answer(id, () => answers.clearKey());
        else answer(id, () => Promise.reject(new Error(`unknown request ${String(m.what)}`)));
      }
    });
    port.postMessage({ t: "init", options: init });
  });
}
