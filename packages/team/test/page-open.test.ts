/**
 * Opening an archived session in the page with several server processes on one database: a process
 * that holds no copy of the session answers from the open answer PostgreSQL keeps for the session's
 * entry count and makes its copy behind it; an answer for another entry count is never used; the
 * process that takes a push keeps the answer for the others; and the kept answer is given to no one
 * who may not read the session. A process that holds a copy and finds entries appended reads only
 * those.
 */
import * as fs from "node:fs";
import { get as httpGet, type Server } from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { addPerson, addProject, ArchiveClient, createArchiveApp, createArchiveServer, grant, issueToken, listen, openArchiveDatabase, pushSession, revokeTokens, shutdownGracefully, type ArchiveApp, type ArchiveDatabase, type PushSource } from "../src";
import { connectWebSocket, createApi } from "@bonsai/ipc";
import type { AnswerDownloadsOptions } from "../src/app/answer-downloads";
import { usePostgres } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;
let work: string;
const processes: { app: ArchiveApp; http: Server; url: string; logged: string[] }[] = [];
const tokens: Record<string, string> = {};

function source(id: string, count: number): PushSource {
  const entries = Array.from({ length: count }, (_, i) => ({ type: "message", id: `${id}-e${i}`, parentId: i === 0 ? null : `${id}-e${i - 1}`, timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}.000Z`, message: { role: i % 2 === 0 ? "user" : "assistant", content: [{ type: "text", text: `step ${i} of ${id}` }] } }));
  return {
    session: () => ({ sessionId: id, agent: "pi", title: id, cwd: `/src/${id}`, header: JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: `/src/${id}` }), startedAt: "2026-01-01T00:00:00.000Z" }),
    entries: () => entries,
  };
}

/**
 * A session with a branch and several kinds of entry: e0..e9 a chain of user, assistant (with a tool
 * call) and tool results, e10 a branch off e4 (not on the leaf's path), e11 a model change after e9
 * and e12, the leaf, a user message after it.
 */
function branched(id: string): PushSource {
  const message = (i: number): Record<string, unknown> => {
    if (i % 3 === 0) return { role: "user", content: [{ type: "text", text: `question ${i} of ${id}` }], timestamp: i };
    if (i % 3 === 1) return { role: "assistant", content: [{ type: "text", text: `answer ${i}` }, { type: "toolCall", id: `call-${i}`, name: "read", arguments: { path: `f${i}.ts` } }], stopReason: "toolUse", timestamp: i };
    return { role: "toolResult", toolCallId: `call-${i - 1}`, toolName: "read", content: [{ type: "text", text: `contents of f${i - 1}.ts `.repeat(20) }], isError: false, timestamp: i };
  };
  const at = (i: number) => `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`;
  const entries: Record<string, unknown>[] = Array.from({ length: 10 }, (_, i) => ({ type: "message", id: `${id}-e${i}`, parentId: i === 0 ? null : `${id}-e${i - 1}`, timestamp: at(i), message: message(i) }));
  entries.push({ type: "message", id: `${id}-e10`, parentId: `${id}-e4`, timestamp: at(10), message: message(9) });
  entries.push({ type: "model_change", id: `${id}-e11`, parentId: `${id}-e9`, timestamp: at(11), provider: "openai", modelId: "gpt-5" });
  entries.push({ type: "message", id: `${id}-e12`, parentId: `${id}-e11`, timestamp: at(12), message: message(12) });
  const plain = source(id, 0);
  return { session: plain.session, entries: () => entries };
}

/** a server process: its own cache folder, the one database (every session long enough to keep unless `keepFromEntries`) */
async function startProcess(name: string, warmAfterPushMs: number, keepFromEntries = 0, copyAfterKeptAnswerMs = 0, largeAnswers?: AnswerDownloadsOptions): Promise<(typeof processes)[number]> {
  const logged: string[] = [];
  const opening = { warmAfterPushMs, keepFromEntries, copyAfterKeptAnswerMs };
  const app = createArchiveApp({ pool: db.pool, rendererDir: path.join(work, "renderer"), cacheDir: path.join(work, `cache-${name}`), log: (line) => logged.push(line), opening, ...(largeAnswers ? { largeAnswers } : {}) });
  const http = createArchiveServer({ pool: db.pool, log: (line) => logged.push(line), app });
  const url = `http://127.0.0.1:${(await listen(http, "127.0.0.1", 0)).port}`;
  const p = { app, http, url, logged };
  processes.push(p);
  return p;
}

type Answer = { ok: true; value: { session: { entryCount: number }; skeleton: { ids: string[] } } } | { ok: false; error: { code: string; message: string } };

/** one call of a page signed in with `token` on the process at `url` */
async function call(url: string, token: string, method: string, params: unknown): Promise<Answer> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws?token=${encodeURIComponent(token)}`);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  try {
    return await new Promise<Answer>((resolve) => {
      ws.once("message", (data) => resolve((JSON.parse(String(data)) as { result: Answer }).result));
      ws.send(JSON.stringify({ t: "call", id: 1, method, params }));
    });
  } finally {
    ws.close();
  }
}

/** the kept answer's entry count for a session id, or null */
async function keptCount(sessionId: string): Promise<number | null> {
  const row = (await db.pool.query<{ entry_count: number }>("SELECT o.entry_count FROM opened_sessions o JOIN sessions s ON s.id = o.session_pk WHERE s.session_id = $1", [sessionId])).rows[0];
  return row?.entry_count ?? null;
}

/** Runs `read` while every read of the entries table waits (a copy of any session cannot be made meanwhile). */
async function withEntriesLocked<T>(read: () => Promise<T>): Promise<T> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN; LOCK TABLE entries IN ACCESS EXCLUSIVE MODE");
    return await read();
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

beforeAll(async () => {
  db = await openArchiveDatabase(server.freshDatabase());
  work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-page-open-"));
  fs.mkdirSync(path.join(work, "renderer"));
  fs.writeFileSync(path.join(work, "renderer", "index.html"), "<!doctype html><title>Bonsai</title>");
  await addProject(db.pool, "alpha");
  await addProject(db.pool, "beta");
  for (const [name, role] of [["amy", "member"], ["ben", "member"]] as const) tokens[name] = (await addPerson(db.pool, name, role)).token;
  await grant(db.pool, "amy", "alpha");
  await grant(db.pool, "ben", "beta");
}, 120_000);

afterAll(async () => {
  for (const p of processes) {
    await p.app.close();
    await shutdownGracefully(p.http, 0);
  }
  await db.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** waits (without a time in the assertion) until the session's answer is kept for `count` entries */
async function keptFor(sessionId: string, count: number): Promise<void> {
  await expect.poll(() => keptCount(sessionId), { timeout: 20_000, interval: 100 }).toBe(count);
}

describe("opening an archived session in the page, with several server processes", () => {
  it("a process with no copy answers from the kept answer, makes its copy behind it, and its later reads use the copy", async () => {
    const a = await startProcess("a", 60_000);
    const b = await startProcess("b", 60_000);
    await pushSession(source("walnut", 40), "walnut", { client: new ArchiveClient(a.url, tokens.amy as string), project: "alpha" });
    expect(await keptCount("walnut")).toBeNull();
    const fromCopy = await call(a.url, tokens.amy as string, "openSession", { sessionId: "walnut" });
    expect(fromCopy.ok).toBe(true);
    expect(await keptCount("walnut")).toBe(40);
    // kept naming the session as the page does, so that it is sent as its text (page-open.ts)
    const gzipped = (await db.pool.query<{ answer_gzip: Buffer }>("SELECT o.answer_gzip FROM opened_sessions o JOIN sessions s ON s.id = o.session_pk WHERE s.session_id = 'walnut'")).rows[0]?.answer_gzip;
    expect(zlib.gunzipSync(gzipped ?? Buffer.alloc(0)).toString("utf8").startsWith('{"session":{"id":"alpha/amy/walnut",')).toBe(true);
    // b cannot read a single entry meanwhile: it answers from what PostgreSQL keeps, or not at all
    const kept = await withEntriesLocked(() => call(b.url, tokens.amy as string, "openSession", { sessionId: "walnut" }));
    expect(kept).toEqual(fromCopy);
    // the copy is made behind the answer (at once here: copyAfterKeptAnswerMs 0); what the model sees is read from it
    await expect.poll(() => b.logged.filter((line) => line.includes("CACHE session row") && line.includes("copied")).length, { timeout: 20_000, interval: 50 }).toBe(1);
    const context = await call(b.url, tokens.amy as string, "getContextPreview", { sessionId: "walnut", leafId: "walnut-e39" });
    expect(context.ok).toBe(true);
    expect(b.logged.filter((line) => line.includes("CACHE session row") && line.includes("copied"))).toHaveLength(1);
  }, 30_000);

  it("an answer kept for fewer entries is never used: the open after a push shows every entry", async () => {
    const [a, b] = processes as [(typeof processes)[number], (typeof processes)[number]];
    await pushSession(source("walnut", 45), "walnut", { client: new ArchiveClient(a.url, tokens.amy as string), project: "alpha" });
    expect(await keptCount("walnut")).toBe(40);
    const answer = await call(b.url, tokens.amy as string, "openSession", { sessionId: "walnut" });
    expect(answer.ok && answer.value.skeleton.ids.length).toBe(45);
    expect(answer.ok && answer.value.session.entryCount).toBe(45);
    expect(await keptCount("walnut")).toBe(45);
    // b held the copy of 40 entries: it read only the 5 the push added
    expect(b.logged.filter((line) => line.includes("CACHE session row"))).toEqual([expect.stringContaining("copied in"), expect.stringContaining("5 entries appended")]);
    const entry = await call(b.url, tokens.amy as string, "getEntry", { sessionId: "walnut", entryId: "walnut-e44" });
    expect(entry.ok).toBe(true);
  }, 30_000);

  it("the process that takes a push keeps the answer, so another process's first open needs no copy", async () => {
    const pusher = await startProcess("pusher", 0);
    const reader = await startProcess("reader", 60_000);
    await pushSession(source("chestnut", 30), "chestnut", { client: new ArchiveClient(pusher.url, tokens.amy as string), project: "alpha" });
    await keptFor("chestnut", 30);
    const answer = await withEntriesLocked(() => call(reader.url, tokens.amy as string, "openSession", { sessionId: "chestnut" }));
    expect(answer.ok && answer.value.skeleton.ids).toEqual(Array.from({ length: 30 }, (_, i) => `chestnut-e${i}`));
  }, 30_000);

  it("a kept answer is given to no one outside the session's project, exactly as for a missing session", async () => {
    const reader = processes[processes.length - 1] as (typeof processes)[number];
    expect(await keptCount("chestnut")).toBe(30);
    const other = await call(reader.url, tokens.ben as string, "openSession", { sessionId: "chestnut" });
    const missing = await call(reader.url, tokens.ben as string, "openSession", { sessionId: "no-such-session" });
    expect(other.ok).toBe(false);
    expect(!other.ok && other.error.message.replace("chestnut", "X")).toBe(!missing.ok && missing.error.message.replace("no-such-session", "X"));
  }, 30_000);

  it("a session shorter than the kept ones is copied at its open, and its answer not kept", async () => {
    const p = await startProcess("short", 60_000, 100);
    await pushSession(source("acorn", 99), "acorn", { client: new ArchiveClient(p.url, tokens.amy as string), project: "alpha" });
    const answer = await call(p.url, tokens.amy as string, "openSession", { sessionId: "acorn" });
    expect(answer.ok && answer.value.skeleton.ids).toHaveLength(99);
    expect(await keptCount("acorn")).toBeNull();
  }, 30_000);
});

describe("the inspector's reads in a process that has no copy yet", () => {
  it("an entry and the previews come from PostgreSQL, exactly as the copy answers them, without waiting for a copy", async () => {
    const a = await startProcess("direct-a", 60_000);
    const b = await startProcess("direct-b", 60_000, 0, 600_000);
    const amy = tokens.amy as string;
    await pushSession(branched("hazel"), "hazel", { client: new ArchiveClient(a.url, amy), project: "alpha" });
    expect((await call(a.url, amy, "openSession", { sessionId: "hazel" })).ok).toBe(true); // a makes its copy and keeps the answer
    expect((await call(b.url, amy, "openSession", { sessionId: "hazel" })).ok).toBe(true); // b answers from the kept answer
    const ids = ["hazel-e12", "hazel-e11", "hazel-e5", "hazel-e4", "hazel-e2", "hazel-e0", "hazel-e10", "no-such-entry"];
    for (const entryId of ids) {
      const direct = await call(b.url, amy, "getEntry", { sessionId: "hazel", entryId });
      expect(direct, entryId).toEqual(await call(a.url, amy, "getEntry", { sessionId: "hazel", entryId }));
    }
    const onPath = await call(b.url, amy, "getEntry", { sessionId: "hazel", entryId: "hazel-e4" });
    const offPath = await call(b.url, amy, "getEntry", { sessionId: "hazel", entryId: "hazel-e10" });
    expect([onPath.ok && (onPath.value as unknown as { onActivePath: boolean }).onActivePath, offPath.ok && (offPath.value as unknown as { onActivePath: boolean }).onActivePath]).toEqual([true, false]);
    const previews = await call(b.url, amy, "getPreviews", { sessionId: "hazel", entryIds: ids });
    expect(previews).toEqual(await call(a.url, amy, "getPreviews", { sessionId: "hazel", entryIds: ids }));
    expect(previews.ok && (previews.value as unknown as { previews: string[] }).previews[0]).toBe("question 12 of hazel");
    // none of that made b's copy
    expect(b.logged.filter((line) => line.includes("CACHE session row"))).toEqual([]);
    // and none of it reaches a person outside the session's project: refused as a missing session
    for (const [method, params] of [["getEntry", { entryId: "hazel-e12" }], ["getPreviews", { entryIds: ["hazel-e12"] }]] as const) {
      const other = await call(b.url, tokens.ben as string, method, { sessionId: "hazel", ...params });
      const missing = await call(b.url, tokens.ben as string, method, { sessionId: "no-such-session", ...params });
      expect(other.ok).toBe(false);
      expect(!other.ok && other.error.message.replace("hazel", "X")).toBe(!missing.ok && missing.error.message.replace("no-such-session", "X"));
    }
  }, 30_000);
});

/** a result-at frame for openSession of `sessionId` from the process at `url` */
async function resultAtFrame(url: string, token: string, sessionId: string): Promise<{ t: string; id: number; href: string }> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws?token=${encodeURIComponent(token)}`);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  try {
    return await new Promise((resolve) => {
      ws.once("message", (data) => resolve(JSON.parse(String(data)) as { t: string; id: number; href: string }));
      ws.send(JSON.stringify({ t: "call", id: 9, method: "openSession", params: { sessionId } }));
    });
  } finally {
    ws.close();
  }
}

