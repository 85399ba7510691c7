/**
 * `bonsai team serve`: the archive over HTTP. It keeps no state of its own (everything is in
 * PostgreSQL), so several processes can serve one database behind a load balancer. Every call but
 * /health carries `Authorization: Bearer <token>` and is checked against the caller's projects.
 * One log line per request: time, method, path, status, milliseconds and the person, never content.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable, type Duplex } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ANSWER_PATH } from "@bonsai/ipc";
import type pg from "pg";
import { ARCHIVE_SCHEMA_VERSION } from "./migrations";
import { SESSION_ID_HEADER } from "./client";
import { ArchiveError, type ArchiveErrorCode } from "./errors";
import type { Principal } from "./people";
import { ArchiveStore } from "./archive-store";
import { SessionLookupError } from "@bonsai/store";
import { archiveHas, receiveBatch, type PushBatch, type PushedCommit } from "./receive";
import { SignInLimiter, TOO_MANY_FAILURES, type SignInLimitOptions } from "./sign-in-limit";
import type { ArchiveApp } from "./app/archive-app";
import { answerKey, type AnswerCache, type KeptAnswer } from "./answer-cache";
import { commitsOf } from "./commit-shape";
import type { AmnesiaScore } from "./amnesia-scorer";

/** how long an idle kept-alive connection stays open */
export const KEEP_ALIVE_MS = 65_000;

/** the largest request body taken (a push sends its entries in batches well below this) */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

const STATUS: Record<ArchiveErrorCode, number> = {
  "schema-too-new": 500,
  unreachable: 503,
  "bad-name": 400,
  "bad-request": 400,
  exists: 409,
  "not-found": 404,
  unauthorized: 401,
  forbidden: 404,
  "too-large": 413,
  "rate-limited": 429,
  "read-only": 405,
};

export interface ArchiveServerOptions {
  pool: pg.Pool;
  /** one line per request (default: stdout) */
  log?: (line: string) => void;
  /** failed sign-ins allowed per token id, and per client address behind a trusted proxy (sign-in-limit.ts; default: 20 a minute) */
  signInLimit?: SignInLimitOptions;
  /** a request's headers must arrive within `headersMs` (default 15 s) and the whole request within `requestMs` (default 60 s) */
  timeouts?: { headersMs?: number; requestMs?: number };
  /** the explorer page and its WebSocket API (app/archive-app.ts); absent: the HTTP API only */
  app?: ArchiveApp;
  /** answers kept to be given again (answer-cache.ts); absent: none kept */
  answers?: AnswerCache;
  /** how GET /api/amnesia scores a session (amnesia-scorer.ts; default: in this thread) */
  amnesiaScore?: AmnesiaScore;
}

/** the reads whose answers may be kept: they depend only on the caller's projects and the request's text */
const KEPT_ROUTES = new Set(["GET /api/sessions", "GET /api/search", "GET /api/session", "GET /api/amnesia"]);

const JSON_TYPE = "application/json; charset=utf-8";

/** An answer sent as it is read rather than as one JSON value. */
class Streamed {
  constructor(
    readonly contentType: string,
    readonly headers: Record<string, string>,
    readonly chunks: AsyncIterable<string | Uint8Array>,
  ) {}
}

type Handler = (principal: Principal, body: unknown, pool: pg.Pool, query: URLSearchParams, options: ArchiveServerOptions) => Promise<unknown>;

/** the session reference of a call: `id` (a key "project/person/id", or an id or its prefix), within `project` when given */
function sessionReference(query: URLSearchParams): string {
  const id = requiredParam(query, "id");
  const project = query.get("project");
  return project === null || id.includes("/") ? id : `${project}/${id}`;
}

function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null)?.[name];
  if (typeof value !== "string" || value === "") throw new ArchiveError("bad-request", `the request needs a string "${name}"`);
  return value;
}

const ROUTES: Record<string, Handler> = {
  "POST /api/push/has": async (principal, body, pool) => ({ have: await archiveHas(pool, principal, field(body, "project"), field(body, "sessionId")) }),
  "POST /api/push/batch": async (principal, body, pool) => receiveBatch(pool, principal, parseBatch(body)),
  "GET /api/sessions": async (principal, _body, pool, query) => {
    const filters = { ...optional("project", query.get("project")), ...optional("pushedBy", query.get("pushedBy")), ...optional("text", query.get("text")) };
    return new ArchiveStore(pool, principal).listArchived({ ...filters, ...optional("limit", numberParam(query, "limit")), ...optional("after", query.get("after")) });
  },
  "GET /api/session": async (principal, _body, pool, query) => {
    const { row, chunks } = await new ArchiveStore(pool, principal).openJsonl(sessionReference(query));
    return new Streamed("application/x-ndjson; charset=utf-8", { [SESSION_ID_HEADER]: encodeURIComponent(row.key) }, chunks);
  },
  "GET /api/session/commits": async (principal, _body, pool, query) => new ArchiveStore(pool, principal).commits(sessionReference(query)),
  "GET /api/search": async (principal, _body, pool, query) =>
    new ArchiveStore(pool, principal).searchHits(requiredParam(query, "q"), { ...optional("limit", numberParam(query, "limit")), ...optional("session", query.get("session")), ...optional("project", query.get("project")) }),
  "GET /api/amnesia": async (principal, _body, pool, query, options) => new ArchiveStore(pool, principal).amnesiaOverview(optional("project", query.get("project")), options.amnesiaScore),
  "GET /api/me": async (principal, _body, pool) => {
    const projects = await pool.query<{ name: string }>("SELECT name FROM projects WHERE id = ANY($1::bigint[]) ORDER BY name", [principal.projectIds]);
    return { name: principal.name, role: principal.role, projects: projects.rows.map((r) => r.name) };
  },
};

