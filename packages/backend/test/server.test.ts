import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createApi, connectWebSocket, TOKEN_CHECK_PATH, TOKEN_REFUSED_MESSAGE, type BonsaiApi, type WsBridge } from "@bonsai/ipc";
import { createBackend, type Backend } from "../src/index";
import { startServer, type RunningServer } from "../src/server";

let dir: string;
let backend: Backend;
let server: RunningServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-server-"));
  const rendererDir = path.join(dir, "renderer");
  fs.mkdirSync(path.join(rendererDir, "assets"), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, "index.html"), "<!doctype html><title>Bonsai</title>");
  fs.writeFileSync(path.join(rendererDir, "assets", "app.js"), "console.log(1)");
  fs.writeFileSync(path.join(dir, "secret.txt"), "not for the browser");
  backend = createBackend({ dataDir: path.join(dir, "data"), env: {} });
  server = await startServer({ backend, rendererDir, host: "127.0.0.1" });
});

afterAll(async () => {
  await server?.close();
  await backend?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Resolves with the HTTP status of a refused upgrade, or "open" when the socket opened. */
function tryConnect(url: string, headers: Record<string, string> = {}): Promise<number | "open"> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on("open", () => {
      ws.close();
      resolve("open");
    });
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("error", () => resolve(0));
  });
}

function wsUrl(token: string | null): string {
  return `ws://127.0.0.1:${server.port}/ws${token === null ? "" : `?token=${encodeURIComponent(token)}`}`;
}

describe("bonsai serve: who may connect", () => {
  it("listens on 127.0.0.1 and prints a URL with a long random token", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{40,}$/);
  });

  it("refuses a WebSocket without the token", async () => {
    expect(await tryConnect(wsUrl(null))).toBe(403);
  });

  it("refuses a wrong token (same length or not)", async () => {
    expect(await tryConnect(wsUrl("x".repeat(server.token.length)))).toBe(403);
    expect(await tryConnect(wsUrl("short"))).toBe(403);
  });

  it("refuses a foreign Origin even with the token", async () => {
    expect(await tryConnect(wsUrl(server.token), { Origin: "http://evil.example" })).toBe(403);
    expect(await tryConnect(wsUrl(server.token), { Origin: "http://127.0.0.1:1" })).toBe(403);
  });

  it("refuses a foreign Host header (DNS rebinding)", async () => {
    expect(await tryConnect(wsUrl(server.token), { Host: `evil.example:${server.port}` })).toBe(403);
    const status = await new Promise<number>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port: server.port, path: "/", headers: { Host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on("error", reject);
    });
    expect(status).toBe(403);
  });

  it("accepts the token from its own origin", async () => {
    expect(await tryConnect(wsUrl(server.token), { Origin: server.origin })).toBe("open");
    expect(await tryConnect(wsUrl(server.token), { Origin: `http://localhost:${server.port}` })).toBe("open");
  });
});

