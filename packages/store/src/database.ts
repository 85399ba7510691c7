/**
 * Opening the SQLite file: refuse a database written by a newer Bonsai (without touching it),
 * apply pending migrations in one transaction, and set WAL mode.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from "./migrations/index";

export interface OpenDatabaseOptions {
  /** file path, or ":memory:" */
  path: string;
  /** path of a better_sqlite3.node built for the host (Electron passes its own build) */
  nativeBinding?: string;
  /** open without writing anything: no migrations, no WAL switch (read-only) */
  readonly?: boolean;
}

/** Thrown when the file's schema is newer than this build knows: the file is left untouched. */
export class NewerDatabaseError extends Error {
  constructor(
    readonly file: string,
    readonly fileVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      `${file} was written by a newer Bonsai (database schema ${fileVersion}; this version understands up to ${supportedVersion}). ` +
        "Update Bonsai to open it; the file was not modified.",
    );
    this.name = "NewerDatabaseError";
  }
}

/** Thrown when the file is not a SQLite database or cannot be opened. */
export class DatabaseOpenError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`cannot open the Bonsai database ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "DatabaseOpenError";
  }
}

function readUserVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

function refuseNewer(file: string, version: number): void {
  if (version > SCHEMA_VERSION) throw new NewerDatabaseError(file, version, SCHEMA_VERSION);
}

/** SQLite's file header: its magic string; the read and write versions are 2 in WAL mode */
const SQLITE_MAGIC = "SQLite format 3\0";
const HEADER_BYTES = 100;

/**
 * The user_version in the file's header when the header says WAL mode (both format versions 2),
 * else null (not a SQLite file, too short, a rollback-journal file, unreadable).
 */
function walModeHeaderVersion(file: string): number | null {
  const header = Buffer.alloc(HEADER_BYTES);
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return null;
  }
  try {
    if (fs.readSync(fd, header, 0, HEADER_BYTES, 0) < HEADER_BYTES) return null;
  } finally {
    fs.closeSync(fd);
  }
  if (header.toString("latin1", 0, 16) !== SQLITE_MAGIC || header[18] !== 2 || header[19] !== 2) return null;
  return header.readUInt32BE(60);
}

/** Applies every migration above the file's version in one transaction (all or nothing). */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  const target = migrations[migrations.length - 1]?.version ?? 0;
  if (readUserVersion(db) >= target) {
    const current = readUserVersion(db);
    return { from: current, to: current };
  }
  // the version is read again inside the write transaction: two first runs on a fresh data folder
  // take turns here (the second waits on the busy timeout), and the second finds the work done
  return db
    .transaction(() => {
      const from = readUserVersion(db);
      for (const m of migrations.filter((step) => step.version > from)) {
        m.up(db);
        db.pragma(`user_version = ${m.version}`);
      }
      return { from, to: Math.max(from, target) };
    })
    .immediate();
}

/** how long a write waits for another connection's write to end */
export const BUSY_TIMEOUT_MS = 5000;

/** whether `err` is SQLite's "database is locked": another connection held the write lock past the busy timeout */
export function isDatabaseBusy(err: unknown): boolean {
  return String((err as { code?: unknown } | null | undefined)?.code ?? "").startsWith("SQLITE_BUSY");
}

/**
 * Runs a write that can wait: if another connection holds the write lock (SQLITE_BUSY at once,
 * no busy wait), undefined — the caller tries again later (or not at all) instead of blocking its
 * thread. The connection's busy timeout is BUSY_TIMEOUT_MS again afterwards.
 */
export function withoutWaiting<T>(db: Database.Database, write: () => T): T | undefined {
  db.pragma("busy_timeout = 0");
  try {
    return write();
  } catch (err) {
    if (isDatabaseBusy(err)) return undefined;
    throw err;
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}
/** page size of new databases (SQLite's largest) */
export const PAGE_SIZE = 65536;
/** WAL size (bytes, counted in pages of the file's size) at which a commit checkpoints it */
const AUTOCHECKPOINT_BYTES = 256 * 1024 * 1024;
/** how much of the database file reads map into memory */
const MMAP_BYTES = 1024 * 1024 * 1024;

export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  const file = options.path;
  const memory = file === ":memory:";
  if (!memory) {
    const dir = path.dirname(path.resolve(file));
    if (!options.readonly) fs.mkdirSync(dir, { recursive: true });
  }
  let db: Database.Database;
  // A newer database must not be modified at all, not even by the WAL switch or a hot-journal
  // rollback: its version is read before anything can write. A file in WAL mode by its header
  // has no rollback journal to roll back and needs no switch, so its version is read on the
  // connection itself, before any write (the WAL may hold a newer one than the header); any other
  // file is opened read-only first to read it.
  let checkOnConnection = false;
  try {
    if (!memory && fs.existsSync(file)) {
      const header = walModeHeaderVersion(file);
      checkOnConnection = header !== null && header <= SCHEMA_VERSION;
      if (!checkOnConnection) {
        const probe = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: options.nativeBinding });
        try {
          refuseNewer(file, readUserVersion(probe));
        } finally {
          probe.close();
        }
      }
    }
    db = new Database(file, { readonly: options.readonly ?? false, nativeBinding: options.nativeBinding });
  } catch (err) {
    if (err instanceof NewerDatabaseError) throw err;
    throw new DatabaseOpenError(file, err);
  }
  try {
    if (checkOnConnection) refuseNewer(file, readUserVersion(db));
    if (!options.readonly) {
      // a new database gets 64 KiB pages (SQLite's default is 4 KiB): an import is mostly entry JSON
      // written through B-tree pages into the WAL and then into the file, and bigger pages mean fewer
      // page writes, balances, frame headers and checksums (4 KiB -> 16 KiB cost about a third less
      // CPU, 16 KiB -> 64 KiB about a tenth less of the SQLite part; docs/PERFORMANCE.md); the page
      // size of an existing file cannot change in WAL mode and stays as it is
      // the busy timeout before the first read: another first run may hold the fresh file's lock
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      const fresh = db.pragma("page_count", { simple: true }) === 0;
      if (fresh) db.pragma(`page_size = ${PAGE_SIZE}`);
      const pageSize = fresh ? PAGE_SIZE : (db.pragma("page_size", { simple: true }) as number);
      // the connection's settings in one statement list (each pragma call would prepare its own)
      // the busy timeout first: the WAL switch of a fresh file waits for another first run's
      const settings = [
        `busy_timeout = ${BUSY_TIMEOUT_MS}`,
        ...(memory ? [] : ["journal_mode = WAL"]),
        "synchronous = NORMAL",
        "foreign_keys = ON",
        // reads map the file instead of copying each page they touch (a read command in a fresh
        // process touches pages scattered over the file: about half the CPU of reading them)
        ...(memory ? [] : [`mmap_size = ${MMAP_BYTES}`]),
        // big imports are single transactions: keep their pages in memory instead of spilling early
        "cache_size = -65536",
        // checkpoints run in the background after writes (SqliteSessionStore), not inside an import's commit
        ...(memory ? [] : [`wal_autocheckpoint = ${Math.ceil(AUTOCHECKPOINT_BYTES / pageSize)}`]),
      ];
      db.exec(settings.map((setting) => `PRAGMA ${setting};`).join(" "));
      migrate(db);
    } else if (readUserVersion(db) !== SCHEMA_VERSION) {
      throw new Error(`the database schema is ${readUserVersion(db)}, expected ${SCHEMA_VERSION}; open it writable once to migrate`);
    }
    return db;
  } catch (err) {
    db.close();
    throw err instanceof NewerDatabaseError ? err : new DatabaseOpenError(file, err);
  }
}

/**
 * A connection for reading a database this build has already migrated, opened with no more than
 * that needs (no read-only probe, no WAL switch, no migration step): what a short-lived read
 * command wants. Null when the schema is not this build's (the caller opens it with openDatabase,
 * which migrates it or refuses a newer one). `query_only`: it cannot write by mistake.
 */
export function openCurrentDatabase(options: Omit<OpenDatabaseOptions, "readonly">): Database.Database | null {
  let db: Database.Database;
  try {
    db = new Database(options.path, { fileMustExist: true, nativeBinding: options.nativeBinding });
  } catch (err) {
    throw new DatabaseOpenError(options.path, err);
  }
  try {
    if (readUserVersion(db) !== SCHEMA_VERSION) {
      db.close();
      return null;
    }
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    db.pragma("query_only = 1");
    return db;
  } catch (err) {
    db.close();
    throw new DatabaseOpenError(options.path, err);
  }
}
