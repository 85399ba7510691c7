/**
 * The main-process side of the backend-over-a-port protocol (see host.ts for the messages): what
 * the desktop app's main process imports. It depends on @bonsai/ipc only, so main never loads the
 * store or the engine.
 */
import type { CallResult, Dispatch } from "@bonsai/ipc";
import type { ExportFormat, HostDialogs, SettingChange } from "./dialogs";

const EXPORT_FORMATS: ReadonlySet<string> = new Set<ExportFormat>(["jsonl", "markdown", "html", "pi"]);

export type { ExportFormat, FolderSetting, HostDialogs, SettingChange } from "./dialogs";

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

/** One message of the protocol, as received (validated field by field). */
export interface PortMessage {
  t?: unknown;
  id?: unknown;
  [k: string]: unknown;
}

/** What the main process answers: its native dialogs (HostDialogs) and the OS keychain. */
export interface HostAnswers extends HostDialogs {
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
      const m = raw as PortMessage;
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
        if (m.what === "openSessionFiles") answer(id, () => answers.openSessionFiles());
        else if (m.what === "saveSessionFile" && typeof m.fileName === "string" && EXPORT_FORMATS.has(m.format as string)) {
          answer(id, () => answers.saveSessionFile(m.fileName as string, m.format as ExportFormat));
        } else if (m.what === "chooseFolder" && (m.field === "hooksDir" || m.field === "sessionDirs")) answer(id, () => answers.chooseFolder(m.field as "hooksDir" | "sessionDirs"));
        else if (m.what === "chooseGitRepository") answer(id, () => answers.chooseGitRepository());
        else if (m.what === "confirmSettings" && Array.isArray(m.changes)) answer(id, () => answers.confirmSettings(m.changes as SettingChange[]));
        else if (m.what === "setKey" && typeof m.key === "string") answer(id, () => answers.setKey(m.key as string));
        else if (m.what === "clearKey") answer(id, () => answers.clearKey());
        else answer(id, () => Promise.reject(new Error(`unknown request ${String(m.what)}`)));
      }
    });
    port.postMessage({ t: "init", options: init });
  });
}
