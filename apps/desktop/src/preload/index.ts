/**
 * The preload: exposes window.bonsai with one function per contract method (returning the call
 * envelope) and an event subscription, nothing else. No raw ipcRenderer, no Node.
 */
import { contextBridge, ipcRenderer } from "electron";
import { createPreloadBridge } from "@bonsai/ipc/electron";

contextBridge.exposeInMainWorld("bonsai", createPreloadBridge(ipcRenderer));
