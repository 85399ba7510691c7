/**
 * Every call of the archive's contract, with a token of each role and a revoked one: a person in
 * project A can neither list, open, search, push to nor learn the existence of a session of project
 * B. And search finds words inside Japanese, Chinese and Thai sentences.
 */
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, AnswerCache, ArchiveClient, ArchiveError, createArchiveServer, grant, listen, openArchiveDatabase, pushSession, revokeTokens, type ArchiveDatabase, type PushSource } from "../src";
import { usePostgres } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;
let http: Server;
let url: string;
const tokens: Record<string, string> = {};

function session(id: string, texts: string[]): PushSource {
  const entries = texts.map((text, i) => ({ type: "message", id: `${id}-e${i}`, parentId: i === 0 ? null : `${id}-e${i - 1}`, timestamp: `2026-01-01T00:00:0${i}.000Z`, message: { role: i % 2 === 0 ? "user" : "assistant", content: [{ type: "text", text }] } }));
  return {
    session: () => ({ sessionId: id, agent: "pi", title: `title of ${id}`, cwd: `/src/${id}`, header: JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: `/src/${id}` }), startedAt: "2026-01-01T00:00:00.000Z" }),
    entries: () => entries,
  };
}

beforeAll(async () => {
  db = await openArchiveDatabase(server.freshDatabase());
  // with the answers cache `bonsai team serve` runs with: a kept answer must never cross from one person's projects to another's
  http = createArchiveServer({ pool: db.pool, log: () => {}, answers: new AnswerCache(64 * 1024 * 1024) });
  url = `http://127.0.0.1:${(await listen(http, "127.0.0.1", 0)).port}`;
  await addProject(db.pool, "alpha");
  await addProject(db.pool, "beta");
  for (const [name, role] of [["amy", "member"], ["ben", "member"], ["root", "admin"], ["gone", "member"]] as const) tokens[name] = (await addPerson(db.pool, name, role)).token;
  await grant(db.pool, "amy", "alpha");
  await grant(db.pool, "ben", "beta");
  await grant(db.pool, "gone", "alpha");
  await grant(db.pool, "gone", "beta");
  await pushSession(session("alpha-one", ["the marmalade migration plan", "ok", "データベースのマイグレーションを進めてください"]), "alpha-one", { client: new ArchiveClient(url, tokens.amy as string), project: "alpha" });
  await pushSession(session("beta-secret", ["the zeppelin roadmap", "我们需要迁移数据库", "กรุณาย้ายฐานข้อมูลวันนี้"]), "beta-secret", { client: new ArchiveClient(url, tokens.ben as string), project: "beta" });
  await revokeTokens(db.pool, { person: "gone" });
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await db.close();
});

const as = (who: string): ArchiveClient => new ArchiveClient(url, tokens[who] as string);

async function refusal(promise: Promise<unknown>): Promise<ArchiveError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof ArchiveError)) throw new Error(`expected a refusal, got ${JSON.stringify(error)}`);
  return error;
}

describe("what each person may see", () => {
  it("lists only the sessions of one's projects; an admin sees all", async () => {
    expect((await as("amy").sessions()).map((s) => s.id)).toEqual(["alpha-one"]);
    expect((await as("ben").sessions()).map((s) => s.id)).toEqual(["beta-secret"]);
    expect((await as("root").sessions()).map((s) => s.id).sort()).toEqual(["alpha-one", "beta-secret"]);
    expect(await as("amy").sessions({ project: "beta" })).toEqual([]);
    // the amnesia report over many sessions (test/amnesia.test.ts has sessions with compactions)
    expect(await as("amy").amnesia({ project: "beta" })).toEqual(await as("amy").amnesia({ project: "gamma" }));
  });

  it("opens another project's session exactly as one that does not exist", async () => {
    const other = await refusal(as("amy").sessionJsonl("beta-secret"));
    const missing = await refusal(as("amy").sessionJsonl("no-such-session"));
    expect(other.code).toBe("not-found");
    expect(other.message.replace("beta-secret", "X")).toBe(missing.message.replace("no-such-session", "X"));
    // a prefix does not reveal it either
    expect((await refusal(as("amy").sessionJsonl("beta"))).code).toBe("not-found");
    const own = await as("amy").sessionJsonl("alpha");
    expect(own.sessionId).toBe("alpha/amy/alpha-one");
    expect(own.jsonl.trimEnd().split("\n")).toHaveLength(4);
    expect((await as("root").sessionJsonl("beta-secret")).jsonl).toContain("zeppelin");
  });

  it("searches only what one may read", async () => {
    expect(await as("amy").search("zeppelin")).toEqual([]);
    expect(await as("amy").search("zeppelin", { project: "beta" })).toEqual([]);
    expect((await as("ben").search("zeppelin")).map((h) => h.sessionId)).toEqual(["beta-secret"]);
    expect((await as("root").search("the")).map((h) => h.sessionId).sort()).toEqual(["alpha-one", "beta-secret"]);
  });

  it("asks about and pushes to another project exactly as to one that does not exist", async () => {
    const other = await refusal(as("amy").has("beta", "beta-secret"));
    const missing = await refusal(as("amy").has("gamma", "beta-secret"));
    expect(other.message.replace("beta", "X")).toBe(missing.message.replace("gamma", "X"));
    const push = await refusal(pushSession(session("beta-secret", ["overwrite"]), "beta-secret", { client: as("amy"), project: "beta" }));
    expect(push.code).toBe("forbidden");
    expect((await as("root").sessionJsonl("beta-secret")).jsonl).not.toContain("overwrite");
  });

  it("refuses every call with a revoked token", async () => {
    const gone = as("gone");
    const calls = [() => gone.sessions(), () => gone.sessionJsonl("alpha-one"), () => gone.search("the"), () => gone.has("alpha", "alpha-one"), () => gone.me(), () => gone.amnesia()];
    for (const call of calls) {
      expect((await refusal(call())).code).toBe("unauthorized");
    }
  });

  it("tells each person who they are and which projects they may read", async () => {
    expect(await as("amy").me()).toEqual({ name: "amy", role: "member", projects: ["alpha"] });
    expect(await as("root").me()).toEqual({ name: "root", role: "admin", projects: ["alpha", "beta"] });
  });
});

describe("search reads every script", () => {
  it("finds a Japanese word inside a sentence, with a snippet", async () => {
    const hits = await as("amy").search("マイグレーション");
    expect(hits.map((h) => h.entryId)).toEqual(["alpha-one-e2"]);
    expect(hits[0]?.snippet).toContain("[マイグレーション]");
  });

  it("finds Chinese and Thai words inside sentences", async () => {
    expect((await as("ben").search("迁移")).map((h) => h.entryId)).toEqual(["beta-secret-e1"]);
    expect((await as("ben").search("ฐานข้อมูล")).map((h) => h.entryId)).toEqual(["beta-secret-e2"]);
  });

  it("matches words, prefixes and phrases, and ranks", async () => {
    expect((await as("amy").search("marma*")).map((h) => h.entryId)).toEqual(["alpha-one-e0"]);
    expect((await as("amy").search('"migration plan"')).map((h) => h.entryId)).toEqual(["alpha-one-e0"]);
    expect(await as("amy").search('"plan migration"')).toEqual([]);
    expect((await as("amy").search("marmalade"))[0]?.snippet).toContain("[marmalade]");
  });
});