function optional<K extends string, V>(key: K, value: V | null | undefined): { [k in K]?: V } {
  return value === null || value === undefined ? {} : ({ [key]: value } as { [k in K]?: V });
}

function requiredParam(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === "") throw new ArchiveError("bad-request", `the call needs the parameter "${name}"`);
  return value;
}

function numberParam(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ArchiveError("bad-request", `"${name}" is a whole number above 0`);
  return n;
}

function parseBatch(body: unknown): PushBatch {
  const b = body as Partial<PushBatch> | null;
  const s = b?.session;
  if (!b || !s || typeof s !== "object" || !Number.isInteger(b.from) || (b.from as number) < 0 || !Array.isArray(b.entries) || !b.entries.every((e) => typeof e === "string")) {
    throw new ArchiveError("bad-request", "a push batch needs project, session, from and entries");
  }
  const text = (value: unknown, name: string): string => {
    if (typeof value !== "string") throw new ArchiveError("bad-request", `the pushed session needs a string "${name}"`);
    return value;
  };
  return {
    project: field(b, "project"),
    from: b.from as number,
    entries: b.entries,
    session: {
      sessionId: field(s, "sessionId"),
      agent: text(s.agent, "agent"),
      title: typeof s.title === "string" ? s.title : null,
      cwd: text(s.cwd, "cwd"),
      header: text(s.header, "header"),
      startedAt: typeof s.startedAt === "string" ? s.startedAt : null,
      ...(s.commits === undefined ? {} : { commits: parseCommits(s.commits) }),
    },
  };
}

