/**
 * Answers kept by a server process (answer-cache.ts): given again only to a caller who may read
 * exactly the same projects, and only while nothing in those projects has changed, whatever changed
 * it (a push, a grant, a revoked token, a row changed by hand).
 */
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, AnswerCache, ArchiveClient, ArchiveError, createArchiveServer, grant, listen, openArchiveDatabase, pushSession, revokeTokens, type ArchiveDatabase, type PushSource } from "../src";
import { answerKey } from "../src/answer-cache";
import { usePostgres } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;
let http: Server;
let url: string;
const cache = new AnswerCache(4 * 1024 * 1024);
const tokens: Record<string, string> = {};

function session(id: string, texts: string[]): PushSource {
  const entries = texts.map((text, i) => ({ type: "message", id: `${id}-e${i}`, parentId: i === 0 ? null : `${id}-e${i - 1}`, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: [{ type: "text", text }] } }));
  return {
    session: () => ({ sessionId: id, agent: "pi", title: `title of ${id}`, cwd: `/src/${id}`, header: JSON.stringify({ type: "session", version: 3, id }), startedAt: null }),
    entries: () => entries,
  };
}

const as = (who: string): ArchiveClient => new ArchiveClient(url, tokens[who] as string);
const push = (who: string, project: string, id: string, texts: string[]) => pushSession(session(id, texts), id, { client: as(who), project });

beforeAll(async () => {
  db = await openArchiveDatabase(server.freshDatabase());
  http = createArchiveServer({ pool: db.pool, log: () => {}, answers: cache });
  url = `http://127.0.0.1:${(await listen(http, "127.0.0.1", 0)).port}`;
  for (const name of ["alpha", "beta", "gamma"]) await addProject(db.pool, name);
  for (const [name, role] of [["amy", "member"], ["ann", "member"], ["ben", "member"], ["root", "admin"]] as const) tokens[name] = (await addPerson(db.pool, name, role)).token;
  await grant(db.pool, "amy", "alpha");
  await grant(db.pool, "ann", "alpha");
  await grant(db.pool, "ben", "beta");
  await push("amy", "alpha", "alpha-one", ["the marmalade plan"]);
  await push("ben", "beta", "beta-one", ["the zeppelin roadmap"]);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await db.close();
});

/** how many answers the cache gave during `fn` */
async function hitsDuring(fn: () => Promise<unknown>): Promise<number> {
  const before = cache.hits;
  await fn();
  return cache.hits - before;
}