describe("bonsai serve: static files", () => {
  it("serves the renderer with a CSP and falls back to index.html", async () => {
    const res = await fetch(`${server.origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await (await fetch(`${server.origin}/assets/app.js`)).text()).toBe("console.log(1)");
    expect(await (await fetch(`${server.origin}/some/route`)).text()).toContain("<title>Bonsai</title>");
  });

  it("never serves files outside the renderer folder", async () => {
    for (const p of ["/../secret.txt", "/%2e%2e/secret.txt", "/assets/../../secret.txt"]) {
      const res = await fetch(`${server.origin}${p}`);
      expect(await res.text()).not.toContain("not for the browser");
    }
  });
});

describe("bonsai serve: calls", () => {
  let bridge: WsBridge;
  let api: BonsaiApi;
  beforeAll(() => {
    bridge = connectWebSocket({ url: wsUrl(server.token), create: (u) => new WebSocket(u) as unknown as ReturnType<Parameters<typeof connectWebSocket>[0]["create"]>, maxReconnects: 0 });
    api = createApi(bridge);
  });
  afterAll(() => bridge.close());

  it("answers malformed frames and payloads with typed errors and keeps serving", async () => {
    const raw = new WebSocket(wsUrl(server.token));
    await new Promise((r) => raw.once("open", r));
    const replies: unknown[] = [];
    raw.on("message", (d) => replies.push(JSON.parse(d.toString())));
    raw.send("{not json");
    raw.send(JSON.stringify({ t: "call", id: 1, method: "getEntry", params: { sessionId: 5 } }));
    raw.send(JSON.stringify({ t: "call", id: 2, method: "dropTables", params: {} }));
    raw.send(JSON.stringify({ t: "call", id: 3, method: "listSessions", params: { extra: true } }));
    raw.send(Buffer.from([1, 2, 3]));
    raw.send(JSON.stringify({ t: "call", id: 4, method: "listSessions", params: {} }));
    await expect.poll(() => replies.length).toBe(6);
    const byId = (id: number | null) => replies.filter((r) => (r as { id: unknown }).id === id) as { result: { ok: boolean; error?: { code: string } } }[];
    expect(byId(null).map((r) => r.result.error?.code)).toEqual(["bad_frame", "bad_frame"]);
    expect(byId(1)[0]!.result.error?.code).toBe("invalid_payload");
    expect(byId(2)[0]!.result.error?.code).toBe("unknown_method");
    expect(byId(3)[0]!.result.error?.code).toBe("invalid_payload");
    expect(byId(4)[0]!.result.ok).toBe(true);
    raw.close();
    // the typed client still works afterwards
    expect((await api.listSessions()).sessions).toEqual([]);
  });

  it("sends text frames in ASCII, characters outside it escaped (the page keeps them one byte per character)", async () => {
    const raw = new WebSocket(wsUrl(server.token));
    await new Promise((r) => raw.once("open", r));
    const frames: { bytes: Buffer; binary: boolean }[] = [];
    raw.on("message", (d, binary) => frames.push({ bytes: Buffer.from(d as Buffer), binary }));
    raw.send(JSON.stringify({ t: "call", id: 9, method: "getSkeleton", params: { sessionId: `${"s".repeat(190)}-é` } }));
    await expect.poll(() => frames.length).toBe(1);
    const [frame] = frames;
    expect(frame!.binary).toBe(false);
    expect(frame!.bytes.every((b) => b < 0x80)).toBe(true);
    const reply = JSON.parse(frame!.bytes.toString("utf8")) as { id: number; result: { ok: boolean; error: { code: string; message: string } } };
    expect(reply.id).toBe(9);
    expect(reply.result.error.code).toBe("not_found");
    expect(reply.result.error.message).toContain(`${"s".repeat(190)}-é`);
    raw.close();
  });

  it("rejects with IpcError through the typed client", async () => {
    await expect(api.getSkeleton({ sessionId: "no-such-session" })).rejects.toMatchObject({ name: "IpcError", code: "not_found" });
  });
});

describe("the WebSocket client", () => {
  it("tells a refused token apart from a lost connection: says \"refused\", stops trying, and every call says why", async () => {
    const check = (token: string) => fetch(`http://127.0.0.1:${server.port}${TOKEN_CHECK_PATH}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await check(server.token)).status).toBe(204);
    expect((await check("wrong")).status).toBe(403);
    const statuses: string[] = [];
    let attempts = 0;
    const bridge = connectWebSocket({
      url: wsUrl("a-mistyped-token"),
      create: (u) => {
        attempts++;
        return new WebSocket(u) as unknown as ReturnType<Parameters<typeof connectWebSocket>[0]["create"]>;
      },
      onStatus: (s) => statuses.push(s),
    });
    try {
      const api = createApi(bridge);
      await expect.poll(() => statuses.at(-1)).toBe("refused");
      await expect(api.listSessions()).rejects.toMatchObject({ code: "unavailable", message: TOKEN_REFUSED_MESSAGE });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(attempts).toBe(1);
      expect(statuses).toEqual(["connecting", "refused"]);
    } finally {
      bridge.close();
    }
  });


  it("fails pending calls when the server goes away and reconnects when it is back", async () => {
    const rendererDir = path.join(dir, "renderer");
    const first = await startServer({ backend, rendererDir, token: "fixed-token-for-this-test" });
    const port = first.port;
    const statuses: string[] = [];
    const bridge = connectWebSocket({
      url: `ws://127.0.0.1:${port}/ws?token=fixed-token-for-this-test`,
      create: (u) => new WebSocket(u) as unknown as ReturnType<Parameters<typeof connectWebSocket>[0]["create"]>,
      onStatus: (s) => statuses.push(s),
    });
    const api = createApi(bridge);
    try {
      expect((await api.listSessions()).sessions).toEqual([]);
      await first.close();
      await expect.poll(() => statuses.at(-1)).not.toBe("open");
      await expect(api.listSessions()).rejects.toMatchObject({ code: "unavailable" });
      const second = await startServer({ backend, rendererDir, port, token: "fixed-token-for-this-test" });
      try {
        await expect.poll(() => statuses.at(-1), { timeout: 15_000 }).toBe("open");
        expect((await api.listSessions()).sessions).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      bridge.close();
    }
  });
});
