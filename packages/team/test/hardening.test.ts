/**
 * What a team lead expects of a server on the network: a request body limit, headers that must
 * arrive in time, failed sign-ins limited per token id and trusted client address (and logged), a shutdown that lets requests
 * under way finish, and a revoked token refused at once even after it signed in.
 */
import type { Server } from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, ArchiveClient, createArchiveServer, grant, listen, openArchiveDatabase, revokeTokens, shutdownGracefully, type ArchiveDatabase, type ArchiveServerOptions } from "../src";
import { MAX_BODY_BYTES } from "../src/server";
import { scryptDerivations } from "../src/tokens";
import { usePostgres } from "./archive-server";

const postgres = usePostgres();
let db: ArchiveDatabase;
let token: string;
const servers: Server[] = [];

async function start(options: Partial<ArchiveServerOptions> = {}): Promise<{ url: string; port: number; server: Server; lines: string[] }> {
  const lines: string[] = [];
  const server = createArchiveServer({ pool: db.pool, log: (line) => lines.push(line), ...options });
  servers.push(server);
  const { port } = await listen(server, "127.0.0.1", 0);
  return { url: `http://127.0.0.1:${port}`, port, server, lines };
}

beforeAll(async () => {
  db = await openArchiveDatabase(postgres.freshDatabase());
  await addProject(db.pool, "alpha");
  token = (await addPerson(db.pool, "amy", "member")).token;
  await grant(db.pool, "amy", "alpha");
}, 120_000);

afterAll(async () => {
  for (const server of servers) if (server.listening) await shutdownGracefully(server, 0);
  await db.close();
});

