/** Wire the backend's pushed events into the store (called once at start-up). */
import { api, onConnectionStatus } from "../lib/api";
import { useBonsai } from "./store";

export function connectStoreToBackend(): () => void {
  const s = () => useBonsai.getState();
  const a = api();
  const offs = [
    onConnectionStatus((status) => {
      s().setConnection(status);
      if (status === "open") void s().refreshSessions();
    }),
    a.on("sessionsChanged", () => void s().refreshSessions()),
    a.on("sessionUpdated", (p) => s().onSessionUpdated(p)),
    a.on("importProgress", (p) => s().onImportProgress(p)),
    // the backend words every user-facing outcome (automatic compactions included) exactly once
    a.on("notification", (p) => s().notify(p.level, p.message, p.sessionId)),
    a.on("hookError", (p) => s().notify("error", `Hook ${p.hook}${p.file ? ` (${p.file})` : ""} failed: ${p.message}`)),
  ];
  void a.getAppInfo().then((info) => s().setAppInfo(info), () => undefined);
  void s().refreshSessions();
  void s().loadSettings();
  return () => offs.forEach((off) => off());
}
