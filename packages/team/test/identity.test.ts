/**
 * How the archive identifies a session, against the attacks that spliced or blocked history: a
 * session is (project, who pushed it, id), named "project/person/id". Each test runs on the real
 * private PostgreSQL and a real HTTP server (with the page's WebSocket where the attack is through
 * the page), and checks what the archive holds in the database, not what it reported.
 */
import * as fs from "node:fs";
import type { Server } from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { openStore, SessionLookupError } from "@bonsai/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { addPerson, addProject, ArchiveClient, ArchiveError, ArchiveStore, authenticate, createArchiveApp, createArchiveServer, grant, listen, openArchiveDatabase, pushSession, shutdownGracefully, storePushSource, type ArchiveApp, type ArchiveDatabase, type PushSource } from "../src";
import { usePostgres } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;
let http: Server;
let app: ArchiveApp;
let url: string;
let work: string;
const tokens: Record<string, string> = {};

const header = (id: string, cwd = `/src/${id}`): string => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd });

function entry(id: string, parentId: string | null, text: string, i = 0): Record<string, unknown> {
  return { type: "message", id, parentId, timestamp: `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`, message: { role: i % 2 === 0 ? "user" : "assistant", content: [{ type: "text", text }] } };
}

/** a session of `texts`, entry ids `<prefix>-e<i>` in one chain */
function chain(prefix: string, texts: readonly string[]): Record<string, unknown>[] {
  return texts.map((text, i) => entry(`${prefix}-e${i}`, i === 0 ? null : `${prefix}-e${i - 1}`, text, i));
}

function source(id: string, entries: readonly unknown[], meta: { title?: string; cwd?: string; header?: string } = {}): PushSource {
  return {
    session: () => ({ sessionId: id, agent: "pi", title: meta.title ?? `title of ${id}`, cwd: meta.cwd ?? `/src/${id}`, header: meta.header ?? header(id, meta.cwd), startedAt: "2026-01-01T00:00:00.000Z" }),
    entries: () => entries,
  };
}

const as = (who: string): ArchiveClient => new ArchiveClient(url, tokens[who] as string);

async function rowsOf(sessionId: string): Promise<{ pk: string; project: string; pushed_by: string; title: string | null; cwd: string | null; entry_count: number; header: string }[]> {
  return (
    await db.pool.query(
      `SELECT s.id AS pk, p.name AS project, u.name AS pushed_by, s.title, s.cwd, s.entry_count, s.header
         FROM sessions s JOIN projects p ON p.id = s.project_id JOIN people u ON u.id = s.pushed_by WHERE s.session_id = $1 ORDER BY p.name, u.name`,
      [sessionId],
    )
  ).rows;
}

async function entryIdsOf(pk: string): Promise<string[]> {
  return (await db.pool.query<{ entry_id: string }>("SELECT entry_id FROM entries WHERE session_pk = $1 ORDER BY seq", [pk])).rows.map((r) => r.entry_id);
}

async function refusalOf(promise: Promise<unknown>): Promise<ArchiveError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof ArchiveError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

type Result = { ok: true; value: Record<string, unknown> } | { ok: false; error: { code: string; message: string } };

/** one call of a page signed in as `who` */
async function call(who: string, method: string, params: unknown): Promise<Result> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/ws?token=${encodeURIComponent(tokens[who] as string)}`);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  try {
    return await new Promise<Result>((resolve) => {
      ws.once("message", (data) => resolve((JSON.parse(String(data)) as { result: Result }).result));
      ws.send(JSON.stringify({ t: "call", id: 1, method, params }));
    });
  } finally {
    ws.close();
  }
}

/** what a page shows of a session: its open answer's id and entry count, and the text the model sees */
async function pageRead(who: string, name: string): Promise<{ id: string; entryCount: number; context: string }> {
  const opened = await call(who, "openSession", { sessionId: name });
  if (!opened.ok) throw new Error(`${who} could not open ${name}: ${opened.error.message}`);
  const session = opened.value.session as { id: string; entryCount: number };
  const context = await call(who, "getContextPreview", { sessionId: name });
  if (!context.ok) throw new Error(`${who} could not read ${name}: ${context.error.message}`);
  return { id: session.id, entryCount: session.entryCount, context: JSON.stringify(context.value) };
}

beforeAll(async () => {
  db = await openArchiveDatabase(server.freshDatabase());
  work = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-identity-"));
  fs.mkdirSync(path.join(work, "renderer"));
  fs.writeFileSync(path.join(work, "renderer", "index.html"), "<!doctype html><title>Bonsai</title>");
  app = createArchiveApp({ pool: db.pool, rendererDir: path.join(work, "renderer"), cacheDir: path.join(work, "cache"), cachedSessions: 3 });
  http = createArchiveServer({ pool: db.pool, log: () => {}, app });
  url = `http://127.0.0.1:${(await listen(http, "127.0.0.1", 0)).port}`;
  await addProject(db.pool, "alpha");
  await addProject(db.pool, "beta");
  for (const [name, role] of [["amy", "member"], ["carl", "member"], ["ben", "member"], ["root", "admin"]] as const) tokens[name] = (await addPerson(db.pool, name, role)).token;
  await grant(db.pool, "amy", "alpha");
  await grant(db.pool, "carl", "alpha");
  await grant(db.pool, "ben", "beta");
}, 120_000);

