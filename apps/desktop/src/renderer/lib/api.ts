/**
 * The renderer's one way to the backend: a typed client of the @bonsai/ipc contract.
 *   Electron:     window.bonsai (exposed by the preload: one function per contract method)
 *   browser mode: a WebSocket to the `bonsai serve` that served this page (token from the URL)
 * Calls resolve with the method's output or reject with an IpcError (code + message).
 */
import { createApi, connectWebSocket, IpcError, type BonsaiApi, type RawBridge, type WsStatus } from "@bonsai/ipc";

declare global {
  interface Window {
    /** set by the Electron preload */
    bonsai?: RawBridge;
  }
}

/** "refused": the server refused the page's token (browser mode); the page asks for another */
export type ConnectionStatus = WsStatus;
type StatusListener = (status: ConnectionStatus) => void;

const TOKEN_KEY = "bonsai.token";
let instance: BonsaiApi | null = null;
let status: ConnectionStatus = "connecting";
const statusListeners = new Set<StatusListener>();

export const mode: "electron" | "browser" = typeof window !== "undefined" && window.bonsai ? "electron" : "browser";

/** Browser mode: the token comes in the URL once (?token=...), then lives in sessionStorage; the URL bar is cleaned. */
export function takeToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete("token");
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

function setStatus(s: ConnectionStatus) {
  status = s;
  // a refused token is not kept: a reload asks for a token instead of trying it again
  if (s === "refused") sessionStorage.removeItem(TOKEN_KEY);
  for (const l of statusListeners) l(s);
}

export function api(): BonsaiApi {
  if (instance) return instance;
  if (window.bonsai) {
    setStatus("open");
    instance = createApi(window.bonsai);
    return instance;
  }
  const token = takeToken();
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${window.location.host}/ws?token=${encodeURIComponent(token ?? "")}`;
  // without a token the server refuses every attempt: say so once instead of retrying forever
  instance = createApi(connectWebSocket({ url, create: (u) => new WebSocket(u), onStatus: setStatus, maxReconnects: token ? undefined : 0 }));
  return instance;
}

/** Browser mode: the address of a download `bonsai serve` prepared (exportSession's url), with the page's token. */
export function downloadUrl(path: string): string {
  const url = new URL(path, window.location.origin);
  url.searchParams.set("token", sessionStorage.getItem(TOKEN_KEY) ?? "");
  return url.href;
}

/** Browser mode: sign in with a token typed into the page (a team archive's, or `bonsai serve`'s), kept for the tab like one from the address. */
export function signInWithToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
  window.location.reload();
}

/** Browser mode opened without the token of `bonsai serve`'s address. */
export function missingToken(): boolean {
  return mode === "browser" && !sessionStorage.getItem(TOKEN_KEY);
}

export function connectionStatus(): ConnectionStatus {
  return status;
}

export function onConnectionStatus(listener: StatusListener): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/** The call failed because the backend cannot be reached (not because of what was asked). */
export function isUnavailable(err: unknown): boolean {
  return err instanceof IpcError && err.code === "unavailable";
}

/** A one-line message for any error a call rejects with. */
export function errorMessage(err: unknown): string {
  if (err instanceof IpcError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The call was aborted (by the user, or a hook cancelled it). */
export function isAborted(err: unknown): boolean {
  return err instanceof IpcError && err.code === "aborted";
}

/**
 * One sentence for a failed action, the cause first and said once:
 * failureSentence(err, "the session was not compacted") ->
 * "Summarization failed: 500 boom, so the session was not compacted."
 */
export function failureSentence(err: unknown, consequence: string): string {
  const cause = errorMessage(err).trim().replace(/[.\s]+$/u, "") || "Something went wrong";
  return `${cause.charAt(0).toUpperCase()}${cause.slice(1)}, so ${consequence}.`;
}
