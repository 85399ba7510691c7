/**
 * A real HTTP server on 127.0.0.1 that speaks enough of the OpenAI chat-completions API for Bonsai's
 * tests: `POST /v1/chat/completions` (streaming SSE and plain JSON), `GET /v1/models`, and a remote
 * summarization route (`POST /remote/summarize`, body `{systemPrompt, prompt}` -> `{summary}`).
 *
 * Each test scripts the answers: a queue of replies per route (optionally reserved for one model id),
 * falling back to a deterministic default reply when the queue is empty. Every request is recorded
 * (method, path, headers, parsed body) so tests can assert the exact prompts that were sent.
 *
 * Other processes (Playwright specs, the CLI) script it over HTTP: `POST /__mock/enqueue`
 * `{chat?: ChatReply[], remote?: RemoteReply[]}`, `GET /__mock/requests`, `POST /__mock/reset`.
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface MockUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
  cached_tokens?: number;
}

/** One scripted answer of the chat-completions route. */
export type ChatReply =
  /** a successful completion; several strings become several text parts (non-streaming) */
  | { kind: "text"; text: string | string[]; usage?: MockUsage; finishReason?: "stop" | "length"; reasoning?: string; delayMs?: number; model?: string }
  /** an HTTP error with an OpenAI-style error body */
  | { kind: "error"; status: number; message?: string; code?: string; headers?: Record<string, string>; statusText?: string; model?: string }
  /** the OpenAI context-overflow error (400, code context_length_exceeded) */
  | { kind: "overflow"; message?: string; model?: string }
  /** never answer; the request stays open until the client aborts (or the server closes) */
  | { kind: "hang"; model?: string }
  /** stream these chunks, then hang until the client aborts */
  | { kind: "stream-then-hang"; chunks: string[]; model?: string }
  /** a raw body, e.g. malformed JSON or a truncated SSE stream */
  | { kind: "raw"; status?: number; body: string; contentType?: string; model?: string }
  /** a huge body of `bytes` bytes written as fast as the client reads it (FloodReply) */
  | ({ kind: "flood"; model?: string } & FloodReply);

/**
 * A body of `bytes` bytes: `filler` repeated (default "x", so no line ends at all), written in
 * 64 KiB pieces as fast as the client reads them; it stops when the client goes away, and the
 * request's `bytesSent` says how far it got (a client that bounds what it reads stops early).
 */
export interface FloodReply {
  bytes: number;
  status?: number;
  /** default application/json */
  contentType?: string;
  filler?: string;
}

/** One scripted answer of the remote summarization route. */
export type RemoteReply =
  | { kind: "summary"; summary: string; extra?: Record<string, unknown>; delayMs?: number }
  | { kind: "error"; status: number; statusText?: string; body?: string }
  | { kind: "json"; body: unknown }
  | { kind: "hang" }
  | { kind: "raw"; status?: number; body: string; contentType?: string }
  | ({ kind: "flood" } & FloodReply);

export interface RecordedRequest {
  /** 1-based order of arrival over all routes */
  seq: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** the raw request body */
  rawBody: string;
  /** the parsed JSON body, or undefined when it was not JSON */
  body: unknown;
  /** true once the client went away before an answer was complete */
  aborted: boolean;
  /** body bytes of a "flood" answer written before it ended or the client went away */
  bytesSent?: number;
}

/** The request body of a chat completion as the server saw it (the fields tests look at). */
export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: unknown }[];
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  reasoning_effort?: string;
  [extra: string]: unknown;
}

export interface MockOpenAiServerOptions {
  /** port to listen on; 0 (default) picks a free one */
  port?: number;
  /** model ids listed by GET /v1/models */
  models?: string[];
  /** require `authorization: Bearer <apiKey>` on the /v1 routes when set */
  apiKey?: string;
  /** answer used when the chat queue is empty (default: a deterministic summary text) */
  fallbackChat?: (body: ChatRequestBody, n: number) => ChatReply;
  /** answer used when the remote queue is empty */
  fallbackRemote?: (body: unknown, n: number) => RemoteReply;
}