/** a GET of a download's address signed in with `token` */
const withToken = (address: string, token: string, init: RequestInit = {}): Promise<Response> => fetch(address, { ...init, headers: { authorization: `Bearer ${token}` } });

describe("a long session's kept answer, downloaded beside the WebSocket", () => {
  it("is named by a result-at frame, downloaded once from any process as the gzip PostgreSQL keeps, and is the very answer the copy gives", async () => {
    const a = await startProcess("large-a", 60_000, 0, 600_000, { fromChars: 1 });
    const b = await startProcess("large-b", 60_000, 0, 600_000, { fromChars: 1 });
    const amy = tokens.amy as string;
    await pushSession(branched("maple"), "maple", { client: new ArchiveClient(a.url, amy), project: "alpha" });
    const fromCopy = await call(a.url, amy, "openSession", { sessionId: "maple" });
    expect(fromCopy.ok && fromCopy.value.skeleton.ids).toHaveLength(13);

    // the frame names the download; the download is the gzip, once, from whichever process takes the GET
    const frame = await resultAtFrame(b.url, amy, "maple");
    expect(frame).toEqual({ t: "result-at", id: 9, href: expect.stringMatching(/^\/answer\/[A-Za-z0-9_-]{43}$/u) });
    // its address alone, or with no token, downloads nothing and does not take it
    expect((await fetch(`${a.url}${frame.href}`)).status).toBe(404);
    const download = await withToken(`${a.url}${frame.href}`, amy);
    expect(download.headers.get("content-encoding")).toBe("gzip");
    expect(download.headers.get("cache-control")).toBe("no-store");
    expect({ ok: true, value: await download.json() }).toEqual(fromCopy);
    expect((await withToken(`${a.url}${frame.href}`, amy)).status).toBe(404);
    expect((await withToken(`${b.url}${frame.href}`, amy)).status).toBe(404);
    // the log of the process that served it names the person, never the download's address
    expect(a.logged.filter((line) => line.includes(" GET /answer/"))).toEqual([expect.stringMatching(/ GET \/answer\/… 404 [\d.]+ms -$/u), expect.stringMatching(/ GET \/answer\/… 200 [\d.]+ms amy$/u), expect.stringMatching(/ GET \/answer\/… 404 [\d.]+ms -$/u)]);
    expect([...a.logged, ...b.logged].join("\n")).not.toContain(frame.href.slice("/answer/".length));
    // PostgreSQL holds the address's hash, never the address
    const stored = await db.pool.query("SELECT encode(id_hash, 'hex') AS h FROM open_answer_downloads");
    expect(JSON.stringify(stored.rows)).not.toContain(frame.href.slice("/answer/".length));

    // a HEAD does not take the download (405); a client that does not take gzip gets the JSON
    const plain = await resultAtFrame(b.url, amy, "maple");
    expect((await withToken(`${a.url}${plain.href}`, amy, { method: "HEAD" })).status).toBe(405);
    const decoded = await new Promise<{ encoding: string | undefined; body: string }>((resolve, reject) => {
      httpGet(`${a.url}${plain.href}`, { headers: { authorization: `Bearer ${amy}` } }, (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body }));
      }).on("error", reject);
    });
    expect(decoded.encoding).toBeUndefined();
    expect({ ok: true, value: JSON.parse(decoded.body) as unknown }).toEqual(fromCopy);

    // the page's client follows the frame on its own
    const bridge = connectWebSocket({ url: `${b.url.replace("http", "ws")}/ws?token=${encodeURIComponent(amy)}`, create: (u) => new WebSocket(u) as unknown as ReturnType<Parameters<typeof connectWebSocket>[0]["create"]>, maxReconnects: 0 });
    try {
      const opened = await createApi(bridge).openSession({ sessionId: "maple" });
      expect({ ok: true, value: opened }).toEqual(fromCopy);
    } finally {
      bridge.close();
    }
  }, 30_000);

  it("is refused once the person lost the project, once it waited too long, and as gone (410) once a push replaced the answer", async () => {
    const a = await startProcess("large-c", 60_000, 0, 600_000, { fromChars: 1 });
    const brief = await startProcess("large-d", 60_000, 0, 600_000, { fromChars: 1, keepMs: 1 });
    const ben = tokens.ben as string;
    await pushSession(branched("cedar"), "cedar", { client: new ArchiveClient(a.url, ben), project: "beta" });
    expect((await call(a.url, ben, "openSession", { sessionId: "cedar" })).ok).toBe(true);

    const expired = await resultAtFrame(brief.url, ben, "cedar");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await withToken(`${a.url}${expired.href}`, ben)).status).toBe(404);

    const replaced = await resultAtFrame(a.url, ben, "cedar");
    await db.pool.query("UPDATE opened_sessions SET entry_count = entry_count + 1 WHERE session_pk = (SELECT id FROM sessions WHERE session_id = 'cedar')");
    const gone = await withToken(`${a.url}${replaced.href}`, ben);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toBe("the session changed while it was being opened: open it again\n");
    await db.pool.query("UPDATE opened_sessions SET entry_count = entry_count - 1 WHERE session_pk = (SELECT id FROM sessions WHERE session_id = 'cedar')");

    const revoked = await resultAtFrame(a.url, ben, "cedar");
    await db.pool.query("DELETE FROM grants WHERE person_id = (SELECT id FROM people WHERE name = 'ben')");
    try {
      expect((await withToken(`${a.url}${revoked.href}`, ben)).status).toBe(404);
    } finally {
      await grant(db.pool, "ben", "beta");
    }
  }, 30_000);
});