describe("answers kept by a server process", () => {
  it("gives a kept answer again to a caller with the same projects, never to one with others", async () => {
    expect((await as("amy").sessions()).map((s) => s.id)).toEqual(["alpha-one"]);
    // ann may read exactly what amy may: amy's answer is hers too
    expect(await hitsDuring(async () => expect((await as("ann").sessions()).map((s) => s.id)).toEqual(["alpha-one"]))).toBe(1);
    // ben and the admin ask the same text and get their own
    expect((await as("ben").sessions()).map((s) => s.id)).toEqual(["beta-one"]);
    expect((await as("root").sessions()).map((s) => s.id).sort()).toEqual(["alpha-one", "beta-one"]);
    expect(await as("ben").search("marmalade")).toEqual([]);
    expect((await as("amy").search("marmalade")).map((h) => h.sessionId)).toEqual(["alpha-one"]);
    expect(await hitsDuring(() => as("ann").search("marmalade"))).toBe(1);
    expect(await hitsDuring(async () => expect((await as("ben").search("marmalade"))).toEqual([]))).toBe(1);
  });

  it("answers from the new data after a push to one of the caller's projects, and keeps answers of the others", async () => {
    await as("amy").sessions();
    await as("amy").search("quince");
    const jsonl = (await as("amy").sessionJsonl("alpha-one")).jsonl;
    await as("ben").sessions();
    expect(await hitsDuring(() => Promise.all([as("amy").sessions(), as("amy").search("quince"), as("amy").sessionJsonl("alpha-one"), as("ben").sessions()]))).toBe(4);

    await push("amy", "alpha", "alpha-one", ["the marmalade plan", "then the quince jam"]);
    await push("amy", "alpha", "alpha-two", ["a second quince"]);
    expect((await as("amy").sessions()).map((s) => s.id).sort()).toEqual(["alpha-one", "alpha-two"]);
    expect((await as("amy").search("quince")).map((h) => h.sessionId).sort()).toEqual(["alpha-one", "alpha-two"]);
    const grown = (await as("amy").sessionJsonl("alpha-one")).jsonl;
    expect(grown.startsWith(jsonl)).toBe(true);
    expect(grown).toContain("quince jam");
    // nothing changed in beta: ben's kept list is still the answer
    expect(await hitsDuring(() => as("ben").sessions())).toBe(1);
  });

  it("refuses a revoked token even where its answer is kept, and follows a new grant", async () => {
    const extra = await addPerson(db.pool, "eve", "member");
    tokens.eve = extra.token;
    await grant(db.pool, "eve", "alpha");
    await as("eve").sessions();
    expect(await hitsDuring(() => as("eve").sessions())).toBe(1);
    await grant(db.pool, "eve", "beta");
    expect((await as("eve").sessions()).map((s) => s.id).sort()).toEqual(["alpha-one", "alpha-two", "beta-one"]);
    await revokeTokens(db.pool, { person: "eve" });
    const error = await as("eve").sessions().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe("unauthorized");
  });

  it("sees a session changed or removed by hand in SQL", async () => {
    await push("amy", "alpha", "alpha-gone", ["to be removed"]);
    expect((await as("amy").sessions()).map((s) => s.id)).toContain("alpha-gone");
    await db.pool.query("UPDATE sessions SET title = 'renamed by hand' WHERE session_id = 'alpha-one'");
    expect((await as("amy").sessions()).find((s) => s.id === "alpha-one")?.title).toBe("renamed by hand");
    await db.pool.query("DELETE FROM sessions WHERE session_id = 'alpha-gone'");
    expect((await as("amy").sessions()).map((s) => s.id)).not.toContain("alpha-gone");
    const error = await as("amy").sessionJsonl("alpha-gone").catch((e: unknown) => e);
    expect((error as ArchiveError).code).toBe("not-found");
  });
});

describe("the cache's bounds", () => {
  const answer = (bytes: number) => ({ contentType: "text/plain", headers: {}, body: Buffer.alloc(bytes) });

  it("drops the answers given least recently beyond its size, and keeps none larger than an eighth of it", () => {
    const small = new AnswerCache(8000);
    small.set("a", answer(900));
    small.set("b", answer(900));
    small.set("too-big", answer(1001));
    expect(small.size).toBe(2);
    for (let i = 0; i < 6; i++) small.set(`c${i}`, answer(900));
    expect(small.size).toBe(8);
    small.get("a");
    small.set("d", answer(900));
    expect(small.usedBytes).toBeLessThanOrEqual(8000);
    expect(small.get("a")).toBeDefined();
    expect(small.get("b")).toBeUndefined();
    expect(small.get("d")).toBeDefined();
  });

  it("keeps nothing when its size is 0", () => {
    const off = new AnswerCache(0);
    off.set("a", answer(1));
    expect(off.enabled).toBe(false);
    expect(off.get("a")).toBeUndefined();
  });

  it("keys a request by who may read what, the route and its parameters in any order", () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(answerKey("1.4,2.0", "GET /api/search", q("q=x&limit=5"))).toBe(answerKey("1.4,2.0", "GET /api/search", q("limit=5&q=x")));
    expect(answerKey("1.4,2.0", "GET /api/search", q("q=x"))).not.toBe(answerKey("1.5,2.0", "GET /api/search", q("q=x")));
    expect(answerKey("1.4", "GET /api/search", q("q=x"))).not.toBe(answerKey("1.4", "GET /api/sessions", q("q=x")));
  });
});
