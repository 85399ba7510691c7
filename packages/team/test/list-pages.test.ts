/**
 * The session list of an archive page by page (keyset, in the order of the index: newest push
 * first), narrowed in PostgreSQL by project, person and text, so that paging a filtered list gives
 * every matching session; and one session id held by two projects: an admin names the project (or
 * is told which hold it), a member of one of them just gets hers and never learns of the other.
 */
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, ArchiveClient, ArchiveError, createArchiveServer, grant, listen, openArchiveDatabase, pushSession, type ArchiveDatabase, type ArchivedSession, type PushSource } from "../src";
import { usePostgres } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;
let http: Server;
let url: string;
const tokens: Record<string, string> = {};

function session(id: string, title: string, text: string): PushSource {
  const header = JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: `/src/${id}` });
  return {
    session: () => ({ sessionId: id, agent: "pi", title, cwd: `/src/${id}`, header, startedAt: "2026-01-01T00:00:00.000Z" }),
    entries: () => [{ type: "message", id: `${id}-e0`, parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text }] } }],
  };
}

const as = (who: string): ArchiveClient => new ArchiveClient(url, tokens[who] as string);

async function all(client: ArchiveClient, options: Parameters<ArchiveClient["allSessions"]>[0]): Promise<ArchivedSession[]> {
  const out: ArchivedSession[] = [];
  for await (const s of client.allSessions(options)) out.push(s);
  return out;
}

const key = (s: ArchivedSession): string => `${s.project}/${s.id}`;

async function refusal(promise: Promise<unknown>): Promise<ArchiveError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof ArchiveError)) throw new Error(`expected a refusal, got ${JSON.stringify(error)}`);
  return error;
}

beforeAll(async () => {
  db = await openArchiveDatabase(server.freshDatabase());
  http = createArchiveServer({ pool: db.pool, log: () => {} });
  url = `http://127.0.0.1:${(await listen(http, "127.0.0.1", 0)).port}`;
  await addProject(db.pool, "alpha");
  await addProject(db.pool, "beta");
  for (const [name, role] of [["amy", "member"], ["ben", "member"], ["root", "admin"]] as const) tokens[name] = (await addPerson(db.pool, name, role)).token;
  await grant(db.pool, "amy", "alpha");
  await grant(db.pool, "ben", "alpha");
  await grant(db.pool, "ben", "beta");
  const push = (who: string, project: string, id: string, title: string, text = "words") => pushSession(session(id, title, text), id, { client: as(who), project });
  // ids that sort against the order of their pushes: the list's order is the push's, not the id's
  for (let i = 0; i < 5; i++) await push("amy", "alpha", `amy-${9 - i}`, i % 2 === 0 ? `the walrus plan ${i}` : `other ${i}`);
  for (let i = 0; i < 4; i++) await push("ben", "alpha", `ben-${i}`, `ben's walrus ${i}`);
  for (let i = 0; i < 3; i++) await push("ben", "beta", `beta-${i}`, `beta ${i}`);
  // one session file pushed into both projects: the same id twice
  await push("amy", "alpha", "twin", "twin in alpha", "alpha's copy");
  await push("ben", "beta", "twin", "twin in beta", "beta's copy");
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await db.close();
});

describe("the session list, page by page", () => {
  it("gives every session exactly once through pages of 2, in the order of one long page", async () => {
    const whole = (await as("root").sessions({ limit: 1000 })).map(key);
    expect(whole).toHaveLength(14);
    expect((await all(as("root"), { pageSize: 2 })).map(key)).toEqual(whole);
    expect((await all(as("root"), { pageSize: 3, total: 5 })).map(key)).toEqual(whole.slice(0, 5));
  });

  it("gives every session once when many were pushed in the same microsecond", async () => {
    await db.pool.query("UPDATE sessions SET pushed_at = '2026-06-01T12:00:00.123456Z'");
    const paged = (await all(as("root"), { pageSize: 2 })).map(key);
    expect(new Set(paged).size).toBe(14);
    expect(paged).toEqual((await as("root").sessions({ limit: 1000 })).map(key));
  });

  it("filters in the archive: paging a filtered list gives every match, not the matches of a page", async () => {
    const walrus = await all(as("ben"), { pageSize: 1, text: "WALRUS plan" });
    expect(walrus.map((s) => s.id).sort()).toEqual(["amy-5", "amy-7", "amy-9"]);
    expect((await all(as("ben"), { pageSize: 2, pushedBy: "ben", project: "alpha" })).map((s) => s.id).sort()).toEqual(["ben-0", "ben-1", "ben-2", "ben-3"]);
    expect((await all(as("ben"), { pageSize: 2, project: "beta" })).map((s) => s.id).sort()).toEqual(["beta-0", "beta-1", "beta-2", "twin"]);
    // the words in any of title, folder, id, agent, project or person; a % or _ is a character, not a pattern
    expect((await all(as("ben"), { text: "beta twin" })).map(key)).toEqual(["beta/twin"]);
    expect(await all(as("ben"), { text: "%" })).toEqual([]);
    // a member's filter on another project answers nothing
    expect(await all(as("amy"), { project: "beta" })).toEqual([]);
  });

  it("refuses a position that is not one, in one sentence", async () => {
    const error = await refusal(as("amy").sessions({ after: "1; DROP TABLE sessions" }));
    expect(error.code).toBe("bad-request");
    expect(error.message).toMatch(/^not a position in the session list/);
  });
});

describe("one session id in two projects", () => {
  it("an admin who sees both is told which projects hold it, and names one with the project", async () => {
    const error = await refusal(as("root").sessionJsonl("twin"));
    expect(error.message).toContain("alpha/amy/twin");
    expect(error.message).toContain("beta/ben/twin");
    expect(error.message).not.toContain("\n");
    expect((await as("root").sessionJsonl("twin", "alpha")).jsonl).toContain("alpha's copy");
    expect((await as("root").sessionJsonl("twin", "beta")).jsonl).toContain("beta's copy");
  });

  it("a member of one project gets hers, and nothing says another project holds the id", async () => {
    const { jsonl } = await as("amy").sessionJsonl("twin");
    expect(jsonl).toContain("alpha's copy");
    expect(jsonl).not.toContain("beta");
    const other = await refusal(as("amy").sessionJsonl("twin", "beta"));
    const none = await refusal(as("amy").sessionJsonl("no-such-session"));
    expect(other.code).toBe(none.code);
    expect(other.message.replace("beta/twin", "X")).toBe(none.message.replace("no-such-session", "X"));
    expect((await as("amy").search("copy")).map((h) => `${h.project}/${h.sessionId}`)).toEqual(["alpha/twin"]);
  });
});