describe("a download's address works only with the token that asked for it", () => {
  it("is refused without that token, with another token of the same person, and once that token is revoked, for a kept answer and an export", async () => {
    const a = await startProcess("tokens-a", 60_000, 0, 600_000, { fromChars: 1 });
    const person = await addPerson(db.pool, "dora", "member");
    await grant(db.pool, "dora", "alpha");
    const other = (await issueToken(db.pool, "dora")).token;
    await pushSession(branched("rowan"), "rowan", { client: new ArchiveClient(a.url, person.token), project: "alpha" });
    expect((await call(a.url, person.token, "openSession", { sessionId: "rowan" })).ok).toBe(true);
    const answerAt = async (): Promise<string> => `${a.url}${(await resultAtFrame(a.url, person.token, "rowan")).href}`;
    const exportAt = async (): Promise<string> => {
      const made = (await call(a.url, person.token, "exportSession", { sessionId: "alpha/rowan", format: "markdown" })) as unknown as { ok: true; value: { url: string } };
      return `${a.url}${made.value.url}`;
    };
    const exportWith = (address: string, token: string): Promise<Response> => fetch(`${address}?token=${encodeURIComponent(token)}`);

    const answer = await answerAt();
    const exported = await exportAt();
    // no token, another token of the same person: nothing, and the download is not taken
    expect((await fetch(answer)).status).toBe(404);
    expect((await withToken(answer, other)).status).toBe(404);
    expect((await exportWith(exported, other)).status).toBe(404);
    expect((await withToken(answer, person.token)).status).toBe(200);
    expect((await exportWith(exported, person.token)).status).toBe(200);

    // the page's question whether its token is taken (ipc's TOKEN_CHECK_PATH): yes, then no once revoked
    const tokenCheck = async (token: string): Promise<number> => (await withToken(`${a.url}/token-check`, token)).status;
    expect(await tokenCheck(person.token)).toBe(204);
    expect(await tokenCheck("bonsai_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBe(403);

    // asked for, then the token revoked: neither downloads any more
    const answerThenRevoked = await answerAt();
    const exportThenRevoked = await exportAt();
    await revokeTokens(db.pool, { tokenId: person.tokenId });
    expect((await withToken(answerThenRevoked, person.token)).status).toBe(404);
    expect((await exportWith(exportThenRevoked, person.token)).status).toBe(403);
    expect(await tokenCheck(person.token)).toBe(403);
  }, 30_000);
});

describe("the page's sign-ins count against the server's limits", () => {
  it("counts failed token checks, downloads and WebSocket sign-ins per token id; another token is not affected", async () => {
    const logged: string[] = [];
    const app = createArchiveApp({ pool: db.pool, rendererDir: path.join(work, "renderer"), cacheDir: path.join(work, "cache-limits"), log: (line) => logged.push(line) });
    const http = createArchiveServer({ pool: db.pool, log: (line) => logged.push(line), app, signInLimit: { maxFailures: 3 } });
    const url = `http://127.0.0.1:${(await listen(http, "127.0.0.1", 0)).port}`;
    processes.push({ app, http, url, logged });
    const victim = await addPerson(db.pool, "eli", "member");
    const other = await addPerson(db.pool, "fay", "member");
    const wrong = `${victim.token.slice(0, "bonsai_".length + 16)}_${"B".repeat(43)}`;
    expect((await withToken(`${url}/token-check`, wrong)).status).toBe(403);
    expect((await fetch(`${url}/download/anything?token=${encodeURIComponent(wrong)}`)).status).toBe(403);
    const upgrade = (token: string): Promise<number | "open"> =>
      new Promise((resolve) => {
        const ws = new WebSocket(`${url.replace("http", "ws")}/ws?token=${encodeURIComponent(token)}`);
        ws.once("open", () => (ws.close(), resolve("open")));
        ws.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      });
    expect(await upgrade(wrong)).toBe(403);
    // three failures of eli's id: his own token waits (it was never verified in this process), fay's does not
    expect((await withToken(`${url}/token-check`, victim.token)).status).toBe(429);
    expect(await upgrade(victim.token)).toBe(429);
    expect((await withToken(`${url}/token-check`, other.token)).status).toBe(204);
    expect(await upgrade(other.token)).toBe("open");
  }, 30_000);
});

describe("an export, downloaded from any process", () => {
  it("is made again by a process that did not write it, for its person only, once", async () => {
    const a = await startProcess("export-a", 60_000);
    const b = await startProcess("export-b", 60_000);
    const amy = tokens.amy as string;
    await pushSession(branched("birch"), "birch", { client: new ArchiveClient(a.url, amy), project: "alpha" });
    const exported = (await call(a.url, amy, "exportSession", { sessionId: "alpha/birch", format: "markdown" })) as unknown as { ok: true; value: { url: string; fileName: string } };
    expect(exported.ok).toBe(true);
    const at = (url: string, token: string) => fetch(`${url}${exported.value.url}?token=${encodeURIComponent(token)}`);
    // another person's token finds nothing, and does not take it
    expect((await at(b.url, tokens.ben as string)).status).toBe(404);
    const there = await at(b.url, amy);
    expect(there.status).toBe(200);
    expect(there.headers.get("content-disposition")).toContain(exported.value.fileName);
    expect(await there.text()).toContain("question 0 of birch");
    expect((await at(a.url, amy)).status).toBe(404);
    expect((await at(b.url, amy)).status).toBe(404);

    // the process that wrote it streams its own file
    const again = (await call(a.url, amy, "exportSession", { sessionId: "alpha/birch", format: "jsonl" })) as unknown as { ok: true; value: { url: string } };
    const here = await fetch(`${a.url}${again.value.url}?token=${encodeURIComponent(amy)}`);
    expect(here.status).toBe(200);
    expect((await here.text()).split("\n")[0]).toContain('"type":"session"');

    // a person who lost the project meanwhile gets nothing from a process that would make it again
    const lost = (await call(a.url, amy, "exportSession", { sessionId: "alpha/birch", format: "markdown" })) as unknown as { ok: true; value: { url: string } };
    await db.pool.query("DELETE FROM grants WHERE person_id = (SELECT id FROM people WHERE name = 'amy')");
    try {
      expect((await fetch(`${b.url}${lost.value.url}?token=${encodeURIComponent(amy)}`)).status).toBe(404);
    } finally {
      await grant(db.pool, "amy", "alpha");
    }
  }, 30_000);
});
