import pg, { type PoolClient } from "pg";
import { describe, expect, it } from "vitest";
import { ARCHIVE_MIGRATIONS, ARCHIVE_SCHEMA_VERSION } from "../src/migrations";
import { ArchiveError, ArchiveStore, authenticate, issueToken, openArchiveDatabase, receiveBatch } from "../src";
import { usePostgres } from "./archive-server";

const server = usePostgres();

describe("the archive's schema", () => {
  it("is created on first open, and servers opening one database together both succeed", async () => {
    const url = server.freshDatabase();
    const [a, b, c] = await Promise.all([openArchiveDatabase(url), openArchiveDatabase(url), openArchiveDatabase(url)]);
    const versions = await a.pool.query<{ version: number }>("SELECT version FROM archive_schema ORDER BY version");
    expect(versions.rows.map((r) => r.version)).toEqual(Array.from({ length: ARCHIVE_SCHEMA_VERSION }, (_, i) => i + 1));
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it("refuses a database written by a newer Bonsai and changes nothing", async () => {
    const url = server.freshDatabase();
    const first = await openArchiveDatabase(url);
    await first.pool.query("INSERT INTO archive_schema (version) VALUES ($1)", [ARCHIVE_SCHEMA_VERSION + 5]);
    const before = await first.pool.query("SELECT count(*)::int AS n FROM archive_schema");
    await first.close();
    const error = await openArchiveDatabase(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe("schema-too-new");
    expect((error as ArchiveError).message).toMatch(/newer than this Bonsai understands/);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    expect((await client.query("SELECT count(*)::int AS n FROM archive_schema")).rows).toEqual(before.rows);
    await client.end();
  });

  it("says in one line that a server cannot be reached", async () => {
    const error = await openArchiveDatabase("postgres://nobody@127.0.0.1:1/none").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe("unreachable");
    expect((error as Error).message).toBe("cannot open the team archive database: connection refused");
  });
});

describe("migration 007: a session is (project, pusher, id)", () => {
  it("keeps every session and entry of an archive written before it, reads each by its key, and lets a second pusher of one id keep their own", async () => {
    const url = server.freshDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("CREATE TABLE archive_schema (version INTEGER NOT NULL, migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())");
      for (const migration of ARCHIVE_MIGRATIONS.filter((m) => m.version <= 6)) {
        await migration.up(client as unknown as PoolClient);
        await client.query("INSERT INTO archive_schema (version) VALUES ($1)", [migration.version]);
      }
      // an archive of schema 6: one session of amy's in alpha, with its entries
      await client.query("INSERT INTO people (name, role) VALUES ('amy', 'member'), ('carl', 'member')");
      await client.query("INSERT INTO projects (name) VALUES ('alpha')");
      await client.query("INSERT INTO grants SELECT u.id, p.id FROM people u, projects p");
      const header = JSON.stringify({ type: "session", version: 3, id: "old", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/src" });
      await client.query("INSERT INTO sessions (project_id, session_id, pushed_by, agent, title, cwd, header, entry_count) SELECT p.id, 'old', u.id, 'pi', 'old title', '/src', $1, 2 FROM projects p, people u WHERE u.name = 'amy'", [header]);
      for (const [seq, id, parent] of [[0, "o-e0", null], [1, "o-e1", "o-e0"]] as const) {
        const entry = JSON.stringify({ type: "message", id, parentId: parent, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "older words" } });
        await client.query("INSERT INTO entries (session_pk, seq, entry_id, parent_id, type, entry) SELECT id, $1, $2, $3, 'message', $4 FROM sessions", [seq, id, parent, entry]);
      }
    } finally {
      await client.end();
    }
    const db = await openArchiveDatabase(url);
    try {
      expect((await db.pool.query("SELECT max(version)::int AS v FROM archive_schema")).rows[0]?.v).toBe(ARCHIVE_SCHEMA_VERSION);
      const amy = new ArchiveStore(db.pool, await authenticate(db.pool, (await issueToken(db.pool, "amy")).token));
      expect((await amy.listSessions()).map((s) => [s.id, s.title, s.entryCount])).toEqual([["alpha/amy/old", "old title", 2]]);
      expect((await amy.loadEntries("alpha/amy/old")).map((e) => e.id)).toEqual(["o-e0", "o-e1"]);
      const carl = await authenticate(db.pool, (await issueToken(db.pool, "carl")).token);
      const entry = JSON.stringify({ type: "message", id: "c-e0", parentId: null, timestamp: "2026-01-01T00:00:02.000Z", message: { role: "user", content: "carl's words" } });
      await receiveBatch(db.pool, carl, { project: "alpha", from: 0, entries: [entry], session: { sessionId: "old", agent: "pi", title: "carl's", cwd: "/carl", header: JSON.stringify({ type: "session", version: 3, id: "old", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/carl" }), startedAt: null } });
      expect((await amy.listSessions()).map((s) => [s.id, s.title, s.entryCount]).sort()).toEqual([
        ["alpha/amy/old", "old title", 2],
        ["alpha/carl/old", "carl's", 1],
      ]);
    } finally {
      await db.close();
    }
  });
});
