/**
 * The explorer's WebSocket API on a team archive: every call of the contract, with a token of each
 * role and a revoked one. A person in project A can neither open nor learn of a session of project
 * B through any call; an admin reads all; every call that would change something is refused in one
 * sentence; a token revoked while its page is open stops working at the next call.
 */
import * as fs from "node:fs";
import type { Server } from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { contract } from "@bonsai/ipc";
import { unpackSkeleton } from "@bonsai/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { addPerson, addProject, ArchiveClient, createArchiveApp, createArchiveServer, grant, listen, openArchiveDatabase, pushSession, revokeTokens, shutdownGracefully, type ArchiveApp, type ArchiveDatabase, type PushSource } from "../src";
import { usePostgres } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;
let http: Server;
let app: ArchiveApp;
let port: number;
let work: string;
const tokens: Record<string, string> = {};
const logged: string[] = [];

function session(id: string, texts: string[]): PushSource {
  const entries = texts.map((text, i) => ({ type: "message", id: `${id}-e${i}`, parentId: i === 0 ? null : `${id}-e${i - 1}`, timestamp: `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`, message: { role: i % 2 === 0 ? "user" : "assistant", content: [{ type: "text", text }] } }));
  return {
    session: () => ({ sessionId: id, agent: "pi", title: `title of ${id}`, cwd: `/src/${id}`, header: JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: `/src/${id}` }), startedAt: "2026-01-01T00:00:00.000Z" }),
    entries: () => entries,
  };
}

type Result = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

/** A page's WebSocket: `call` sends one call frame and resolves with its result. */
async function connect(token: string, headers: Record<string, string> = {}): Promise<{ call(method: string, params?: unknown): Promise<Result>; close(): void }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${encodeURIComponent(token)}`, { headers });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    ws.once("error", reject);
  });
  let next = 0;
  const waiting = new Map<number, (r: Result) => void>();
  ws.on("message", (data) => {
    const frame = JSON.parse(String(data)) as { id: number; result: Result };
    waiting.get(frame.id)?.(frame.result);
  });
  return {
    call: (method, params = {}) =>
      new Promise<Result>((resolve) => {
        next += 1;
        waiting.set(next, resolve);
        ws.send(JSON.stringify({ t: "call", id: next, method, params }));
      }),
    close: () => ws.close(),
  };
}

beforeAll(async () => {
  db = await openArchiveDatabase(server.freshDatabase());
  work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-app-isolation-"));
  fs.mkdirSync(path.join(work, "renderer"));
  fs.writeFileSync(path.join(work, "renderer", "index.html"), "<!doctype html><title>Bonsai</title>");
  app = createArchiveApp({ pool: db.pool, rendererDir: path.join(work, "renderer"), cacheDir: path.join(work, "cache"), cachedSessions: 1, log: (line) => logged.push(line) });
  http = createArchiveServer({ pool: db.pool, log: () => {}, app });
  port = (await listen(http, "127.0.0.1", 0)).port;
  const url = `http://127.0.0.1:${port}`;
  await addProject(db.pool, "alpha");
  await addProject(db.pool, "beta");
  for (const [name, role] of [["amy", "member"], ["ben", "member"], ["root", "admin"], ["gone", "member"], ["later", "member"]] as const) tokens[name] = (await addPerson(db.pool, name, role)).token;
  await grant(db.pool, "amy", "alpha");
  await grant(db.pool, "ben", "beta");
  for (const p of ["alpha", "beta"]) {
    await grant(db.pool, "gone", p);
    await grant(db.pool, "later", p);
  }
  await pushSession(session("alpha-one", ["the marmalade migration plan", "ok", "run the tests"]), "alpha-one", { client: new ArchiveClient(url, tokens.amy as string), project: "alpha" });
  await pushSession(session("beta-secret", ["the zeppelin roadmap", "noted", "ship it"]), "beta-secret", { client: new ArchiveClient(url, tokens.ben as string), project: "beta" });
  await revokeTokens(db.pool, { person: "gone" });
}, 120_000);

