/**
 * The backend process of the desktop app (an Electron utility process, forked by main): the store,
 * the engine and its worker threads live here, so SQLite, imports and exports never block the
 * process that drives the window. Main talks to it with @bonsai/backend's port protocol and keeps
 * what only it can do (native dialogs, the OS keychain).
 */
import { serveBackendOverPort } from "@bonsai/backend";

const parent = process.parentPort;
if (!parent) {
  console.error("bonsai: backend-host must run as an Electron utility process");
  process.exit(2);
}

serveBackendOverPort(
  {
    postMessage: (message) => {
      parent.postMessage(message);
      // the store is closed: this process has nothing left to do (main is quitting)
      if ((message as { t?: unknown }).t === "closed") setImmediate(() => process.exit(0));
    },
    onMessage: (listener) => {
      const onMessage = (e: Electron.MessageEvent) => listener(e.data);
      parent.on("message", onMessage);
      return () => parent.off("message", onMessage);
    },
  },
  { onInternalError: (err, where) => console.error(`bonsai: internal error in ${where}:`, err) },
).catch((err: unknown) => {
  // main shows the reason (init-error); exit so nothing lingers
  console.error("bonsai: the backend could not start:", err);
  setTimeout(() => process.exit(1), 100);
});
