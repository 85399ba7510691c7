/**
 * The archive's connection to PostgreSQL: one pool per process (the server keeps no state of its
 * own, so several processes can serve one database), and the schema brought up to date on open.
 * Migrations run in one transaction under an advisory lock, so servers starting together take
 * turns; a database written by a newer Bonsai is refused, nothing changed.
 */
import pg from "pg";
import { ArchiveError } from "./errors";
import { ARCHIVE_MIGRATIONS, ARCHIVE_SCHEMA_VERSION } from "./migrations";

/** an arbitrary constant: the advisory lock key of the archive's migrations */
const MIGRATION_LOCK = 0x626f6e73;

export interface ArchiveDatabase {
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

export interface OpenArchiveOptions {
  /** connections in the pool (default 10) */
  maxConnections?: number;
}

/** how long a request waits for one of the pool's connections before it fails (under load they queue: the slowest reads take seconds) */
export const CONNECTION_WAIT_MS = 30_000;

export async function openArchiveDatabase(url: string, options: OpenArchiveOptions = {}): Promise<ArchiveDatabase> {
  // JIT compiling costs tens of milliseconds per query and the archive's queries are short: off
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, connectionTimeoutMillis: CONNECTION_WAIT_MS, options: "-c jit=off" });
  // an idle connection that the server drops must not take the process down
  pool.on("error", () => {});
  try {
    await migrateArchive(pool);
  } catch (error) {
    await pool.end();
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError("unreachable", `cannot open the team archive database: ${describePgError(error)}`);
  }
  return { pool, close: () => pool.end() };
}

/** The schema version the database holds (0 for an empty database). */
export async function archiveSchemaVersion(client: pg.ClientBase): Promise<number> {
  await client.query("CREATE TABLE IF NOT EXISTS archive_schema (version INTEGER NOT NULL, migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())");
  const result = await client.query<{ version: number }>("SELECT max(version)::int AS version FROM archive_schema");
  return result.rows[0]?.version ?? 0;
}

async function migrateArchive(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    const current = await archiveSchemaVersion(client);
    if (current > ARCHIVE_SCHEMA_VERSION) {
      throw new ArchiveError(
        "schema-too-new",
        `the team archive's schema is version ${current}, newer than this Bonsai understands (${ARCHIVE_SCHEMA_VERSION}); upgrade Bonsai`,
      );
    }
    for (const migration of ARCHIVE_MIGRATIONS) {
      if (migration.version <= current) continue;
      await migration.up(client);
      await client.query("INSERT INTO archive_schema (version) VALUES ($1)", [migration.version]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** PostgreSQL's own sentence for an error, without the driver's stack. */
export function describePgError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    if (code === "ECONNREFUSED") return "connection refused";
    if (code === "ENOTFOUND") return "unknown host";
    return error.message.split("\n")[0] ?? String(error);
  }
  return String(error);
}
