/**
 * Browser-mode transport: a RawBridge over one WebSocket (the browser's, or `ws` in Node tests).
 * Calls wait for the socket to open; if it closes, pending calls fail with "unavailable" and the
 * client reconnects with a growing delay. A socket that closes without having opened may have been
 * refused for its token: the client asks the server (TOKEN_CHECK_PATH) and, when the token is
 * refused, says so ("refused") and stops reconnecting, instead of reconnecting forever.
 */
import type { EventListener, RawBridge } from "./client";
import type { CallResult } from "./errors";
import { ANSWER_PATH, MAX_FRAME_BYTES, TOKEN_CHECK_PATH } from "./frames";
import { METHOD_NAMES } from "./names";
import { fitsUtf8 } from "./utf8";

/** The subset of the WebSocket interface used here (browser WebSocket and `ws` both provide it). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open" | "close" | "error", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

/** The subset of fetch used to download a large answer (the browser's, or Node's). */
export type FetchLike = (url: string, init: { cache: "no-store"; credentials: "omit"; headers: Record<string, string> }) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

export interface WsClientOptions {
  url: string;
  create: WebSocketFactory;
  /** called when the connection state changes (for a "reconnecting..." banner; "refused": the server refused the token, no more attempts) */
  onStatus?: (status: WsStatus) => void;
  /** stop reconnecting after this many failed attempts in a row (default: never stop) */
  maxReconnects?: number;
  /** downloads the large answers the server parks (frames.ts LargeAnswers; default: the global fetch) */
  fetch?: FetchLike;
}

export type WsStatus = "connecting" | "open" | "closed" | "refused";

/** what a call answers once the server refused the token */
export const TOKEN_REFUSED_MESSAGE = "this token was refused by the server (mistyped, revoked, or from another server): sign in again";

export interface WsBridge extends RawBridge {
  close(): void;
}

const OPEN = 1;
// this package has no DOM or Node typings: reach the one timer it needs through globalThis
const later = (fn: () => void, ms: number) =>
  (globalThis as unknown as { setTimeout(fn: () => void, ms: number): unknown }).setTimeout(fn, ms);

interface UrlLike {
  readonly origin: string;
  readonly pathname: string;
  readonly searchParams: { get(name: string): string | null };
  toString(): string;
}
// this package has no DOM or Node typings: the WHATWG URL both have
const parseUrl = (text: string, base?: string): UrlLike => new (globalThis as unknown as { URL: new (text: string, base?: string) => UrlLike }).URL(text, base);