export interface MockOpenAiServer {
  /** e.g. http://127.0.0.1:43123 */
  readonly origin: string;
  /** base URL for the openai SDK: `${origin}/v1` */
  readonly baseUrl: string;
  /** URL of the remote summarization route */
  readonly remoteUrl: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** queue chat replies (consumed in order; a reply with `model` is only used for that model) */
  enqueue(...replies: ChatReply[]): void;
  /** queue remote summarization replies */
  enqueueRemote(...replies: RemoteReply[]): void;
  /** bodies of the chat-completion requests so far */
  chatRequests(): ChatRequestBody[];
  /** bodies of the remote summarization requests so far */
  remoteRequests(): { systemPrompt?: unknown; prompt?: unknown; [k: string]: unknown }[];
  /** resolves once at least `count` requests matching `path` (default: chat completions) have arrived */
  waitForRequests(count: number, path?: string, timeoutMs?: number): Promise<void>;
  /** replace the answer used when the chat queue is empty (undefined = the default) */
  setChatFallback(fallback: ((body: ChatRequestBody, n: number) => ChatReply) | undefined): void;
  /** replace the answer used when the remote queue is empty (undefined = the default) */
  setRemoteFallback(fallback: ((body: unknown, n: number) => RemoteReply) | undefined): void;
  /** forget recorded requests, queued replies and replaced fallbacks */
  reset(): void;
  /** number of queued replies not consumed yet */
  pending(): number;
  close(): Promise<void>;
}

const CHAT_PATH = "/v1/chat/completions";
const REMOTE_PATH = "/remote/summarize";

export const OVERFLOW_MESSAGE =
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Your input exceeds the context window of this model.";

function defaultChat(_body: ChatRequestBody, n: number): ChatReply {
  return {
    kind: "text",
    text: `## Goal\nMock summary ${n}\n\n## Next Steps\n1. Continue`,
    usage: { prompt_tokens: 100, completion_tokens: 20 },
  };
}

function defaultRemote(_body: unknown, n: number): RemoteReply {
  return { kind: "summary", summary: `Remote summary ${n}` };
}

function usageJson(u: MockUsage | undefined): Record<string, unknown> {
  const usage = u ?? { prompt_tokens: 10, completion_tokens: 5 };
  const out: Record<string, unknown> = {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
  };
  if (usage.cached_tokens !== undefined) out.prompt_tokens_details = { cached_tokens: usage.cached_tokens };
  return out;
}

