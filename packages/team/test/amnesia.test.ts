/**
 * The archive's amnesia report over many sessions (GET /api/amnesia): every role sees the sessions of
 * its projects only (no id, title or count of another), a revoked token is refused, the sessions to
 * read are found through the partial index, and a session's kept row is made again after a push
 * appends to it. A real PostgreSQL server and a real HTTP server.
 */
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, ArchiveClient, ArchiveStore, ArchiveError, authenticate, createArchiveServer, grant, listen, openArchiveDatabase, pushSession, revokeTokens, WorkerAmnesiaScorer, amnesiaWorkerUrl, type ArchiveDatabase, type PushSource } from "../src";
import { usePostgres } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;
let http: Server;
let url: string;
const tokens: Record<string, string> = {};

/** A session whose compaction is followed by a read of the file the summarized part read (a "reread"), with `extra` plain messages after. */
function entriesOf(id: string, extra = 0): unknown[] {
  const base = { timestamp: "2026-01-01T00:00:00.000Z" };
  const list: Record<string, unknown>[] = [
    { type: "message", id: `${id}-u0`, message: { role: "user", content: [{ type: "text", text: "fix the parser in src/parse.ts" }], timestamp: 0 } },
    { type: "message", id: `${id}-a1`, message: { role: "assistant", content: [{ type: "toolCall", id: "t1", name: "read", arguments: { path: "src/parse.ts" } }], stopReason: "toolUse", timestamp: 0 } },
    { type: "message", id: `${id}-r2`, message: { role: "toolResult", toolCallId: "t1", toolName: "read", content: [{ type: "text", text: "export function parse() {}" }], isError: false, timestamp: 0 } },
    { type: "message", id: `${id}-u3`, message: { role: "user", content: [{ type: "text", text: "now the tests" }], timestamp: 0 } },
    { type: "compaction", id: `${id}-c4`, summary: "The user asked for a parser fix.", firstKeptEntryId: `${id}-u3`, tokensBefore: 5000 },
    { type: "message", id: `${id}-a5`, message: { role: "assistant", content: [{ type: "toolCall", id: "t2", name: "read", arguments: { path: "src/parse.ts" } }], stopReason: "toolUse", timestamp: 0 } },
    { type: "message", id: `${id}-r6`, message: { role: "toolResult", toolCallId: "t2", toolName: "read", content: [{ type: "text", text: "export function parse() {}" }], isError: false, timestamp: 0 } },
  ];
  for (let i = 0; i < extra; i++) list.push({ type: "message", id: `${id}-x${i}`, message: { role: "user", content: [{ type: "text", text: `more ${i}` }], timestamp: 0 } });
  return list.map((e, i) => ({ ...base, ...e, parentId: i === 0 ? null : (list[i - 1] as { id: string }).id }));
}

function source(id: string, title: string, withCompaction: boolean, extra = 0): PushSource {
  const entries = withCompaction ? entriesOf(id, extra) : [{ type: "message", id: `${id}-only`, parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 0 } }];
  return {
    session: () => ({ sessionId: id, agent: "pi", title, cwd: `/src/${id}`, header: JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: `/src/${id}` }), startedAt: "2026-01-01T00:00:00.000Z" }),
    entries: () => entries,
  };
}

const as = (who: string): ArchiveClient => new ArchiveClient(url, tokens[who] as string);

beforeAll(async () => {
  db = await openArchiveDatabase(server.freshDatabase());
  http = createArchiveServer({ pool: db.pool, log: () => {} });
  url = `http://127.0.0.1:${(await listen(http, "127.0.0.1", 0)).port}`;
  await addProject(db.pool, "alpha");
  await addProject(db.pool, "beta");
  for (const [name, role] of [["amy", "member"], ["ben", "member"], ["root", "admin"], ["gone", "member"]] as const) tokens[name] = (await addPerson(db.pool, name, role)).token;
  await grant(db.pool, "amy", "alpha");
  await grant(db.pool, "ben", "beta");
  await grant(db.pool, "gone", "alpha");
  await pushSession(source("alpha-compacted", "alpha title", true), "alpha-compacted", { client: as("amy"), project: "alpha" });
  await pushSession(source("alpha-plain", "alpha plain", false), "alpha-plain", { client: as("amy"), project: "alpha" });
  await pushSession(source("beta-compacted", "zeppelin roadmap", true), "beta-compacted", { client: as("ben"), project: "beta" });
  await pushSession(source("beta-compacted-2", "zeppelin budget", true), "beta-compacted-2", { client: as("ben"), project: "beta" });
  await revokeTokens(db.pool, { person: "gone" });
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await db.close();
});

