/**
 * The explorer on a team archive: `bonsai team serve` also serves the built page, its WebSocket API
 * (/ws, the browser-mode contract) and the exports the page downloads (/download/ID). A page signs
 * in with a person's token (in its address once, then kept for the tab, as browser mode does); the
 * WebSocket is refused without a valid token, and every call checks the token and the caller's
 * projects again. No event is pushed to a page: events of the shared cache could name sessions of
 * other projects.
 *
 * The reads run the app's own backend over a private cache store in a temporary folder, created
 * with no environment, no hooks, no model key and no session folders of the host.
 */
import * as fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as path from "node:path";
import type { Duplex } from "node:stream";
import { contractSnippets, createBackend, mapBackendError, type Backend } from "@bonsai/backend";
import { answerCalls, DOWNLOAD_PATH, pageCsp, rendererIndex, sendPreparedDownload, serveRendererFile } from "@bonsai/backend/server";
import { ANSWER_PATH, createDispatcher, IpcError, MAX_FRAME_BYTES, TOKEN_CHECK_PATH, type Dispatch } from "@bonsai/ipc";
import type pg from "pg";
import { WebSocketServer, type WebSocket } from "ws";
import type { AmnesiaScore } from "../amnesia-scorer";
import { SessionLookupError } from "@bonsai/store";
import { ArchiveError } from "../errors";
import type { Principal } from "../people";
import { AnswerDownloads, type AnswerDownloadsOptions } from "./answer-downloads";
import { archiveHandlers, LIST_PAGE, openAnswerFromCopy } from "./archive-handlers";
import { ExportDownloads } from "./export-downloads";
import { PageOpener, type PageOpenerOptions } from "./page-open";
import { SignInLimiter, TOO_MANY_FAILURES, type SignInOutcome } from "../sign-in-limit";
import { makeCacheFolder } from "./cache-folders";
import { ArchiveSessionCache } from "./session-cache";
import { ArchiveStore } from "../archive-store";

export interface ArchiveAppOptions {
  pool: pg.Pool;
  /** the built renderer (apps/desktop/out/renderer) */
  rendererDir: string;
  /** better_sqlite3.node for this Node (the CLI bundle's) */
  nativeBinding?: string;
  version?: string;
  /** where the cache lives (default: a new private folder in the system's temporary folder, removed on close) */
  cacheDir?: string;
  /** how many opened sessions the cache keeps (default DEFAULT_CACHED_SESSIONS) */
  cachedSessions?: number;
  /** the store worker (compaction-worker.mjs): imports and exports off the serving thread */
  worker?: URL;
  /** how the amnesia report over many sessions scores a session (amnesia-scorer.ts; default: in this thread) */
  amnesiaScore?: AmnesiaScore;
  log?: (line: string) => void;
  /** how many sessions a page of the page's session list holds (default LIST_PAGE) */
  listPage?: number;
  /** when a session's open answer is kept and a push warms it (app/page-open.ts) */
  opening?: PageOpenerOptions;
  /** when a long session's kept open answer goes beside the WebSocket, for the page to download (answer-downloads.ts) */
  largeAnswers?: AnswerDownloadsOptions;
}

/** the server's sign-in within its limits on failed sign-ins (sign-in-limit.ts) */
export type SignInGate = Pick<SignInLimiter, "signIn">;

export interface ArchiveApp {
  /**
   * answers GET/HEAD of the page, /download/ID and /answer/ID (a large value of a call: ipc's
   * LargeAnswers); false when the path is not the app's. `identify` learns who the request was for,
   * for the server's log line.
   */
  handleRequest(request: IncomingMessage, response: ServerResponse, path: string, identify?: (who: string) => void, signIn?: SignInGate): boolean;
  /** the WebSocket upgrade at /ws (anything else is refused); `signIn` (as for handleRequest) counts failed sign-ins per token id (and trusted client address) */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, signIn?: SignInGate): void;
  /** `principal` pushed entries of `sessionId` into `project` to this process: the session is warmed (its copy made, its open answer kept) */
  pushed(principal: Principal, project: string, sessionId: string): void;
  close(): Promise<void>;
}

/** the token of the request's `Authorization: Bearer` header */
const bearerToken = (request: IncomingMessage): string | undefined => /^Bearer\s+(\S+)$/iu.exec(request.headers.authorization ?? "")?.[1];