export async function startMockOpenAiServer(options: MockOpenAiServerOptions = {}): Promise<MockOpenAiServer> {
  const requests: RecordedRequest[] = [];
  let chatQueue: ChatReply[] = [];
  let remoteQueue: RemoteReply[] = [];
  let chatCount = 0;
  let remoteCount = 0;
  let seq = 0;
  const waiters: { count: number; path: string; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  let fallbackChat = options.fallbackChat ?? defaultChat;
  let fallbackRemote = options.fallbackRemote ?? defaultRemote;
  const models = options.models ?? ["mock-model"];

  const countFor = (path: string) => requests.filter((r) => r.path === path).length;
  const notify = () => {
    for (const w of [...waiters]) {
      if (countFor(w.path) >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const takeChat = (model: string): ChatReply | undefined => {
    const i = chatQueue.findIndex((r) => r.model === undefined || r.model === model);
    if (i < 0) return undefined;
    return chatQueue.splice(i, 1)[0];
  };

  const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, statusText?: string) => {
    const text = JSON.stringify(body);
    res.writeHead(status, statusText ?? http.STATUS_CODES[status] ?? "", { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
    res.end(text);
  };

  const flood = async (req: RecordedRequest, res: http.ServerResponse, reply: FloodReply) => {
    res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json", "content-length": reply.bytes });
    const piece = Buffer.from((reply.filler ?? "x").repeat(Math.ceil(65536 / (reply.filler ?? "x").length)).slice(0, 65536));
    req.bytesSent = 0;
    while (req.bytesSent < reply.bytes && !res.destroyed) {
      const n = Math.min(piece.length, reply.bytes - req.bytesSent);
      const more = res.write(n === piece.length ? piece : piece.subarray(0, n));
      req.bytesSent += n;
      if (!more) await new Promise<void>((resolve) => {
        res.once("drain", resolve);
        res.once("close", resolve);
      });
    }
    if (!res.destroyed) res.end();
  };

  const answerChat = async (req: RecordedRequest, res: http.ServerResponse) => {
    const body = (req.body ?? {}) as ChatRequestBody;
    chatCount++;
    const reply = takeChat(body.model) ?? fallbackChat(body, chatCount);
    const id = `chatcmpl-mock-${chatCount}`;
    const created = Math.floor(Date.now() / 1000);
    switch (reply.kind) {
      case "hang":
        return; // the socket stays open until the client gives up or the server closes
      case "raw":
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
        res.end(reply.body);
        return;
      case "flood":
        return flood(req, res, reply);
      case "error":
        sendJson(res, reply.status, { error: { message: reply.message ?? http.STATUS_CODES[reply.status] ?? "error", type: "server_error", code: reply.code ?? null } }, reply.headers, reply.statusText);
        return;
      case "overflow":
        sendJson(res, 400, { error: { message: reply.message ?? OVERFLOW_MESSAGE, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } });
        return;
      case "stream-then-hang": {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
        for (const chunk of reply.chunks) {
          res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta: { content: chunk }, finish_reason: null }] })}\n\n`);
        }
        return;
      }
      case "text": {
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        const parts = Array.isArray(reply.text) ? reply.text : [reply.text];
        const finish = reply.finishReason ?? "stop";
        if (body.stream) {
          res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
          const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) =>
            res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
          chunk({ role: "assistant", content: "" }, null);
          if (reply.reasoning) chunk({ reasoning_content: reply.reasoning }, null);
          const joined = parts.join("\n");
          // split the text into a few deltas so clients see real streaming
          const step = Math.max(1, Math.ceil(joined.length / 4));
          for (let i = 0; i < joined.length; i += step) chunk({ content: joined.slice(i, i + step) }, null);
          chunk({}, finish);
          const opts = body.stream_options as { include_usage?: boolean } | undefined;
          if (opts?.include_usage) res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [], usage: usageJson(reply.usage) })}\n\n`);
          res.end("data: [DONE]\n\n");
          return;
        }
        const content = parts.length === 1 ? parts[0] : parts.map((text) => ({ type: "text", text }));
        const message: Record<string, unknown> = { role: "assistant", content, refusal: null };
        if (reply.reasoning) message.reasoning_content = reply.reasoning;
        sendJson(res, 200, { id, object: "chat.completion", created, model: body.model, choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage: usageJson(reply.usage) });
        return;
      }
    }
  };

  const answerRemote = async (req: RecordedRequest, res: http.ServerResponse) => {
    remoteCount++;
    const reply = remoteQueue.shift() ?? fallbackRemote(req.body, remoteCount);
    switch (reply.kind) {
      case "hang":
        return;
      case "summary":
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (!res.destroyed) sendJson(res, 200, { summary: reply.summary, ...reply.extra });
        return;
      case "json":
        sendJson(res, 200, reply.body);
        return;
      case "error":
        res.writeHead(reply.status, reply.statusText ?? http.STATUS_CODES[reply.status] ?? "", { "content-type": "text/plain" });
        res.end(reply.body ?? "failure");
        return;
      case "raw":
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
        res.end(reply.body);
        return;
      case "flood":
        return flood(req, res, reply);
    }
  };

  const resetState = () => {
    requests.length = 0;
    chatQueue = [];
    remoteQueue = [];
    chatCount = 0;
    remoteCount = 0;
    fallbackChat = options.fallbackChat ?? defaultChat;
    fallbackRemote = options.fallbackRemote ?? defaultRemote;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const record: RecordedRequest = { seq: ++seq, method: req.method ?? "GET", path, headers: req.headers, rawBody, body, aborted: false };
      requests.push(record);
      res.on("close", () => {
        if (!res.writableFinished) record.aborted = true;
      });
      notify();
      if (options.apiKey && path.startsWith("/v1/") && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        sendJson(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
        return;
      }
      const route = `${record.method} ${path}`;
      const done = (p: Promise<void>) => p.catch((e: unknown) => res.destroy(e instanceof Error ? e : new Error(String(e))));
      if (route === `POST ${CHAT_PATH}`) {
        if (body === undefined) {
          sendJson(res, 400, { error: { message: "request body is not valid JSON", type: "invalid_request_error" } });
          return;
        }
        done(answerChat(record, res));
      } else if (route === "GET /v1/models") {
        sendJson(res, 200, { object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "bonsai-mock" })) });
      } else if (route === `POST ${REMOTE_PATH}`) {
        done(answerRemote(record, res));
      } else if (route === "POST /__mock/enqueue") {
        // scripting from another process (Playwright): {chat?: ChatReply[], remote?: RemoteReply[]}
        const b = (body ?? {}) as { chat?: ChatReply[]; remote?: RemoteReply[] };
        if (Array.isArray(b.chat)) chatQueue.push(...b.chat);
        if (Array.isArray(b.remote)) remoteQueue.push(...b.remote);
        sendJson(res, 200, { pending: chatQueue.length + remoteQueue.length });
      } else if (route === "GET /__mock/requests") {
        sendJson(res, 200, requests.filter((r) => !r.path.startsWith("/__mock/")).map(({ seq: s, method, path: p, body: b, aborted, bytesSent }) => ({ seq: s, method, path: p, body: b, aborted, bytesSent })));
      } else if (route === "POST /__mock/reset") {
        resetState();
        sendJson(res, 200, { ok: true });
      } else {
        sendJson(res, 404, { error: { message: `no route ${route}`, type: "not_found" } });
      }
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    baseUrl: `${origin}/v1`,
    remoteUrl: `${origin}${REMOTE_PATH}`,
    port,
    requests,
    enqueue: (...replies) => void chatQueue.push(...replies),
    enqueueRemote: (...replies) => void remoteQueue.push(...replies),
    chatRequests: () => requests.filter((r) => r.path === CHAT_PATH && r.body !== undefined).map((r) => r.body as ChatRequestBody),
    remoteRequests: () => requests.filter((r) => r.path === REMOTE_PATH).map((r) => (r.body ?? {}) as { [k: string]: unknown }),
    waitForRequests: (count, path = CHAT_PATH, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (countFor(path) >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`mock server: ${count} request(s) to ${path} did not arrive within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, path, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    setChatFallback: (f) => void (fallbackChat = f ?? options.fallbackChat ?? defaultChat),
    setRemoteFallback: (f) => void (fallbackRemote = f ?? options.fallbackRemote ?? defaultRemote),
    reset: resetState,
    pending: () => chatQueue.length + remoteQueue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

type Hook = (fn: () => unknown) => void;

/**
 * One server per test file, reset before each test: pass vitest's hook functions.
 * `const server = useMockOpenAiServer({ beforeAll, afterAll, beforeEach })` then call `server()`.
 */
export function useMockOpenAiServer(hooks: { beforeAll: Hook; afterAll: Hook; beforeEach: Hook }, options?: MockOpenAiServerOptions): () => MockOpenAiServer {
  let server: MockOpenAiServer | undefined;
  hooks.beforeAll(async () => {
    server = await startMockOpenAiServer(options);
  });
  hooks.afterAll(() => server?.close());
  hooks.beforeEach(() => server?.reset());
  return () => {
    if (!server) throw new Error("the mock OpenAI server is not started yet (use it inside a test)");
    return server;
  };
}
