/**
 * The preload: exposes window.bonsai with one function per contract method (returning the call
 * envelope) and an event subscription, and window.bonsaiFiles with one function: the path of a
 * File the user dropped or picked (Electron's webUtils; `File.path` is gone since Electron 32), so
 * a dropped session is imported in place. Nothing else: no raw ipcRenderer, no Node.
 */
import { contextBridge, ipcRenderer, webUtils } from "electron";
import { createPreloadBridge } from "@bonsai/ipc/electron";

contextBridge.exposeInMainWorld("bonsai", createPreloadBridge(ipcRenderer));
contextBridge.exposeInMainWorld("bonsaiFiles", {
  /** the file's path on disk; "" for a File made by the page (it has none) */
  pathForFile: (file: File): string => webUtils.getPathForFile(file),
});