/** whether a page's Origin is this server (the Host it asked for) */
function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true; // not a browser: the token decides alone
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/** One log line per call of a page, as per HTTP request: time, WS, the method, ok or the error's code, milliseconds and the person; never the content. */
function loggedCalls(dispatch: Dispatch, who: string, log: (line: string) => void): Dispatch {
  return async (method, params) => {
    const started = performance.now();
    const result = await dispatch(method, params);
    const name = typeof method === "string" && /^[A-Za-z]{1,40}$/u.test(method) ? method : "(unknown)";
    log(`${new Date().toISOString()} WS ${name} ${result.ok ? "ok" : result.error.code} ${(performance.now() - started).toFixed(1)}ms ${who}`);
    return result;
  };
}

/** A refusal of the archive as the page's error: a token revoked meanwhile is `forbidden`, as every capability the page lacks. */
function archiveCallError(err: unknown): IpcError | undefined {
  if (err instanceof ArchiveError && err.code === "unauthorized") return new IpcError("forbidden", err.message);
  return mapBackendError(err);
}

/** A download that failed on the server's side: 503 when nothing was sent yet, else the answer cut off (never a short one taken as whole). */
function downloadFailed(response: ServerResponse): void {
  if (response.headersSent) response.destroy();
  else response.writeHead(503, { "content-type": "text/plain" }).end("the archive failed to answer\n");
}

