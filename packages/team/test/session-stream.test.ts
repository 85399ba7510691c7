/**
 * A session as JSONL over HTTP: the answer's body is the JSONL itself (application/x-ndjson),
 * streamed from one binary COPY as PostgreSQL sends it, and the client streams it into a private file. A
 * reader that goes away gives the connection back; an answer cut off midway is an error, never a
 * short file taken as whole.
 */
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, ArchiveClient, ArchiveError, authenticate, createArchiveServer, listen, openArchiveDatabase, receiveBatch, shutdownGracefully, type ArchiveDatabase } from "../src";
import { SESSION_ID_HEADER } from "../src/client";
import { usePostgres } from "./archive-server";

const postgres = usePostgres();
let db: ArchiveDatabase;
let token: string;
let url: string;
const servers: Server[] = [];
const dirs: string[] = [];

const header = (id: string): string => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/src" });
const entry = (i: number): string => JSON.stringify({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text: `line ${i} «ünïcode» \\ "q"` }] } });
/** enough entries to arrive in many chunks */
const ENTRIES = Array.from({ length: 6_001 }, (_, i) => entry(i));
const EXPECTED = `${[header("big-session"), ...ENTRIES].join("\n")}\n`;

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-stream-test-"));
  dirs.push(dir);
  return dir;
}

async function serve(database: ArchiveDatabase): Promise<string> {
  const server = createArchiveServer({ pool: database.pool, log: () => {} });
  servers.push(server);
  const { port } = await listen(server, "127.0.0.1", 0);
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  db = await openArchiveDatabase(postgres.freshDatabase());
  await addProject(db.pool, "alpha");
  token = (await addPerson(db.pool, "root", "admin")).token;
  const admin = await authenticate(db.pool, token);
  await receiveBatch(db.pool, admin, { project: "alpha", from: 0, entries: ENTRIES, session: { sessionId: "big-session", agent: "pi", title: null, cwd: "/src", header: header("big-session"), startedAt: null } });
  url = await serve(db);
}, 120_000);

afterAll(async () => {
  for (const server of servers) if (server.listening) await shutdownGracefully(server, 0);
  await db.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a session as JSONL over HTTP", () => {
  it("is the response body itself, application/x-ndjson, sent in chunks, named by the full id", async () => {
    const response = await fetch(`${url}/api/session?id=big-`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get(SESSION_ID_HEADER)).toBe(encodeURIComponent("alpha/root/big-session"));
    expect(await response.text()).toBe(EXPECTED);
  }, 60_000);

  it("is streamed by the client into a new private file, byte for byte", async () => {
    const dir = tempDir();
    const { sessionId, file } = await new ArchiveClient(url, token).downloadSessionJsonl("big-session", dir);
    expect(sessionId).toBe("alpha/root/big-session");
    expect(file).toBe(path.join(dir, "alpha_root_big-session.jsonl"));
    expect(fs.readFileSync(file, "utf8")).toBe(EXPECTED);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  }, 60_000);

  it("answers a session one may not read with the archive's error and writes no file", async () => {
    const dir = tempDir();
    const error = await new ArchiveClient(url, token).downloadSessionJsonl("no-such-session", dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe("not-found");
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 60_000);

  it("gives the connection back when the reader goes away midway", async () => {
    const small = await openArchiveDatabase(postgres.freshDatabase(), { maxConnections: 1 });
    try {
      await addProject(small.pool, "alpha");
      const rootToken = (await addPerson(small.pool, "root", "admin")).token;
      const admin = await authenticate(small.pool, rootToken);
      await receiveBatch(small.pool, admin, { project: "alpha", from: 0, entries: ENTRIES, session: { sessionId: "big-session", agent: "pi", title: null, cwd: "/src", header: header("big-session"), startedAt: null } });
      const smallUrl = await serve(small);
      for (let i = 0; i < 3; i += 1) {
        const controller = new AbortController();
        const response = await fetch(`${smallUrl}/api/session?id=big-session`, { headers: { authorization: `Bearer ${rootToken}` }, signal: controller.signal });
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        await reader.read();
        controller.abort();
      }
      // with the pool's one connection still held, this would wait and fail
      expect(await new ArchiveClient(smallUrl, rootToken).sessionJsonl("big-session")).toEqual({ sessionId: "alpha/root/big-session", jsonl: EXPECTED });
    } finally {
      await small.close();
    }
  }, 60_000);

  it("refuses an answer cut off midway and removes the partial file", async () => {
    const cut = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/x-ndjson; charset=utf-8", [SESSION_ID_HEADER]: "cut-session" });
      response.write(`${header("cut-session")}\n${entry(0)}\n`, () => response.destroy());
    });
    servers.push(cut);
    const { port } = await listen(cut, "127.0.0.1", 0);
    const dir = tempDir();
    const error = await new ArchiveClient(`http://127.0.0.1:${port}`, token).downloadSessionJsonl("cut-session", dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).message).toMatch(/stopped answering midway/);
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 60_000);
});