/** the http(s) address of `href` on the server of the WebSocket at `wsUrl`; undefined for another server's */
function sameServerUrl(wsUrl: string, href: string): string | undefined {
  try {
    const base = parseUrl(wsUrl.replace(/^ws/u, "http"));
    const url = parseUrl(href, base.toString());
    return url.origin === base.origin ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** the http(s) address of `href` on the server of the WebSocket at `wsUrl`; undefined for any other server's or any other path */
export function answerUrl(wsUrl: string, href: string): string | undefined {
  const url = sameServerUrl(wsUrl, href);
  return url !== undefined && parseUrl(url).pathname.startsWith(ANSWER_PATH) ? url : undefined;
}

/** the `token` parameter of a WebSocket's address, if it has one */
function tokenOf(wsUrl: string): string | undefined {
  try {
    return parseUrl(wsUrl).searchParams.get("token") ?? undefined;
  } catch {
    return undefined;
  }
}

export function connectWebSocket(options: WsClientOptions): WsBridge {
  let socket: WebSocketLike | null = null;
  let nextId = 1;
  let closedByUser = false;
  let failures = 0;
  let refusedToken = false;
  let opened: Promise<void> = Promise.resolve();
  const pending = new Map<number, (result: CallResult) => void>();
  const listeners = new Set<EventListener>();

  const failAll = (message: string) => {
    for (const [, resolve] of pending) resolve({ ok: false, error: { code: "unavailable", message } });
    pending.clear();
  };

  const open = () => {
    options.onStatus?.("connecting");
    const ws = options.create(options.url);
    socket = ws;
    let wasOpen = false;
    opened = new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => {
        wasOpen = true;
        failures = 0;
        options.onStatus?.("open");
        resolve();
      });
      ws.addEventListener("close", () => {
        reject(new Error("connection closed"));
        if (socket !== ws) return;
        if (closedByUser) {
          failAll("the connection to the Bonsai backend was lost");
          options.onStatus?.("closed");
          return;
        }
        // never opened: the token may be what was refused; asked before anything is said
        void (wasOpen ? Promise.resolve(false) : tokenRefused()).then((refused) => {
          if (socket !== ws || closedByUser) return;
          if (refused) {
            refusedToken = true;
            failAll(TOKEN_REFUSED_MESSAGE);
            options.onStatus?.("refused");
            return;
          }
          failAll("the connection to the Bonsai backend was lost");
          options.onStatus?.("closed");
          failures++;
          if (options.maxReconnects !== undefined && failures > options.maxReconnects) return;
          later(open, Math.min(10_000, 250 * 2 ** Math.min(failures, 6)));
        });
      });
    });
    opened.catch(() => undefined);
    ws.addEventListener("error", () => undefined);
    ws.addEventListener("message", (event) => {
      if (typeof event.data !== "string") return;
      let frame: { t?: unknown; id?: unknown; result?: CallResult; href?: unknown; event?: unknown; payload?: unknown };
      try {
        frame = JSON.parse(event.data) as typeof frame;
      } catch {
        return;
      }
      if (frame.t === "result" && typeof frame.id === "number") {
        const resolve = pending.get(frame.id);
        pending.delete(frame.id);
        if (resolve && frame.result) resolve(frame.result);
      } else if (frame.t === "result-at" && typeof frame.id === "number" && typeof frame.href === "string") {
        const resolve = pending.get(frame.id);
        pending.delete(frame.id);
        if (resolve) void download(frame.href).then(resolve);
      } else if (frame.t === "event" && typeof frame.event === "string") {
        for (const l of listeners) l(frame.event, frame.payload);
      }
    });
  };

  /** whether the server says it refuses this client's token (false when it cannot tell: a lost connection) */
  const tokenRefused = async (): Promise<boolean> => {
    const fetchCheck = options.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    const url = sameServerUrl(options.url, TOKEN_CHECK_PATH);
    const token = tokenOf(options.url) ?? "";
    // no token at all is not a refused one: the page asks for one as it is
    if (fetchCheck === undefined || url === undefined || token === "") return false;
    try {
      const response = await fetchCheck(url, { cache: "no-store", credentials: "omit", headers: { authorization: `Bearer ${token}` } });
      return response.status === 401 || response.status === 403;
    } catch {
      return false;
    }
  };

  /** a large answer the server parked at `href` (a path on the WebSocket's own server), as the call's result */
  const download = async (href: string): Promise<CallResult> => {
    const fail = (why: string): CallResult => ({ ok: false, error: { code: "unavailable", message: `the answer could not be downloaded from the Bonsai backend: ${why}` } });
    const fetchAnswer = options.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    const url = answerUrl(options.url, href);
    if (fetchAnswer === undefined || url === undefined) return fail(url === undefined ? "the server named another address" : "this client cannot download");
    try {
      // the download works only with the token this socket signed in with (a team archive checks it again)
      const token = tokenOf(options.url);
      const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
      const response = await fetchAnswer(url, { cache: "no-store", credentials: "omit", headers });
      if (!response.ok) {
        // the server's own reason, one line of it (its text is shown, never run)
        const reason = ((await response.text().catch(() => "")).split("\n")[0] ?? "").trim().slice(0, 200);
        return fail(reason === "" ? `HTTP ${response.status}` : `HTTP ${response.status}: ${reason}`);
      }
      return { ok: true, value: JSON.parse(await response.text()) as unknown };
    } catch (err) {
      return fail(err instanceof Error ? err.message : String(err));
    }
  };

  const call = async (method: string, params: unknown): Promise<CallResult> => {
    if (closedByUser) return { ok: false, error: { code: "unavailable", message: "the client was closed" } };
    if (refusedToken) return { ok: false, error: { code: "unavailable", message: TOKEN_REFUSED_MESSAGE } };
    try {
      await opened;
    } catch {
      return { ok: false, error: { code: "unavailable", message: "cannot reach the Bonsai backend" } };
    }
    const ws = socket;
    if (!ws || ws.readyState !== OPEN) return { ok: false, error: { code: "unavailable", message: "cannot reach the Bonsai backend" } };
    const id = nextId++;
    const frame = JSON.stringify({ t: "call", id, method, params });
    // the server closes the connection on a frame over its limit: refuse it here instead, with a reason
    if (!fitsUtf8(frame, MAX_FRAME_BYTES)) {
      return { ok: false, error: { code: "invalid_payload", message: `${method}: the call is larger than the ${MAX_FRAME_BYTES / 1024 / 1024} MiB a frame may carry` } };
    }
    return new Promise<CallResult>((resolve) => {
      pending.set(id, resolve);
      ws.send(frame);
    });
  };

  open();
  const bridge: Record<string, unknown> = {
    subscribe(listener: EventListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closedByUser = true;
      socket?.close(1000, "client closed");
      failAll("the client was closed");
    },
  };
  for (const name of METHOD_NAMES) bridge[name] = (input: unknown) => call(name, input);
  return bridge as unknown as WsBridge;
}
