import pg from "pg";
import { describe, expect, it } from "vitest";
import { ARCHIVE_SCHEMA_VERSION } from "../src/migrations";
import { ArchiveError, openArchiveDatabase } from "../src";
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
