/**
 * Browser mode (`bonsai serve`): the built renderer over HTTP and the backend over a WebSocket, on
 * 127.0.0.1 only. A random token is printed in the URL; a WebSocket upgrade without that token,
 * from a foreign Origin, or to a foreign Host (DNS rebinding) is refused with 403. A frame larger
 * than MAX_FRAME_BYTES closes its connection (files arrive in chunks: uploadChunk). Exports are
 * downloads: GET /download/<id>?token=… streams a prepared export once (exportSession gives the id).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import * as http from "node:http";
import * as path from "node:path";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { eventFrame, handleCallFrame, MAX_FRAME_BYTES, TOKEN_CHECK_PATH, type Dispatch, type LargeAnswers } from "@bonsai/ipc";
import { frameBytes } from "./frame-bytes";
import { DOWNLOAD_PATH } from "./downloads";
import { pageCsp, rendererIndex, sendPreparedDownload, serveRendererFile } from "./static-files";

export { pageCsp, rendererIndex, sendPreparedDownload, serveRendererFile } from "./static-files";
export { DOWNLOAD_PATH } from "./downloads";
export { frameBytes } from "./frame-bytes";
export { loadServeState, saveServeState, SERVE_STATE_FILE, type ServeState } from "./serve-state";

export interface ServableBackend {
  dispatch: Dispatch;
  /** subscribe to every event the backend pushes */
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  /** a prepared export, once (see downloads.ts); absent: no downloads */
  takeDownload?(id: string): { file: string; fileName: string; mimeType: string; done: () => void } | undefined;
}

export interface ServerOptions {
  backend: ServableBackend;
  /** the built renderer (apps/desktop/out/renderer) */
  rendererDir: string;
  /** 0 or absent = a free port */
  port?: number;
  /** only loopback hosts are accepted */
  host?: "127.0.0.1" | "localhost" | "::1";
  /** fixed token (tests); default 32 random bytes, base64url */
  token?: string;
}

export interface RunningServer {
  /** http://127.0.0.1:PORT/?token=... */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** connected WebSocket clients */
  clientCount(): number;
  close(): Promise<void>;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Hosts a loopback server answers to (anything else is a rebinding attempt). */
function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** Answers each call frame that arrives on `ws` with `dispatch` (text frames only); `large` values go beside the socket (ipc frames.ts LargeAnswers). */
export function answerCalls(ws: WebSocket, dispatch: Dispatch, large?: LargeAnswers): void {
  ws.on("message", (data, isBinary) => {
    if (isBinary) {
      ws.send(JSON.stringify({ t: "result", id: null, result: { ok: false, error: { code: "bad_frame", message: "binary frames are not accepted" } } }));
      return;
    }
    const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data as ArrayBuffer).toString("utf8");
    void handleCallFrame(text, dispatch, large).then((reply) => {
      if (ws.readyState === ws.OPEN) ws.send(frameBytes(reply), { binary: false });
    });
  });
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  if (!["127.0.0.1", "localhost", "::1"].includes(host)) {
    return Promise.reject(new Error(`bonsai serve binds to loopback only (got host ${host})`));
  }
  const rendererDir = path.resolve(options.rendererDir);
  try {
    rendererIndex(rendererDir);
  } catch (err) {
    return Promise.reject(err as Error);
  }
  const token = options.token ?? randomBytes(32).toString("base64url");
  let port = 0;

  const server = http.createServer((req, res) => {
    if (!allowedHosts(port).has(req.headers.host ?? "")) {
      res.writeHead(403, { "content-type": "text/plain" }).end("forbidden host\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    let pathname: string;
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://x");
      pathname = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (pathname.startsWith(DOWNLOAD_PATH)) {
      serveDownload(req, res, pathname.slice(DOWNLOAD_PATH.length), url.searchParams.get("token") ?? "");
      return;
    }
    if (pathname === TOKEN_CHECK_PATH) {
      const given = /^Bearer\s+(\S+)$/iu.exec(req.headers.authorization ?? "")?.[1] ?? "";
      res.writeHead(sameToken(given, token) ? 204 : 403, { "cache-control": "no-store" }).end();
      return;
    }
    serveRendererFile(rendererDir, pathname, req, res, pageCsp([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]));
  });

  const serveDownload = (req: http.IncomingMessage, res: http.ServerResponse, id: string, given: string) => {
    if (req.method !== "GET") {
      res.writeHead(405, { allow: "GET" }).end();
      return;
    }
    if (!sameToken(given, token)) {
      res.writeHead(403, { "content-type": "text/plain" }).end("missing or wrong token\n");
      return;
    }
    sendPreparedDownload(res, options.backend.takeDownload?.(id));
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<WebSocket>();

  server.on("upgrade", (req, socket, head) => {
    const refuse = (why: string) => {
      socket.write(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${why}\n`);
      socket.destroy();
    };
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://x");
    } catch {
      return refuse("bad request");
    }
    if (url.pathname !== "/ws") return refuse("not found");
    if (!allowedHosts(port).has(req.headers.host ?? "")) return refuse("forbidden host");
    const origin = req.headers.origin;
    // browsers always send Origin: it must be this server; non-browser clients (no Origin) need the token like everyone
    if (origin !== undefined && !allowedHosts(port).has(origin.replace(/^http:\/\//, ""))) return refuse("forbidden origin");
    if (!sameToken(url.searchParams.get("token") ?? "", token)) return refuse("missing or wrong token");
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws));
  });

  wss.on("connection", (ws: WebSocket) => {
    clients.add(ws);
    ws.on("close", () => clients.delete(ws));
    ws.on("error", () => clients.delete(ws));
    answerCalls(ws, options.backend.dispatch);
  });

  const offEvents = options.backend.onEvent((event, payload) => {
    if (clients.size === 0) return;
    const frame = frameBytes(eventFrame(event, payload));
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(frame, { binary: false });
  });

  return new Promise<RunningServer>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      port = (server.address() as AddressInfo).port;
      const origin = `http://${host === "::1" ? "[::1]" : host}:${port}`;
      resolve({
        url: `${origin}/?token=${token}`,
        origin,
        port,
        token,
        clientCount: () => clients.size,
        close: () =>
          new Promise<void>((done) => {
            offEvents();
            for (const ws of clients) ws.terminate();
            wss.close();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