describe("GET /api/amnesia", () => {
  it("reports a member's own projects' sessions with a compaction, and nothing of another project", async () => {
    const amy = await as("amy").amnesia();
    expect(amy.sessions.map((s) => [s.sessionId, s.project, s.pushedBy, s.title])).toEqual([["alpha/amy/alpha-compacted", "alpha", "amy", "alpha title"]]);
    expect(amy.sessions[0]).toMatchObject({ compactions: 1, prunings: 0, score: 2, findings: { reread: 1 } });
    expect(amy.sessions[0]?.points).toEqual([{ kind: "compaction", entryId: "alpha-compacted-c4", score: 2, findings: expect.objectContaining({ reread: 1 }) }]);
    expect(amy.totals).toMatchObject({ sessions: 1, compactions: 1, score: 2 });
    const text = JSON.stringify(amy);
    for (const secret of ["beta", "zeppelin", "ben"]) expect(text).not.toContain(secret);
    // another project asked for by name is answered exactly as one that does not exist
    expect(await as("amy").amnesia({ project: "beta" })).toEqual(await as("amy").amnesia({ project: "no-such-project" }));
    expect((await as("amy").amnesia({ project: "beta" })).totals.sessions).toBe(0);
  });

  it("gives another member their own project, and an admin every project or one", async () => {
    expect((await as("ben").amnesia()).sessions.map((s) => s.sessionId).sort()).toEqual(["beta/ben/beta-compacted", "beta/ben/beta-compacted-2"]);
    expect((await as("root").amnesia()).sessions.map((s) => s.sessionId).sort()).toEqual(["alpha/amy/alpha-compacted", "beta/ben/beta-compacted", "beta/ben/beta-compacted-2"]);
    expect((await as("root").amnesia({ project: "alpha" })).sessions.map((s) => s.sessionId)).toEqual(["alpha/amy/alpha-compacted"]);
  });

  it("refuses a revoked token", async () => {
    const error = await as("gone").amnesia().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe("unauthorized");
  });

  it("keeps each session's row for its entry count, and scores a session again once a push appended to it", async () => {
    await as("amy").amnesia();
    const kept = async (): Promise<{ entry_count: number; row_json: string }> =>
      (await db.pool.query<{ entry_count: number; row_json: string }>("SELECT k.entry_count, k.row_json FROM amnesia_rows k JOIN sessions s ON s.id = k.session_pk WHERE s.session_id = 'alpha-compacted'")).rows[0] as { entry_count: number; row_json: string };
    expect((await kept()).entry_count).toBe(7);
    // a row kept for the current count is what is answered (changed here by hand to show it is read)
    await db.pool.query("UPDATE amnesia_rows SET row_json = replace(row_json, '\"score\":2', '\"score\":40') WHERE entry_count = 7 AND session_pk = (SELECT id FROM sessions WHERE session_id = 'alpha-compacted')");
    expect((await as("amy").amnesia()).sessions[0]?.score).toBe(40);
    await pushSession(source("alpha-compacted", "alpha title", true, 2), "alpha-compacted", { client: as("amy"), project: "alpha" });
    const after = await as("amy").amnesia();
    expect(after.sessions[0]?.score).toBe(2);
    expect((await kept()).entry_count).toBe(9);
  });

  it("scores on the host's worker thread exactly as in this thread", async () => {
    const scorer = new WorkerAmnesiaScorer(amnesiaWorkerUrl());
    try {
      const root = await authenticate(db.pool, tokens.root as string);
      const inThread = await new ArchiveStore(db.pool, root).amnesiaOverview();
      await db.pool.query("DELETE FROM amnesia_rows");
      const onWorker = await new ArchiveStore(db.pool, root).amnesiaOverview({}, scorer.score);
      expect(onWorker).toEqual(inThread);
      expect(onWorker.totals.sessions).toBe(3);
      expect(Number((await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM amnesia_rows")).rows[0]?.n)).toBe(3);
    } finally {
      await scorer.close();
    }
  });

  it("finds the sessions to read through the partial index, never reading the entries of the others", async () => {
    await db.pool.query("ANALYZE entries");
    const query = "EXPLAIN SELECT e.session_pk FROM entries e WHERE e.type = 'compaction' OR (e.type = 'message' AND strpos(e.entry, '\"prunedAt\":') > 0)";
    const client = await db.pool.connect();
    let plan: string;
    try {
      await client.query("SET enable_seqscan = off");
      plan = (await client.query<{ "QUERY PLAN": string }>(query)).rows.map((r) => r["QUERY PLAN"]).join("\n");
      await client.query("RESET enable_seqscan");
    } finally {
      client.release();
    }
    // on a table this small PostgreSQL may prefer a scan; the index must be usable for the condition as the query writes it
    expect(plan).toContain("entries_amnesia_points");
  });
});