describe("the archive server under load and abuse", () => {
  it("refuses a body over the limit with 413 in one sentence", async () => {
    const { url } = await start();
    const response = await fetch(`${url}/api/push/batch`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "x".repeat(MAX_BODY_BYTES + 1) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "the request is larger than 32 MiB", code: "too-large" });
  }, 60_000);

  it("keeps an idle connection open longer than clients and proxies do, and says so", async () => {
    const { url } = await start();
    const response = await fetch(`${url}/health`);
    await response.text();
    expect(response.headers.get("keep-alive")).toBe("timeout=65");
  }, 60_000);

  it("drops a client whose headers do not arrive in time", async () => {
    const { port } = await start({ timeouts: { headersMs: 300, requestMs: 300 } });
    const socket = net.connect(port, "127.0.0.1");
    socket.write("GET /api/me HTTP/1.1\r\nHost: archive\r\n");
    const answer = await new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString()));
      socket.on("close", () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 60_000);

  /** a token of the right form whose id no row has */
  const unknownToken = (i: number): string => `bonsai_${i.toString(16).padStart(16, "0")}_${"A".repeat(43)}`;
  /** `token` with its secret replaced: the right id, the wrong secret */
  const wrongSecret = (token: string): string => `${token.slice(0, "bonsai_".length + 16)}_${"B".repeat(43)}`;

  it("does not lock out valid tokens from an address after 21 failed sign-ins from it", async () => {
    const { url, lines } = await start();
    const fresh = (await addPerson(db.pool, "fresh-after-failures", "member")).token;
    for (let i = 0; i < 21; i++) await expect(new ArchiveClient(url, unknownToken(i + 1)).me()).rejects.toMatchObject({ code: "unauthorized" });
    expect(lines.filter((l) => l.includes("(failed sign-in from 127.0.0.1)"))).toHaveLength(21);
    expect((await new ArchiveClient(url, fresh).me()).name).toBe("fresh-after-failures");
    expect((await new ArchiveClient(url, token).me()).name).toBe("amy");
  }, 60_000);

  it("limits failed sign-ins per token id, logs them, lets a secret already verified in, and lets the id try again after the window", async () => {
    let now = 1_000_000;
    const { url, lines } = await start({ signInLimit: { maxFailures: 3, windowMs: 60_000, now: () => now } });
    const never = (await addPerson(db.pool, "never-signed-in", "member")).token;
    const known = (await addPerson(db.pool, "signed-in-before", "member")).token;
    expect((await new ArchiveClient(url, known).me()).name).toBe("signed-in-before");
    for (const victim of [never, known]) for (let i = 0; i < 3; i++) await expect(new ArchiveClient(url, wrongSecret(victim)).me()).rejects.toMatchObject({ code: "unauthorized" });
    const refused = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${never}` } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(((await refused.json()) as { code: string }).code).toBe("rate-limited");
    expect(lines.filter((l) => l.includes("(failed sign-in from 127.0.0.1)"))).toHaveLength(6);
    expect(lines.at(-1)).toMatch(/ GET \/api\/me 429 [\d.]+ms \(refused sign-in from 127\.0\.0\.1\)$/);
    // the stranger who knows an id does not lock out its owner once signed in, nor anyone else
    expect((await new ArchiveClient(url, known).me()).name).toBe("signed-in-before");
    expect((await new ArchiveClient(url, token).me()).name).toBe("amy");
    now += 60_001;
    expect((await new ArchiveClient(url, never).me()).name).toBe("never-signed-in");
  }, 60_000);

  it("limits failed sign-ins per client address only behind the configured trusted proxy header, and takes the address the proxy appended", async () => {
    const options = { maxFailures: 3, windowMs: 60_000 };
    const me = (url: string, bearerToken: string, forwarded: string): Promise<Response> => fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${bearerToken}`, "x-forwarded-for": forwarded } });
    const proxied = await start({ signInLimit: { ...options, trustedProxyHeader: "x-forwarded-for" } });
    const fresh = (await addPerson(db.pool, "behind-proxy", "member")).token;
    // a client that writes its own header value still gets the proxy's appended one counted
    for (let i = 0; i < 3; i++) expect((await me(proxied.url, unknownToken(100 + i), `198.51.100.${i}, 10.0.0.1`)).status).toBe(401);
    expect(proxied.lines.filter((l) => l.includes("(failed sign-in from 10.0.0.1)"))).toHaveLength(3);
    expect((await me(proxied.url, fresh, "10.0.0.1")).status).toBe(429);
    expect((await me(proxied.url, fresh, "10.0.0.2")).status).toBe(200);
    // without the setting the header is not trusted: no address is limited
    const direct = await start({ signInLimit: options });
    for (let i = 0; i < 3; i++) expect((await me(direct.url, unknownToken(200 + i), "10.0.0.3")).status).toBe(401);
    const other = (await addPerson(db.pool, "not-behind-proxy", "member")).token;
    expect((await me(direct.url, other, "10.0.0.3")).status).toBe(200);
  }, 60_000);

  it("does the same work for an unknown or revoked token id as for a wrong secret: one scrypt each", async () => {
    const { url } = await start();
    const person = await addPerson(db.pool, "work-alike", "member");
    const revoked = await addPerson(db.pool, "work-alike-revoked", "member");
    await revokeTokens(db.pool, { person: "work-alike-revoked" });
    const work = async (bearerToken: string): Promise<number> => {
      const before = scryptDerivations();
      await expect(new ArchiveClient(url, bearerToken).me()).rejects.toMatchObject({ code: "unauthorized" });
      return scryptDerivations() - before;
    };
    expect(await work(wrongSecret(person.token))).toBe(1);
    expect(await work(unknownToken(300))).toBe(1);
    expect(await work(revoked.token)).toBe(1);
  }, 60_000);

  it("answers a search for any text (query syntax, NUL, quotes, backslashes, CJK) as text, never 500", async () => {
    const { url } = await start();
    for (const q of [":*", ".*", "\u0000", "a\u0000b", '"', "'", "\\", "&|!", "<->", "(", "it's*", "中文", '"上下文 溢出"']) {
      const response = await fetch(`${url}/api/search?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status, JSON.stringify(q)).toBe(200);
      expect(Array.isArray(await response.json())).toBe(true);
    }
  }, 60_000);

  it("finishes a request under way when shut down, then stops listening", async () => {
    const { port, server } = await start();
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const body = JSON.stringify({ project: "alpha", sessionId: "none" });
    // under way: the server has read the request's head (its "request" event), not all of its body
    const underWay = new Promise((resolve) => server.once("request", resolve));
    socket.write(`POST /api/push/has HTTP/1.1\r\nHost: archive\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    await underWay;
    const stopped = shutdownGracefully(server, 30_000);
    const answer = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString()));
      socket.on("close", () => resolve(text));
    });
    socket.write(body.slice(5));
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toContain('{"have":0}');
    await stopped;
    expect(server.listening).toBe(false);
  }, 60_000);

  it("refuses a revoked token at once, even after it signed in", async () => {
    const { url } = await start();
    const person = await addPerson(db.pool, "leaver", "member");
    const client = new ArchiveClient(url, person.token);
    expect((await client.me()).name).toBe("leaver");
    await revokeTokens(db.pool, { person: "leaver" });
    await expect(client.me()).rejects.toMatchObject({ code: "unauthorized" });
  }, 60_000);
});
