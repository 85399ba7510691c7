import { describe, expect, it } from "vitest";
import { createPreloadBridge, eventMessage, serveOverIpcMain, type IpcMainLike, type IpcRendererLike } from "../src/electron";
import { createApi, createDispatcher, EVENT_CHANNEL, INVOKE_CHANNEL, METHOD_NAMES, type Handlers } from "../src/index";

/** An in-memory pair of ipcMain / ipcRenderer with Electron's calling conventions. */
function fakeIpc(senderUrl: string) {
  const handlers = new Map<string, (event: { senderFrame: { url: string } }, ...args: unknown[]) => Promise<unknown>>();
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const ipcRenderer: IpcRendererLike = {
    invoke: (channel, ...args) => handlers.get(channel)!({ senderFrame: { url: senderUrl } }, ...args),
    on: (channel, l) => void (listeners.get(channel) ?? listeners.set(channel, new Set()).get(channel)!).add(l),
    removeListener: (channel, l) => void listeners.get(channel)?.delete(l),
  };
  const send = (channel: string, ...args: unknown[]) => listeners.get(channel)?.forEach((l) => l({}, ...args));
  return { ipcMain, ipcRenderer, send, handlers };
}

const handlers = Object.fromEntries(METHOD_NAMES.map((m) => [m, (input: unknown) => ({ echoed: input })])) as unknown as Handlers;

describe("Electron transport", () => {
  it("the preload bridge exposes exactly the contract's methods and subscribe", () => {
    const { ipcRenderer } = fakeIpc("file:///app/index.html");
    expect(Object.keys(createPreloadBridge(ipcRenderer)).sort()).toEqual([...METHOD_NAMES, "subscribe"].sort());
  });

  it("routes calls through one channel, validates them, and refuses untrusted frames", async () => {
    const trusted = fakeIpc("file:///app/index.html");
    serveOverIpcMain(trusted.ipcMain, createDispatcher(handlers), (url) => url === "file:///app/index.html");
    expect([...trusted.handlers.keys()]).toEqual([INVOKE_CHANNEL]);
    const api = createApi(createPreloadBridge(trusted.ipcRenderer));
    expect(await api.getEntry({ sessionId: "s", entryId: "e" })).toEqual({ echoed: { sessionId: "s", entryId: "e" } });
    await expect(api.getEntry({ sessionId: "s" } as never)).rejects.toMatchObject({ code: "invalid_payload" });

    const evil = fakeIpc("https://evil.example/");
    serveOverIpcMain(evil.ipcMain, createDispatcher(handlers), (url) => url === "file:///app/index.html");
    await expect(createApi(createPreloadBridge(evil.ipcRenderer)).listSessions()).rejects.toMatchObject({ code: "unavailable" });
  });

  it("delivers contract events and drops unknown ones", () => {
    const { ipcRenderer, send } = fakeIpc("file:///app/index.html");
    const api = createApi(createPreloadBridge(ipcRenderer));
    const got: unknown[] = [];
    api.on("sessionsChanged", (p) => got.push(p));
    send(...eventMessage("sessionsChanged", {}));
    send(EVENT_CHANNEL, "notAnEvent", { x: 1 });
    expect(got).toEqual([{}]);
  });
});