/** A pushed session's commits: `[{sha, subject, date, files}]`, each a string (files: strings). */
function parseCommits(value: unknown): PushedCommit[] {
  const commits = commitsOf(value);
  if (commits === null) throw new ArchiveError("bad-request", "the pushed session's commits are [{sha, subject, date, files}] of strings");
  return commits;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ArchiveError("too-large", `the request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return null;
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ArchiveError("bad-request", "the request body is not JSON");
  }
}

function sendBody(response: ServerResponse, status: number, contentType: string, body: string | Buffer, headers: Readonly<Record<string, string>> = {}): void {
  response.writeHead(status, { "content-type": contentType, "cache-control": "no-store", "x-content-type-options": "nosniff", ...headers });
  response.end(body);
}

/** Passes the chunks on, and hands `keep` the whole answer if it ended within `maxBytes`. */
async function* teeWithin(chunks: AsyncIterable<string | Uint8Array>, maxBytes: number, keep: (body: Buffer) => void): AsyncGenerator<string | Uint8Array> {
  let parts: Buffer[] | null = [];
  let size = 0;
  for await (const chunk of chunks) {
    if (parts !== null) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      size += bytes.length;
      if (size > maxBytes) parts = null;
      else parts.push(bytes);
    }
    yield chunk;
  }
  if (parts !== null) keep(Buffer.concat(parts, size));
}

function bearer(request: IncomingMessage): string {
  const header = request.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ArchiveError("unauthorized", "sign in with a token: Authorization: Bearer <token>");
  return match[1] as string;
}

export function createArchiveServer(options: ArchiveServerOptions): Server {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const limiter = new SignInLimiter(options.signInLimit);
  const headersMs = options.timeouts?.headersMs ?? 15_000;
  const requestMs = Math.max(options.timeouts?.requestMs ?? 60_000, headersMs);
  const answers = options.answers?.enabled ? options.answers : undefined;
  const server = createServer({ headersTimeout: headersMs, requestTimeout: requestMs, connectionsCheckingInterval: Math.min(1000, headersMs) }, (request, response) => {
    const started = process.hrtime.bigint();
    const target = new URL(request.url ?? "/", "http://archive.invalid");
    const path = target.pathname;
    let who = "-";
    // a large answer's address is its one-time capability: never in the log
    const loggedPath = path.startsWith(ANSWER_PATH) ? `${ANSWER_PATH}…` : path;
    const logLine = (status: number | string): void => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(`${new Date().toISOString()} ${request.method} ${loggedPath} ${status} ${ms.toFixed(1)}ms ${who}`);
    };
    const finishWith = (status: number, contentType: string, body: string | Buffer, headers?: Readonly<Record<string, string>>): void => {
      // while shutting down, a kept-alive connection is closed after its answer
      if (!server.listening) response.shouldKeepAlive = false;
      sendBody(response, status, contentType, body, headers);
      logLine(status);
    };
    const finish = (status: number, value: unknown, headers?: Record<string, string>): void => finishWith(status, JSON_TYPE, JSON.stringify(value), headers);
    const stream = async (answer: Streamed, keep?: (body: Buffer) => void): Promise<void> => {
      if (!server.listening) response.shouldKeepAlive = false;
      response.writeHead(200, { "content-type": answer.contentType, "cache-control": "no-store", "x-content-type-options": "nosniff", ...answer.headers });
      try {
        const chunks = keep && answers ? teeWithin(answer.chunks, answers.maxAnswerBytes, keep) : answer.chunks;
        await pipeline(Readable.from(chunks), response);
        logLine(200);
      } catch (error) {
        // the status is sent: the reader sees the answer cut off (no last chunk), never a short one taken as whole
        response.destroy();
        logLine("200-cut");
        log(`error ${request.method} ${path}: the answer was cut off: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    };
    void (async () => {
      try {
        if (request.method === "GET" && path === "/health") {
          await options.pool.query("SELECT 1");
          finish(200, { ok: true, schema: ARCHIVE_SCHEMA_VERSION });
          return;
        }
        const handler = ROUTES[`${request.method} ${path}`];
        if (!handler && options.app?.handleRequest(request, response, path, (name) => (who = name), limiter)) {
          response.once("finish", () => logLine(response.statusCode));
          return;
        }
        if (!handler) {
          finish(404, { error: "no such call", code: "not-found" });
          return;
        }
        const signedIn = await limiter.signIn(options.pool, request, bearer(request));
        if ("retryAfter" in signedIn) {
          who = `(refused sign-in from ${signedIn.client})`;
          finish(429, { error: `${TOO_MANY_FAILURES}; try again in ${signedIn.retryAfter} s`, code: "rate-limited" }, { "retry-after": String(signedIn.retryAfter) });
          return;
        }
        if ("refused" in signedIn) {
          who = `(failed sign-in from ${signedIn.client})`;
          throw signedIn.refused;
        }
        const principal = signedIn.principal;
        who = principal.name;
        const route = `${request.method} ${path}`;
        const key = answers && KEPT_ROUTES.has(route) ? answerKey(principal.readVersion, route, target.searchParams) : undefined;
        const kept = key === undefined ? undefined : answers?.get(key);
        if (kept) {
          finishWith(200, kept.contentType, kept.body, kept.headers);
          return;
        }
        const body = await readBody(request);
        const answer = await handler(principal, body, options.pool, target.searchParams, options);
        const keep = (made: KeptAnswer): void => {
          if (key !== undefined) answers?.set(key, made);
        };
        if (answer instanceof Streamed) await stream(answer, key === undefined ? undefined : (bytes) => keep({ contentType: answer.contentType, headers: answer.headers, body: bytes }));
        else if (key !== undefined) {
          const bytes = Buffer.from(JSON.stringify(answer));
          keep({ contentType: JSON_TYPE, headers: {}, body: bytes });
          finishWith(200, JSON_TYPE, bytes);
        } else finish(200, answer);
        // a push that added entries: this process warms the session for the page (app/page-open.ts)
        if (path === "/api/push/batch" && (answer as { added: number }).added > 0) options.app?.pushed(principal, (body as PushBatch).project, (body as PushBatch).session.sessionId);
      } catch (error) {
        if (error instanceof ArchiveError) finish(STATUS[error.code], { error: error.message, code: error.code });
        // the one resolver's lookup error: no such session the caller may read (404), or a reference that names several (400)
        else if (error instanceof SessionLookupError) finish(error.candidates.length > 0 ? 400 : 404, { error: error.message, code: error.candidates.length > 0 ? "bad-request" : "not-found" });
        else finish(500, { error: "the archive failed to answer; see its log", code: "internal" });
        if (!(error instanceof ArchiveError) && !(error instanceof SessionLookupError)) log(`error ${request.method} ${path}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    })();
  });
  // Longer than any client or proxy keeps an idle connection (Node's fetch 4 s, load balancers up to 60 s), so the
  // client, not the server, closes it: a server closing it just as the client sends on it resets that request.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const app = options.app;
  if (app) server.on("upgrade", (request, socket, head) => app.handleUpgrade(request, socket as Duplex, head, limiter));
  return server;
}

/**
 * Stops taking connections, lets the requests under way finish (up to `graceMs`), then closes
 * whatever is left. Resolves once the server is closed.
 */
export async function shutdownGracefully(server: Server, graceMs = 10_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}

/** Listens on `host:port` (port 0: any free port) and resolves with the address. */
export async function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server.address() as AddressInfo;
}