afterAll(async () => {
  await app.close();
  await shutdownGracefully(http, 0);
  await db.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("a push keeps every entry it reports", () => {
  it("refuses a local session with a duplicated entry id in one line, and the archive holds nothing of it", async () => {
    const dir = fs.mkdtempSync(path.join(work, "machine-"));
    const file = path.join(dir, "dupes.jsonl");
    const lines = [header("dupes"), ...[entry("d-e0", null, "first", 0), entry("d-e1", "d-e0", "second", 1), entry("d-e1", "d-e0", "second again", 2), entry("d-e3", "d-e1", "fourth", 3)].map((e) => JSON.stringify(e))];
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
    const local = openStore({ path: path.join(dir, "bonsai.db"), writeThrough: false });
    try {
      const imported = await local.importFile(file);
      expect(imported.sessionId).toBe("dupes");
      expect(local.getSession("dupes")?.entryCount).toBe(4);
      const refused = await refusalOf(pushSession(storePushSource(local), "dupes", { client: as("amy"), project: "alpha" }));
      expect(refused.message).toBe('session dupes has two entries with the id "d-e1" (entries 2 and 3); the archive keeps one entry per id, so nothing of it was pushed');
    } finally {
      local.close();
    }
    expect(await rowsOf("dupes")).toEqual([]);
  });

  it("refuses a batch that repeats an id the archive holds (a client that skips the check), and keeps the count true", async () => {
    const batch = (from: number, entries: unknown[]) =>
      fetch(`${url}/api/push/batch`, {
        method: "POST",
        headers: { authorization: `Bearer ${tokens.amy}`, "content-type": "application/json" },
        body: JSON.stringify({ project: "alpha", from, entries: entries.map((e) => JSON.stringify(e)), session: { sessionId: "raw-dupes", agent: "pi", title: null, cwd: "/src", header: header("raw-dupes", "/src") } }),
      });
    expect((await batch(0, [entry("r-e0", null, "a"), entry("r-e0", null, "b")])).status).toBe(400);
    expect(await rowsOf("raw-dupes")).toEqual([]);
    expect(await (await batch(0, chain("r", ["a", "b"]))).json()).toEqual({ have: 2, added: 2 });
    const again = await batch(2, [entry("r-e1", "r-e0", "b again", 2)]);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toContain('two entries with the id "r-e1" (entries 2 and 3)');
    const [row] = await rowsOf("raw-dupes");
    expect(row?.entry_count).toBe(2);
    expect(await entryIdsOf(row?.pk as string)).toEqual(["r-e0", "r-e1"]);
  });

  it("reports as sent exactly the entries the archive then holds", async () => {
    const report = await pushSession(source("counted", chain("c", ["one", "two", "three", "four"])), "counted", { client: as("amy"), project: "alpha", batchBytes: 200 });
    const [row] = await rowsOf("counted");
    const held = await entryIdsOf(row?.pk as string);
    expect([report.sent, report.added, row?.entry_count]).toEqual([held.length, held.length, held.length]);
    expect(held).toEqual(["c-e0", "c-e1", "c-e2", "c-e3"]);
  });
});

describe("two people's sessions never merge", () => {
  it("keeps one id pushed by two members of one project as two whole sessions, each named by its pusher", async () => {
    const amys = chain("amy", ["amy's plan: apricot", "ok", "amy's tests"]);
    const carls = chain("carl", ["carl's plan: cranberry", "sure"]);
    await pushSession(source("shared", amys, { title: "amy's shared", cwd: "/amy" }), "shared", { client: as("amy"), project: "alpha" });
    await pushSession(source("shared", carls, { title: "carl's shared", cwd: "/carl" }), "shared", { client: as("carl"), project: "alpha" });
    const rows = await rowsOf("shared");
    expect(rows.map((r) => [r.project, r.pushed_by, r.entry_count])).toEqual([
      ["alpha", "amy", 3],
      ["alpha", "carl", 2],
    ]);
    expect(await entryIdsOf(rows[0]?.pk as string)).toEqual(["amy-e0", "amy-e1", "amy-e2"]);
    expect(await entryIdsOf(rows[1]?.pk as string)).toEqual(["carl-e0", "carl-e1"]);
    // every read names each by its key; a bare id names both, and is refused with both keys
    const listed = await as("amy").sessions({ text: "shared" });
    expect(listed.map((s) => [s.key, s.pushedBy, s.entryCount]).sort()).toEqual([
      ["alpha/amy/shared", "amy", 3],
      ["alpha/carl/shared", "carl", 2],
    ]);
    expect((await as("amy").sessionJsonl("alpha/carl/shared")).jsonl).toBe(`${[header("shared", "/carl"), ...carls.map((e) => JSON.stringify(e))].join("\n")}\n`);
    const bare = await refusalOf(as("amy").sessionJsonl("shared"));
    expect(bare.message).toBe('"shared" names 2 sessions: alpha/amy/shared, alpha/carl/shared; name one as project/person/id');
    expect((await as("carl").search("cranberry")).map((h) => h.key)).toEqual(["alpha/carl/shared"]);
    const store = new ArchiveStore(db.pool, await authenticate(db.pool, tokens.amy as string));
    expect((await store.getPath("alpha/carl/shared")).map((e) => e.parentId)).toEqual([null, "carl-e0"]);
    const ambiguous = await store.resolveSessionId("shared").catch((e: unknown) => e);
    expect(ambiguous).toBeInstanceOf(SessionLookupError);
    expect((ambiguous as SessionLookupError).candidates).toEqual(["alpha/amy/shared", "alpha/carl/shared"]);
  });

  it("lets no one but the pusher change a session's title or cwd", async () => {
    await pushSession(source("titled", chain("t", ["mine"]), { title: "amy's title", cwd: "/home/amy" }), "titled", { client: as("amy"), project: "alpha" });
    // carl pushes the same id with an entry more (a push that only renames sends nothing)
    await pushSession(source("titled", chain("t", ["mine", "carl's addition"]), { title: "retitled by carl", cwd: "/home/carl" }), "titled", { client: as("carl"), project: "alpha" });
    const amy = (await rowsOf("titled")).find((r) => r.pushed_by === "amy");
    expect([amy?.title, amy?.cwd, amy?.entry_count]).toEqual(["amy's title", "/home/amy", 1]);
    expect((await rowsOf("titled")).map((r) => [r.pushed_by, r.title])).toEqual([["amy", "amy's title"], ["carl", "retitled by carl"]]);
    // the pusher herself still may (with the entries her push adds)
    await pushSession(source("titled", chain("t", ["mine", "more"]), { title: "amy's new title", cwd: "/home/amy/2" }), "titled", { client: as("amy"), project: "alpha" });
    const again = (await rowsOf("titled")).find((r) => r.pushed_by === "amy");
    expect([again?.title, again?.cwd]).toEqual(["amy's new title", "/home/amy/2"]);
  });
});

describe("the pushed header is checked as the store checks a file's", () => {
  it("refuses a forged second line in the header, in one line, and stores nothing", async () => {
    const forged = `${header("forged")}\n${JSON.stringify(entry("injected", null, "never said"))}`;
    const refused = await refusalOf(pushSession(source("forged", chain("f", ["hello"]), { header: forged }), "forged", { client: as("amy"), project: "alpha" }));
    expect(refused.code).toBe("bad-request");
    expect(refused.message).toBe("the header of session forged is more than one line");
    const notHeader = await refusalOf(pushSession(source("forged", chain("f", ["hello"]), { header: JSON.stringify(entry("x", null, "no header")) }), "forged", { client: as("amy"), project: "alpha" }));
    expect(notHeader.message).toMatch(/^the header of session forged is not a session header: not a session: /);
    expect(notHeader.message).not.toContain("\n");
    expect(await rowsOf("forged")).toEqual([]);
  });

  it("refuses a header naming another project's session id, and that session opens as before for its own project", async () => {
    await pushSession(source("beta-plan", chain("bp", ["beta's own: blueberry", "noted"])), "beta-plan", { client: as("ben"), project: "beta" });
    const refused = await refusalOf(pushSession(source("amy-evil", chain("ae", ["amy's: apricot"]), { header: header("beta-plan") }), "amy-evil", { client: as("amy"), project: "alpha" }));
    expect(refused.message).toBe('the header of session amy-evil names another session ("beta-plan")');
    expect(await rowsOf("amy-evil")).toEqual([]);
    // a row stored before this check (written here as an older archive would have kept it) opens under its own
    // key, and never takes the place of the session its header names
    const alpha = (await db.pool.query<{ id: string }>("SELECT id FROM projects WHERE name = 'alpha'")).rows[0]?.id;
    const amyId = (await db.pool.query<{ id: string }>("SELECT id FROM people WHERE name = 'amy'")).rows[0]?.id;
    const pk = (await db.pool.query<{ id: string }>("INSERT INTO sessions (project_id, session_id, pushed_by, agent, header, entry_count) VALUES ($1, 'amy-evil', $2, 'pi', $3, 1) RETURNING id", [alpha, amyId, header("beta-plan")])).rows[0]?.id;
    await db.pool.query("INSERT INTO entries (session_pk, seq, entry_id, parent_id, type, entry) VALUES ($1, 0, 'ae-e0', NULL, 'message', $2)", [pk, JSON.stringify(entry("ae-e0", null, "amy's: apricot"))]);
    for (const round of [1, 2]) {
      const amy = await pageRead("amy", "amy-evil");
      const ben = await pageRead("ben", "beta-plan");
      expect([amy.id, amy.entryCount], `round ${round}`).toEqual(["alpha/amy/amy-evil", 1]);
      expect(amy.context).toContain("apricot");
      expect([ben.id, ben.entryCount], `round ${round}`).toEqual(["beta/ben/beta-plan", 2]);
      expect(ben.context).toContain("blueberry");
      expect(ben.context).not.toContain("apricot");
    }
  });
});

describe("the page keeps each session's copy apart", () => {
  it("opens one id in two projects for both members, in turn and at once, each their own", async () => {
    await pushSession(source("twin", chain("tw", ["alpha's twin: apricot", "one"])), "twin", { client: as("amy"), project: "alpha" });
    await pushSession(source("twin", chain("tw", ["beta's twin: blueberry", "two", "three"])), "twin", { client: as("ben"), project: "beta" });
    for (let round = 0; round < 3; round++) {
      const [amy, ben] = await Promise.all([pageRead("amy", "twin"), pageRead("ben", "twin")]);
      expect([amy.id, amy.entryCount]).toEqual(["alpha/amy/twin", 2]);
      expect(amy.context).toContain("apricot");
      expect(amy.context).not.toContain("blueberry");
      expect([ben.id, ben.entryCount]).toEqual(["beta/ben/twin", 3]);
      expect(ben.context).toContain("blueberry");
    }
  });

  it("opens a fork pushed from the CLI (a copied file: one header id, two store ids) and its original, each whole", async () => {
    const dir = fs.mkdtempSync(path.join(work, "fork-"));
    const original = chain("fk", ["the walnut plan", "agreed"]);
    const fork = [...original, entry("fk-e2", "fk-e1", "the fork's own: hazelnut", 2)];
    const write = (name: string, entries: readonly unknown[]): string => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, `${[header("forked"), ...entries.map((e) => JSON.stringify(e))].join("\n")}\n`);
      return file;
    };
    const local = openStore({ path: path.join(dir, "bonsai.db"), writeThrough: false });
    try {
      const a = (await local.importFile(write("a.jsonl", original))).sessionId as string;
      const b = (await local.importFile(write("b.jsonl", fork))).sessionId as string;
      expect(a).toBe("forked");
      expect(b).toMatch(/^forked-[0-9a-f]{8}$/);
      for (const id of [a, b]) await pushSession(storePushSource(local), id, { client: as("amy"), project: "alpha" });
      for (let round = 0; round < 2; round++) {
        const forkRead = await pageRead("amy", `alpha/amy/${b}`);
        const originalRead = await pageRead("amy", "alpha/amy/forked");
        expect([forkRead.id, forkRead.entryCount]).toEqual([`alpha/amy/${b}`, 3]);
        expect(forkRead.context).toContain("hazelnut");
        expect([originalRead.id, originalRead.entryCount]).toEqual(["alpha/amy/forked", 2]);
        expect(originalRead.context).not.toContain("hazelnut");
      }
    } finally {
      local.close();
    }
  });
});