afterAll(async () => {
  // the pages' WebSockets first: a server waits for no upgraded connection
  await app.close();
  await shutdownGracefully(http, 0);
  await db.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const settings = { compactionEnabled: true, reserveTokens: 16384, keepRecentTokens: 20000, thresholdTokens: 0, thresholdPercent: 0, pruningEnabled: false, protectTokens: 40000, minimumSavings: 20000, contextWindow: 200000 };

/** every call that reads one session, with its parameters for session `id` */
const READS: Record<string, (id: string) => unknown> = {
  getSessionCommits: (id) => ({ sessionId: id }),
  openSession: (id) => ({ sessionId: id }),
  getSkeleton: (id) => ({ sessionId: id }),
  getPreviews: (id) => ({ sessionId: id, entryIds: [`${id}-e1`] }),
  getSkeletonTail: (id) => ({ sessionId: id, count: 0, lastId: null }),
  getEntry: (id) => ({ sessionId: id, entryId: `${id}-e0` }),
  getEntries: (id) => ({ sessionId: id, entryIds: [`${id}-e0`] }),
  getContextPreview: (id) => ({ sessionId: id }),
  getUsagePoints: (id) => ({ sessionId: id }),
  planCompaction: (id) => ({ sessionId: id }),
  planPrune: (id) => ({ sessionId: id }),
  getAmnesiaReport: (id) => ({ sessionId: id }),
  getAmnesiaScores: (id) => ({ sessionId: id }),
  getSummaryCheck: (id) => ({ sessionId: id }),
  exportSession: (id) => ({ sessionId: id, format: "html" }),
  whatIf: (id) => ({ sessionIds: [id], settings }),
};

/** the calls that answer without a session, for anyone signed in */
const GENERAL = ["getAppInfo", "listSessions", "findSessionFolders", "getCommitCounts", "searchSessions", "getUndo", "getSettings", "getAmnesiaOverview"];

/** every call that would change a session, the settings or the host, with valid parameters */
const WRITES: Record<string, unknown> = {
  setSessionTitle: { sessionId: "alpha-one", title: "x" },
  importSessions: { paths: ["/etc/passwd"] },
  importFromDialog: {},
  importGitRepository: { path: "/etc" },
  findGitRepositories: {},
  beginUpload: { name: "a.jsonl", size: 10 },
  uploadChunk: { uploadId: "upload-0123456789", offset: 0, data: "AAAA" },
  cancelUpload: { uploadId: "upload-0123456789" },
  cancelImport: { requestId: "r" },
  saveSessionAs: { sessionId: "alpha-one", format: "jsonl" },
  continueInPi: { sessionId: "alpha-one" },
  deleteSession: { sessionId: "alpha-one" },
  compact: { sessionId: "alpha-one" },
  commitCompaction: { sessionId: "alpha-one", result: { summary: "s", firstKeptEntryId: "alpha-one-e1", tokensBefore: 10 } },
  abort: { sessionId: "alpha-one" },
  navigate: { sessionId: "alpha-one", targetId: "alpha-one-e0", summarize: false },
  applyPrune: { sessionId: "alpha-one" },
  restorePruned: { sessionId: "alpha-one" },
  prompt: { sessionId: "alpha-one", text: "hello" },
  undo: { sessionId: "alpha-one" },
  redo: { sessionId: "alpha-one" },
  setLabel: { sessionId: "alpha-one", entryId: "alpha-one-e0", label: "x" },
  setSettings: { patch: {} },
  pickSettingsFolder: { field: "hooksDir" },
  setApiKey: { key: "sk-secret" },
  clearApiKey: {},
  testConnection: {},
};

describe("the page's calls on an archive", () => {
  it("classes every call of the contract: a read of one session, a general read, or a refused change", () => {
    const classed = new Set([...Object.keys(READS), ...GENERAL, ...Object.keys(WRITES)]);
    expect(Object.keys(contract).filter((m) => !classed.has(m))).toEqual([]);
  });

  it("signs in only with a valid token from this server's own page", async () => {
    await expect(connect("")).rejects.toThrow("refused: 403");
    await expect(connect(tokens.gone as string)).rejects.toThrow("refused: 403");
    await expect(connect("bonsai_nope_nope")).rejects.toThrow("refused: 403");
    await expect(connect(tokens.amy as string, { origin: "http://evil.example" })).rejects.toThrow("refused: 403");
    const page = await connect(tokens.amy as string, { origin: `http://127.0.0.1:${port}` });
    const info = await page.call("getAppInfo");
    expect(info).toMatchObject({ ok: true, value: { mode: "browser", dataDir: "", nativeDialogs: false, archive: { user: "amy", role: "member", projects: ["alpha"] } } });
    page.close();
  });

  it("lists each person's projects' sessions with project and person; an admin sees all", async () => {
    const ids = async (who: string) => {
      const page = await connect(tokens[who] as string);
      const answer = (await page.call("listSessions")) as { ok: true; value: { sessions: { id: string; archive: { project: string; pushedBy: string } }[] } };
      page.close();
      return answer.value.sessions.map((s) => `${s.archive.project} ${s.archive.pushedBy} ${s.id}`).sort();
    };
    // the page names each session by its key: project, person and id
    expect(await ids("amy")).toEqual(["alpha amy alpha/amy/alpha-one"]);
    expect(await ids("ben")).toEqual(["beta ben beta/ben/beta-secret"]);
    expect(await ids("root")).toEqual(["alpha amy alpha/amy/alpha-one", "beta ben beta/ben/beta-secret"]);
  });

  for (const [method, params] of Object.entries(READS)) {
    it(`${method}: answers on one's own project's session, and on another project's exactly as on a missing one`, async () => {
      for (const [who, own, other] of [
        ["amy", "alpha-one", "beta-secret"],
        ["ben", "beta-secret", "alpha-one"],
      ] as const) {
        const page = await connect(tokens[who] as string);
        const mine = await page.call(method, params(own));
        // a plan may find nothing to do on a three-entry session: that answer is still about the session
        if (!mine.ok) expect(mine.error.code, `${who} ${method}: ${mine.error.message}`).toBe("conflict");
        const theirs = await page.call(method, params(other));
        const missing = await page.call(method, params("no-such-session"));
        expect(theirs.ok).toBe(false);
        expect(theirs).toEqual(JSON.parse(JSON.stringify(missing).replaceAll("no-such-session", other)));
        page.close();
      }
      const admin = await connect(tokens.root as string);
      for (const id of ["alpha-one", "beta-secret"]) {
        const answer = await admin.call(method, params(id));
        if (!answer.ok) expect(answer.error.code).toBe("conflict");
      }
      admin.close();
    });
  }

  it("opens a session whole: its tree, its entries, what the model sees, with project and person", async () => {
    const page = await connect(tokens.amy as string);
    const opened = (await page.call("openSession", { sessionId: "alpha-one" })) as { ok: true; value: { session: { readOnly: string; sourcePath: string | null; archive: unknown }; skeleton: Parameters<typeof unpackSkeleton>[0] } };
    expect(opened.ok).toBe(true);
    expect(unpackSkeleton(opened.value.skeleton).nodes.map((n) => n.id)).toEqual(["alpha-one-e0", "alpha-one-e1", "alpha-one-e2"]);
    expect(opened.value.session).toMatchObject({ sourcePath: null, archive: { project: "alpha", pushedBy: "amy" } });
    expect(opened.value.session.readOnly).toContain("team archive");
    const context = (await page.call("getContextPreview", { sessionId: "alpha-one" })) as { ok: true; value: { messages: unknown[] } };
    expect(JSON.stringify(context.value)).toContain("marmalade");
    page.close();
  });

  it("searches only the sessions one may read, even when naming another's session", async () => {
    const hits = async (who: string, params: object) => {
      const page = await connect(tokens[who] as string);
      const answer = (await page.call("searchSessions", params)) as { ok: true; value: { hits: { sessionId: string; snippet: string; archive?: { project: string; pushedBy: string } }[] } };
      page.close();
      return answer.value.hits;
    };
    expect(await hits("amy", { query: "zeppelin" })).toEqual([]);
    expect(await hits("amy", { query: "zeppelin", sessionId: "beta-secret" })).toEqual([]);
    expect(await hits("amy", { query: "zeppelin", sessionId: "beta/ben/beta-secret" })).toEqual([]);
    expect((await hits("ben", { query: "zeppelin" })).map((h) => h.sessionId)).toEqual(["beta/ben/beta-secret"]);
    expect((await hits("ben", { query: "zeppelin", sessionId: "beta/ben/beta-secret" })).map((h) => h.sessionId)).toEqual(["beta/ben/beta-secret"]);
    expect((await hits("ben", { query: "zeppelin" }))[0]?.snippet).toContain("[[zeppelin]]");
    // each hit names its project and who pushed it
    expect((await hits("ben", { query: "zeppelin" }))[0]?.archive).toEqual({ project: "beta", pushedBy: "ben" });
    expect([...new Set((await hits("root", { query: "the" })).map((h) => h.sessionId))].sort()).toEqual(["alpha/amy/alpha-one", "beta/ben/beta-secret"]);
  });

  it("refuses every call that would change something, in one sentence, for every role", async () => {
    for (const who of ["amy", "ben", "root"]) {
      const page = await connect(tokens[who] as string);
      for (const [method, params] of Object.entries(WRITES)) {
        const answer = await page.call(method, params);
        expect(answer.ok, method).toBe(false);
        if (!answer.ok) {
          expect(answer.error.code, method).toBe("forbidden");
          expect(answer.error.message, method).toMatch(/^a team archive is read-only: it cannot [^\n]+$/);
        }
      }
      page.close();
    }
    // nothing changed: the session is as pushed, and no key was kept
    const page = await connect(tokens.amy as string);
    const list = (await page.call("listSessions")) as { ok: true; value: { sessions: { title: string }[] } };
    expect(list.value.sessions.map((s) => s.title)).toEqual(["title of alpha-one"]);
    page.close();
    expect(fs.readdirSync(path.join(work, "cache", "data")).filter((f) => /key/i.test(f))).toEqual([]);
  });

  it("tells the page nothing of the server's folders", async () => {
    for (const who of ["amy", "root"]) {
      const page = await connect(tokens[who] as string);
      for (const method of ["getAppInfo", "getSettings"]) {
        const answer = await page.call(method);
        expect(answer.ok, method).toBe(true);
        expect(JSON.stringify(answer), method).not.toContain(work);
        expect(JSON.stringify(answer), method).not.toContain(os.tmpdir());
      }
      const opened = await page.call("openSession", { sessionId: "alpha-one" });
      expect(JSON.stringify(opened)).not.toContain(work);
      page.close();
    }
  });

  it("stops a page whose token is revoked at its next call", async () => {
    const page = await connect(tokens.later as string);
    expect((await page.call("listSessions")).ok).toBe(true);
    await revokeTokens(db.pool, { person: "later" });
    for (const method of [...GENERAL, ...Object.keys(READS)]) {
      const params = method in READS ? (READS[method] as (id: string) => unknown)("alpha-one") : method === "searchSessions" ? { query: "the" } : method === "getUndo" ? { sessionId: "alpha-one" } : {};
      const answer = await page.call(method, params);
      expect(answer.ok, method).toBe(false);
      if (!answer.ok) expect(answer.error.code, method).toBe("forbidden");
    }
    page.close();
  });

  it("hands an export only to the person it was prepared for", async () => {
    const page = await connect(tokens.amy as string);
    const prepared = (await page.call("exportSession", { sessionId: "alpha-one", format: "html" })) as { ok: true; value: { url: string } };
    page.close();
    const at = (token: string) => fetch(`http://127.0.0.1:${port}${prepared.value.url}?token=${encodeURIComponent(token)}`);
    expect((await at(tokens.ben as string)).status).toBe(404);
    expect((await at("bonsai_nope_nope")).status).toBe(403);
    const mine = await at(tokens.amy as string);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain("marmalade");
    expect((await at(tokens.amy as string)).status).toBe(404);
  });

  it("shows what a later push added to a session already opened", async () => {
    const page = await connect(tokens.amy as string);
    await page.call("openSession", { sessionId: "alpha-one" });
    const url = `http://127.0.0.1:${port}`;
    await pushSession(session("alpha-one", ["the marmalade migration plan", "ok", "run the tests", "done", "thanks"]), "alpha-one", { client: new ArchiveClient(url, tokens.amy as string), project: "alpha" });
    const skeleton = (await page.call("getSkeleton", { sessionId: "alpha-one" })) as { ok: true; value: Parameters<typeof unpackSkeleton>[0] };
    expect(unpackSkeleton(skeleton.value).nodes).toHaveLength(5);
    page.close();
  });

  it("keeps copies of the sessions used last only, and copies a dropped one again when it is read", async () => {
    const page = await connect(tokens.root as string);
    const folders = () => fs.readdirSync(path.join(work, "cache", "sessions"));
    for (const id of ["alpha-one", "beta-secret", "alpha-one"]) {
      const opened = (await page.call("openSession", { sessionId: id })) as { ok: boolean; value: { session: { id: string } } };
      expect(opened.ok).toBe(true);
      expect(opened.value.session.id).toBe(id.startsWith("alpha") ? `alpha/amy/${id}` : `beta/ben/${id}`);
      await expect.poll(folders).toHaveLength(1);
    }
    expect((await page.call("getEntry", { sessionId: "beta-secret", entryId: "beta-secret-e0" })).ok).toBe(true);
    await expect.poll(folders).toHaveLength(1);
    page.close();
  });

  it("answers each person with their own project's copy when two projects hold sessions of one id", async () => {
    const url = `http://127.0.0.1:${port}`;
    await pushSession(session("twin", ["alpha's own words: apricot"]), "twin", { client: new ArchiveClient(url, tokens.amy as string), project: "alpha" });
    await pushSession(session("twin", ["beta's own words: blueberry", "and more"]), "twin", { client: new ArchiveClient(url, tokens.ben as string), project: "beta" });
    const read = async (who: string) => {
      const page = await connect(tokens[who] as string);
      const entry = (await page.call("getEntry", { sessionId: "twin", entryId: "twin-e0" })) as { ok: true; value: unknown };
      const context = (await page.call("getContextPreview", { sessionId: "twin" })) as { ok: true; value: unknown };
      page.close();
      return JSON.stringify([entry, context]);
    };
    for (const round of [1, 2]) {
      const amy = await read("amy");
      const ben = await read("ben");
      expect(amy, `round ${round}`).toContain("apricot");
      expect(amy, `round ${round}`).not.toContain("blueberry");
      expect(ben, `round ${round}`).toContain("blueberry");
      expect(ben, `round ${round}`).not.toContain("apricot");
      // a member of one project is never told that another holds the id: no "several projects" for her
      expect(amy, `round ${round}`).not.toMatch(/beta|several/);
    }
  });

  it("lets an admin who sees both sessions of one id open, read and compare each by its key, and names both for a bare id", async () => {
    const page = await connect(tokens.root as string);
    const listed = (await page.call("listSessions", { text: "twin" })) as { ok: true; value: { sessions: { id: string }[] } };
    expect(listed.value.sessions.map((s) => s.id).sort()).toEqual(["alpha/amy/twin", "beta/ben/twin"]);
    for (const [key, word, not] of [["alpha/amy/twin", "apricot", "blueberry"], ["beta/ben/twin", "blueberry", "apricot"], ["alpha/twin", "apricot", "blueberry"]] as const) {
      const opened = (await page.call("openSession", { sessionId: key })) as { ok: true; value: { session: { id: string; archive: { project: string } }; skeleton: { sessionId: string } } };
      // "project/id" names the one session of that id in the project, and is answered under its full key
      const full = key.split("/").length === 3 ? key : "alpha/amy/twin";
      expect(opened.value.session.id).toBe(full);
      expect(opened.value.skeleton.sessionId).toBe(full);
      const later = JSON.stringify([await page.call("getEntry", { sessionId: key, entryId: "twin-e0" }), await page.call("getContextPreview", { sessionId: key })]);
      expect(later).toContain(word);
      expect(later).not.toContain(not);
      expect(later).toContain(`"sessionId":"${full}"`);
    }
    const bare = (await page.call("openSession", { sessionId: "twin" })) as { ok: false; error: { message: string } };
    expect(bare.ok).toBe(false);
    expect(bare.error.message).toBe('"twin" names 2 sessions: alpha/amy/twin, beta/ben/twin; name one as project/person/id');
    // the copies are kept apart by the archive's identity: both compared in one what-if
    const both = (await page.call("whatIf", { sessionIds: ["alpha/amy/twin", "beta/ben/twin"], settings })) as { ok: true; value: { sessions: { sessionId: string }[] } };
    expect(both.ok).toBe(true);
    expect(both.value.sessions.map((s) => s.sessionId).sort()).toEqual(["alpha/amy/twin", "beta/ben/twin"]);
    page.close();
  });

  it("logs one line per call with the person and the outcome, never the content or the token", async () => {
    const page = await connect(tokens.amy as string);
    logged.length = 0;
    await page.call("searchSessions", { query: "marmalade secretword" });
    await page.call("deleteSession", { sessionId: "alpha-one" });
    page.close();
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^\S+Z WS searchSessions ok \d+\.\dms amy$/);
    expect(logged[1]).toMatch(/^\S+Z WS deleteSession forbidden \d+\.\dms amy$/);
    expect(logged.join("\n")).not.toContain("secretword");
    expect(logged.join("\n")).not.toContain(tokens.amy as string);
  });

  it("reports amnesia over the sessions one may read only: nothing of another project, named or not", async () => {
    const compacted = session("beta-amnesia", ["the zeppelin budget", "noted", "ship the zeppelin"]);
    const entries = [...compacted.entries("beta-amnesia"), { type: "compaction", id: "beta-amnesia-c", parentId: "beta-amnesia-e2", timestamp: "2026-01-01T00:00:09.000Z", summary: "zeppelin", firstKeptEntryId: "beta-amnesia-e2", tokensBefore: 100 }];
    await pushSession({ ...compacted, entries: () => entries }, "beta-amnesia", { client: new ArchiveClient(`http://127.0.0.1:${port}`, tokens.ben as string), project: "beta" });
    const overview = async (who: string, params: object = {}) => {
      const page = await connect(tokens[who] as string);
      const answer = (await page.call("getAmnesiaOverview", params)) as { ok: true; value: { sessions: { sessionId: string; project: string }[]; totals: { sessions: number } } };
      page.close();
      expect(answer.ok).toBe(true);
      return answer.value;
    };
    const amy = await overview("amy");
    expect(amy.totals.sessions).toBe(0);
    expect(JSON.stringify(amy)).not.toContain("beta");
    expect(await overview("amy", { project: "beta" })).toEqual(await overview("amy", { project: "no-such-project" }));
    expect((await overview("ben")).sessions.map((s) => s.sessionId)).toEqual(["beta/ben/beta-amnesia"]);
    expect((await overview("root", { project: "beta" })).sessions.map((s) => s.sessionId)).toEqual(["beta/ben/beta-amnesia"]);
    expect((await overview("root", { project: "alpha" })).totals.sessions).toBe(0);
  });

  it("serves the page itself and leaves the HTTP API as it was", async () => {
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("connect-src 'self'");
    expect(await page.text()).toContain("Bonsai");
    expect((await fetch(`http://127.0.0.1:${port}/api/sessions`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/../../etc/passwd`)).status).toBe(200); // the page, never the file
  });
});

