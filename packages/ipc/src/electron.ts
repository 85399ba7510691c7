/**
 * Electron transport, written against structural types so this package never imports electron.
 *   main:    serveOverIpcMain(ipcMain, dispatch, isTrustedSender) + an event sender per window
 *   preload: createPreloadBridge(ipcRenderer) -> the object exposed as window.bonsai
 * The preload bridge imports only the name lists (no zod), so the sandboxed preload stays small.
 */
import type { RawBridge, EventListener } from "./client";
import type { Dispatch } from "./dispatch";
import type { CallResult } from "./errors";
import { EVENT_CHANNEL, EVENT_NAMES, INVOKE_CHANNEL, METHOD_NAMES } from "./names";

export interface IpcMainLike {
  handle(channel: string, listener: (event: { senderFrame?: { url: string } | null }, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
}

/** Route contract calls from the renderer into `dispatch`; calls from untrusted frames are refused. */
export function serveOverIpcMain(ipcMain: IpcMainLike, dispatch: Dispatch, isTrustedSender: (url: string) => boolean): () => void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, method, params): Promise<CallResult> => {
    const url = event.senderFrame?.url ?? "";
    if (!isTrustedSender(url)) return { ok: false, error: { code: "unavailable", message: "calls are accepted from the Bonsai window only" } };
    return dispatch(method, params);
  });
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}

/** The arguments of webContents.send for one event. */
export function eventMessage(event: string, payload: unknown): [string, string, unknown] {
  return [EVENT_CHANNEL, event, payload];
}

export function createPreloadBridge(ipcRenderer: IpcRendererLike): RawBridge {
  const known = new Set<string>(EVENT_NAMES);
  const bridge: Record<string, unknown> = {
    subscribe(listener: EventListener) {
      const onEvent = (_e: unknown, name: unknown, payload: unknown) => {
        if (typeof name === "string" && known.has(name)) listener(name, payload);
      };
      ipcRenderer.on(EVENT_CHANNEL, onEvent);
      return () => ipcRenderer.removeListener(EVENT_CHANNEL, onEvent);
    },
  };
  for (const name of METHOD_NAMES) {
    bridge[name] = (input: unknown) => ipcRenderer.invoke(INVOKE_CHANNEL, name, input) as Promise<CallResult>;
  }
  return bridge as RawBridge;
}