export function createArchiveApp(options: ArchiveAppOptions): ArchiveApp {
  rendererIndex(options.rendererDir);
  const owned = options.cacheDir === undefined;
  // a folder of its own, named with this process's id; those of killed processes are removed first (cache-folders.ts)
  const cacheDir = options.cacheDir ?? makeCacheFolder();
  fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const log = options.log ?? (() => undefined);
  const sessionsDir = path.join(cacheDir, "sessions");
  const backend: Backend = createBackend({
    dataDir: path.join(cacheDir, "data"),
    env: {}, // no variable of the host reaches the app: no key, no BONSAI_DB, no hooks folder
    mode: "browser",
    ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.worker !== undefined ? { worker: { url: options.worker, size: 1 } } : {}),
    // the cache's own folder is the one folder its imports may read
    engine: { offline: true, settings: { sessionDirs: [sessionsDir] } },
    version: options.version ?? "0.0.0",
    onInternalError: (err, where) => log(`error in ${where}: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`),
  });
  // the app's own import (a store job: on the worker thread when there is one, so a long session never holds the server)
  const importFile = async (file: string): Promise<{ sessionId: string | null; error: string | null }> => {
    const result = (await backend.handlers.importSessions({ paths: [file] })).results[0];
    return { sessionId: result?.sessionId ?? null, error: result === undefined ? "nothing was imported" : result.error };
  };
  const remove = async (storeId: string): Promise<unknown> => backend.handlers.deleteSession({ sessionId: storeId });
  const cache = new ArchiveSessionCache(backend.store, sessionsDir, importFile, remove, options.cachedSessions, log);
  const opener = new PageOpener(options.pool, cache, (row) => openAnswerFromCopy(backend.handlers, row), log, options.opening);
  const exports = new ExportDownloads(
    options.pool,
    (principal, request) => cache.withSession(new ArchiveStore(options.pool, principal), request.sessionId, (held) => backend.handlers.exportSession({ ...request, sessionId: held.storeId })),
    (id) => backend.takeDownload(id),
  );
  const deps = {
    pool: options.pool,
    backend,
    cache,
    opener,
    version: options.version ?? "0.0.0",
    listPage: options.listPage ?? LIST_PAGE,
    snippets: contractSnippets,
    ...(options.amnesiaScore !== undefined ? { amnesiaScore: options.amnesiaScore } : {}),
    exports,
  };
  const csp = pageCsp();
  const largeAnswers = new AnswerDownloads(options.pool, options.largeAnswers);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<WebSocket>();

  /** signs in through the server's limits (`gate`; without one, this app's own) */
  const ownLimits = new SignInLimiter();
  const signInWith = (gate: SignInGate | undefined, request: IncomingMessage, token: string): Promise<SignInOutcome> => (gate ?? ownLimits).signIn(options.pool, request, token);

  const serveDownload = async (request: IncomingMessage, response: ServerResponse, id: string, token: string, gate: SignInGate | undefined): Promise<void> => {
    let principal: Principal;
    try {
      const signedIn = await signInWith(gate, request, token);
      if (!("principal" in signedIn)) {
        const [status, why] = "refused" in signedIn ? [403, signedIn.refused.message] : [429, `${TOO_MANY_FAILURES}; try again in ${signedIn.retryAfter} s`];
        response.writeHead(status, { "content-type": "text/plain" }).end(`${why}\n`);
        return;
      }
      principal = signedIn.principal;
    } catch {
      response.writeHead(503, { "content-type": "text/plain" }).end("the archive failed to answer\n");
      return;
    }
    try {
      await exports.serve(response, id, principal);
    } catch (error) {
      // the export could not be made again here: the person lost the session meanwhile (as gone), or the archive failed
      const gone = error instanceof SessionLookupError || (error instanceof ArchiveError && (error.code === "not-found" || error.code === "forbidden"));
      if (!response.headersSent && gone) sendPreparedDownload(response, undefined);
      else downloadFailed(response);
    }
  };

  /** the principal of the request's `Authorization: Bearer` token; undefined for none, one refused, or one past the limits */
  const signedIn = async (request: IncomingMessage, gate: SignInGate | undefined): Promise<Principal | undefined> => {
    const token = bearerToken(request);
    if (token === undefined) return undefined;
    const outcome = await signInWith(gate, request, token);
    return "principal" in outcome ? outcome.principal : undefined;
  };

  return {
    handleRequest(request, response, pathname, identify, gate) {
      if (request.method !== "GET" && request.method !== "HEAD") return false;
      if (pathname.startsWith("/api/") || pathname === "/health" || pathname === "/ws") return false;
      let url: URL;
      let decoded: string;
      try {
        url = new URL(request.url ?? "/", "http://archive.invalid");
        decoded = decodeURIComponent(pathname);
      } catch {
        response.writeHead(400).end();
        return true;
      }
      if (decoded.startsWith(DOWNLOAD_PATH)) {
        void serveDownload(request, response, decoded.slice(DOWNLOAD_PATH.length), url.searchParams.get("token") ?? "", gate);
        return true;
      }
      if (decoded === TOKEN_CHECK_PATH) {
        // whether the page's token is taken: 204; 403 when refused (unknown, mistyped, revoked); 429 past the limits (not a refusal)
        signInWith(gate, request, bearerToken(request) ?? "").then(
          (outcome) => response.writeHead("principal" in outcome ? 204 : "refused" in outcome ? 403 : 429, { "cache-control": "no-store" }).end(),
          () => downloadFailed(response),
        );
        return true;
      }
      if (decoded.startsWith(ANSWER_PATH)) {
        signedIn(request, gate)
          .then((principal) => largeAnswers.serve(request, response, decoded.slice(ANSWER_PATH.length), principal, identify))
          .catch(() => downloadFailed(response));
        return true;
      }
      serveRendererFile(options.rendererDir, decoded, request, response, csp);
      return true;
    },

    handleUpgrade(request, socket, head, signIn) {
      const refuse = (status: string, why: string): void => {
        socket.write(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${why}\n`);
        socket.destroy();
      };
      const url = new URL(request.url ?? "/", "http://archive.invalid");
      if (url.pathname !== "/ws") return refuse("404 Not Found", "not found");
      if (!sameOrigin(request)) return refuse("403 Forbidden", "forbidden origin");
      const token = url.searchParams.get("token") ?? "";
      signInWith(signIn, request, token).then(
        (signedIn) => {
          if ("retryAfter" in signedIn) return refuse("429 Too Many Requests", `${TOO_MANY_FAILURES}; try again in ${signedIn.retryAfter} s`);
          if ("refused" in signedIn) return refuse("403 Forbidden", "missing or wrong token");
          const principal = signedIn.principal;
          log(`${new Date().toISOString()} WS /ws open ${principal.name}`);
          wss.handleUpgrade(request, socket, head, (ws) => {
            clients.add(ws);
            const dispatch = createDispatcher(archiveHandlers(deps, token), { mapError: archiveCallError, onInternalError: (err, method) => log(`error in ${method}: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`) });
            ws.on("close", () => clients.delete(ws));
            ws.on("error", () => clients.delete(ws));
            answerCalls(ws, loggedCalls(dispatch, principal.name, log), largeAnswers.for(principal));
          });
        },
        () => refuse("503 Service Unavailable", "the archive failed to answer"),
      );
    },

    pushed(principal, project, sessionId) {
      opener.pushed(principal, project, sessionId);
    },

    async close() {
      opener.close();
      for (const ws of clients) ws.terminate();
      wss.close();
      await backend.close();
      if (owned) fs.rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}
