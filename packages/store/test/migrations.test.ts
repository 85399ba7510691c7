import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DatabaseOpenError, MIGRATIONS, NewerDatabaseError, SCHEMA_VERSION, migrate, openDatabase, openStore } from "../src/index";
import { byId, lastFirst } from "../src/id-tiers";
import { SETTINGS_INDEX, SETTINGS_ROWS } from "../src/migrations/014-settings-rows";
import { installedAddonPath } from "../src/native-addon";
import { newStore, sha256File, tempDir } from "./support";


/** What opening the store on `file` throws (undefined when it opens; it is closed then). */
function openingError(file: string): unknown {
  try {
    openStore({ path: file }).close();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe("schema and migrations", () => {
  it("creates every table at the current version, in WAL mode", () => {
    const dir = tempDir();
    const store = newStore(dir);
    expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    const names = (store.db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name").pluck().all() as string[]).filter(
      (n) => !n.startsWith("entries_fts_") && !n.startsWith("entries_trigram_"),
    );
    expect(names).toEqual(["entries", "entries_fts", "entries_trigram", "entry_json", "git_checkpoint_sessions", "git_checkpoints", "git_commit_checkpoints", "git_commits", "git_repos", "import_reports", "labels", "line_repairs", "pruned_outputs", "session_agents", "session_locks", "session_titles", "sessions", "settings", "skeleton_cache", "source_backups", "source_intents", "trigram_backfill", "undo_history"]);
  });

  it("opens with an explicit native binding (how Electron passes its own build)", () => {
    const binding = installedAddonPath(import.meta.url);
    expect(fs.existsSync(binding)).toBe(true);
    const store = openStore({ path: path.join(tempDir(), "native.db"), nativeBinding: binding });
    expect(store.listSessions()).toEqual([]);
    store.close();
    expect(() => openStore({ path: path.join(tempDir(), "bad.db"), nativeBinding: "/nonexistent/better_sqlite3.node" })).toThrow(DatabaseOpenError);
  });

  it("reopening a current database changes nothing", () => {
    const dir = tempDir();
    const file = path.join(dir, "b.db");
    openStore({ path: file }).close();
    const again = openStore({ path: file });
    expect(again.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    again.close();
  });

  it("migrations have increasing versions, one file each", () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../src/migrations");
    const files = fs.readdirSync(dir).filter((f) => /^\d{3}-.+\.ts$/.test(f));
    expect(files.length).toBe(MIGRATIONS.length);
  });

  it("refuses a database written by a newer Bonsai and leaves its bytes unchanged", () => {
    const dir = tempDir();
    const file = path.join(dir, "newer.db");
    const raw = new Database(file);
    raw.exec("CREATE TABLE future (x)");
    raw.pragma(`user_version = ${SCHEMA_VERSION + 7}`);
    raw.close();
    const before = sha256File(file);
    const listing = fs.readdirSync(dir).sort();
    const error = openingError(file);
    expect(error).toBeInstanceOf(NewerDatabaseError);
    expect((error as Error).message).toContain(`schema ${SCHEMA_VERSION + 7}`);
    expect((error as Error).message).toContain("Update Bonsai");
    expect(sha256File(file)).toBe(before);
    expect(fs.readdirSync(dir).sort()).toEqual(listing); // no -wal / -shm created either
  });

  it("refuses a WAL database whose newer version is only in its WAL (the header is older), and changes neither file", () => {
    const dir = tempDir();
    const file = path.join(dir, "newer-wal.db");
    openStore({ path: file }).close(); // this build's schema, WAL mode, checkpointed
    // a newer Bonsai still running: its migration is committed to the WAL, not yet checkpointed
    const newer = new Database(file);
    newer.pragma("wal_autocheckpoint = 0");
    newer.exec("CREATE TABLE future (x)");
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    const header = fs.readFileSync(file).subarray(0, 100);
    expect([header[18], header[19], header.readUInt32BE(60)]).toEqual([2, 2, SCHEMA_VERSION]);
    const before = [sha256File(file), sha256File(`${file}-wal`)];
    const error = openingError(file);
    expect(error).toBeInstanceOf(NewerDatabaseError);
    expect((error as Error).message).toContain(`schema ${SCHEMA_VERSION + 1}`);
    expect([sha256File(file), sha256File(`${file}-wal`)]).toEqual(before);
    newer.close();
  });

  it("opens a database left in rollback-journal mode (read-only check first) and switches it back to WAL", () => {
    const dir = tempDir();
    const wal = path.join(dir, "wal.db");
    openStore({ path: wal }).close();
    const rollback = path.join(dir, "rollback.db");
    openStore({ path: rollback }).close();
    const raw = new Database(rollback);
    raw.pragma("journal_mode = DELETE");
    raw.close();
    expect(fs.readFileSync(rollback)[18]).toBe(1);
    for (const file of [wal, rollback]) {
      const store = openStore({ path: file });
      expect(store.listSessions()).toEqual([]);
      store.close();
      expect(fs.readFileSync(file)[18]).toBe(2); // WAL mode again
    }
  });

  it("applies pending migrations in one transaction: a failing step leaves the file as it was", () => {
    const dir = tempDir();
    const file = path.join(dir, "m.db");
    const db = new Database(file);
    const steps = [
      { version: 1, name: "one", up: (d: Database.Database) => d.exec("CREATE TABLE one (x)") },
      {
        version: 2,
        name: "broken",
        up: (d: Database.Database) => {
          d.exec("CREATE TABLE two (x)");
          throw new Error("step 2 failed");
        },
      },
    ];
    expect(() => migrate(db, steps)).toThrow("step 2 failed");
    expect(db.pragma("user_version", { simple: true })).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name IN ('one', 'two')").pluck().get()).toBe(0);
    expect(migrate(db, steps.slice(0, 1))).toEqual({ from: 0, to: 1 });
    expect(migrate(db, steps.slice(0, 1))).toEqual({ from: 1, to: 1 });
    db.close();
  });

  it("migration 2 converts a database of an early schema-1 layout (JSON inside entries) without losing entries", () => {
    const dir = tempDir();
    const file = path.join(dir, "early.db");
    const raw = new Database(file);
    raw.exec(`
      CREATE TABLE sessions (id TEXT PRIMARY KEY, header_id TEXT NOT NULL, title TEXT, cwd TEXT NOT NULL DEFAULT '', header_json TEXT NOT NULL,
        source_path TEXT UNIQUE, source_format TEXT NOT NULL, source_version INTEGER NOT NULL, leaf_id TEXT, created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL, imported_at TEXT, entry_count INTEGER NOT NULL DEFAULT 0, message_count INTEGER NOT NULL DEFAULT 0,
        first_message TEXT NOT NULL DEFAULT '', file_size INTEGER, file_offset INTEGER, file_lines INTEGER, file_mtime_ms REAL,
        head_hash TEXT, tail_hash TEXT, generation INTEGER NOT NULL DEFAULT 1);
      CREATE TABLE entries (pk INTEGER PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
        line INTEGER, id TEXT NOT NULL, parent_id TEXT, parent_seq INTEGER, type TEXT NOT NULL, timestamp TEXT NOT NULL DEFAULT '',
        json TEXT NOT NULL, role TEXT, tokens INTEGER NOT NULL DEFAULT 0, preview TEXT NOT NULL DEFAULT '', tool_name TEXT,
        custom_type TEXT, stop_reason TEXT, ref_id TEXT, tokens_before INTEGER, flags INTEGER NOT NULL DEFAULT 0, UNIQUE (session_id, seq));
      CREATE INDEX entries_by_id ON entries(session_id, id);
      CREATE TABLE labels (session_id TEXT NOT NULL, target_id TEXT NOT NULL, label TEXT, entry_seq INTEGER NOT NULL, PRIMARY KEY (session_id, target_id)) WITHOUT ROWID;
      CREATE TABLE pruned_outputs (session_id TEXT NOT NULL, entry_id TEXT NOT NULL, original_json TEXT NOT NULL, pruned_json TEXT NOT NULL,
        pruned_at INTEGER NOT NULL, PRIMARY KEY (session_id, entry_id)) WITHOUT ROWID;
      CREATE TABLE import_reports (id INTEGER PRIMARY KEY, source_path TEXT NOT NULL, session_id TEXT, status TEXT NOT NULL, started_at TEXT NOT NULL,
        bytes_read INTEGER NOT NULL DEFAULT 0, entries_added INTEGER NOT NULL DEFAULT 0, issues_json TEXT NOT NULL DEFAULT '[]', message TEXT);
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE VIRTUAL TABLE entries_fts USING fts5(body, tools, paths, tokenize = 'unicode61 remove_diacritics 2');
      INSERT INTO sessions (id, header_id, header_json, source_format, source_version, leaf_id, created_at, updated_at, entry_count)
        VALUES ('s1', 's1', '{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}', 'bonsai', 3, 'b', '2025', '2025', 2);
    `);
    const a = { type: "message", id: "a", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "remember the walrus", timestamp: 1 } };
    const b = { type: "thinking_level_change", id: "b", parentId: "a", timestamp: "2025-01-01T00:00:02.000Z", thinkingLevel: "high" };
    const insert = raw.prepare("INSERT INTO entries (session_id, seq, id, parent_id, parent_seq, type, timestamp, json, role) VALUES ('s1', ?, ?, ?, ?, ?, ?, ?, ?)");
    insert.run(0, "a", null, null, "message", a.timestamp, JSON.stringify(a), "user");
    insert.run(1, "b", "a", 0, "thinking_level_change", b.timestamp, JSON.stringify(b), null);
    raw.pragma("user_version = 1");
    raw.close();

    const store = openStore({ path: file });
    expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.loadEntries("s1")).toEqual([a, b]);
    expect(store.getSkeleton("s1").nodes.map((n) => n.id)).toEqual(["a", "b"]);
    expect(store.getContextEntries("s1").map((e) => e.id)).toEqual(["a", "b"]);
    expect(store.search("walrus").map((h) => h.entryId)).toEqual(["a"]);
    expect(store.appendEntry("s1", { type: "label", targetId: "a", label: "x" }).parentId).toBe("b");
    store.close();
  });

  it("migration 7 gives sessions stored before it their agent and compaction count", async () => {
    const dir = tempDir();
    const file = path.join(dir, "b.db");
    const store = openStore({ path: file });
    const omp = path.join(dir, ".omp", "agent", "sessions", "s.jsonl");
    fs.mkdirSync(path.dirname(omp), { recursive: true });
    const header = { type: "session", version: 3, id: "s-omp", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
    const compaction = { type: "compaction", id: "c", parentId: "a", timestamp: "2025-01-01T00:00:02.000Z", summary: "s", firstKeptEntryId: "a", tokensBefore: 10 };
    const user = { type: "message", id: "a", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "q", timestamp: 1 } };
    fs.writeFileSync(omp, [header, user, compaction].map((v) => `${JSON.stringify(v)}\n`).join(""));
    const titled = path.join(dir, "t.jsonl");
    fs.writeFileSync(titled, [{ ...header, id: "s-titled", title: "a title" }, user].map((v) => `${JSON.stringify(v)}\n`).join(""));
    const plain = path.join(dir, "p.jsonl");
    fs.writeFileSync(plain, [{ ...header, id: "s-pi" }, user].map((v) => `${JSON.stringify(v)}\n`).join(""));
    for (const f of [omp, titled, plain]) await store.importFile(f);
    // the database as a build before migration 7 left it
    store.db.exec("DROP TABLE session_agents");
    store.db.pragma("user_version = 6");
    store.close();

    const again = openStore({ path: file });
    const agents = Object.fromEntries(again.listSessions().map((s) => [s.id, [s.agent, s.compactionCount]]));
    expect(agents).toEqual({ "s-omp": ["omp", 1], "s-titled": ["omp", 0], "s-pi": ["pi", 0] });
    again.close();
  });

  it("a database left at version 7 (the release before session titles) gains session_titles and keeps its sessions", async () => {
    const dir = tempDir();
    const file = path.join(dir, "c.db");
    const store = openStore({ path: file });
    const session = path.join(dir, "s.jsonl");
    const header = { type: "session", version: 3, id: "s-7", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
    const user = { type: "message", id: "a", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "q", timestamp: 1 } };
    fs.writeFileSync(session, [header, user].map((v) => `${JSON.stringify(v)}\n`).join(""));
    await store.importFile(session);
    store.db.exec("DROP TABLE session_titles");
    store.db.pragma("user_version = 7");
    store.close();

    const again = openStore({ path: file });
    expect(again.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    again.setSessionTitle("s-7", "renamed in Bonsai");
    expect(again.listSessions().map((s) => s.id)).toEqual(["s-7"]);
    again.close();
  });

  it("migration 9 gives a database of schema 8 the id index with seq, the run shortcuts and the new flag bits", async () => {
    const dir = tempDir();
    const file = path.join(dir, "v8.db");
    const session = path.join(dir, "s.jsonl");
    const header = { type: "session", version: 3, id: "s4", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
    const entries = [
      { type: "message", id: "a", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } },
      { type: "message", id: "b", parentId: "a", timestamp: "2025-01-01T00:00:02.000Z", message: { role: "bashExecution", command: "ls", output: "x", excludeFromContext: true, timestamp: 2 } },
      { type: "message", id: "c", parentId: "b", timestamp: "2025-01-01T00:00:03.000Z", message: "not an object" },
      { type: "branch_summary", id: "d", parentId: "a", timestamp: "2025-01-01T00:00:04.000Z", fromId: "c", summary: "" },
      { type: "message", id: "e", parentId: "d", timestamp: "2025-01-01T00:00:05.000Z", message: { role: "user", content: "again", timestamp: 5 } },
      { type: "model_change", id: "f", parentId: "e", timestamp: "2025-01-01T00:00:06.000Z", model: "p/m" },
      { type: "thinking_level_change", id: "g", parentId: "f", timestamp: "2025-01-01T00:00:07.000Z", thinkingLevel: "high" },
      { type: "message", id: "h", parentId: "c", timestamp: "2025-01-01T00:00:08.000Z", message: { role: "user", content: "on c", timestamp: 8 } },
    ];
    fs.writeFileSync(session, [header, ...entries].map((e) => JSON.stringify(e)).join("\n") + "\n");
    // a database as schema 8 wrote it: the old id index, no run_seq, no new flag bits
    const current = openStore({ path: file });
    await current.importFile(session);
    current.close();
    const raw = new Database(file);
    raw.exec(`
      DROP INDEX entries_by_id_tier;
      ALTER TABLE entries DROP COLUMN id_tier;
      CREATE INDEX entries_by_id ON entries(session_id, id);
      DROP INDEX entries_path;
      CREATE INDEX entries_path ON entries(session_id, seq, parent_seq, type, role);
      ALTER TABLE entries DROP COLUMN run_seq;
      ALTER TABLE entries DROP COLUMN model_seq;
      ALTER TABLE entries DROP COLUMN thinking_seq;
      UPDATE entries SET flags = flags & 15;
    `);
    raw.pragma("user_version = 8");
    raw.close();

    const store = openStore({ path: file });
    expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    const indexes = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries'").pluck().all();
    expect(indexes).toContain("entries_by_id_tier");
    expect(indexes).not.toContain("entries_by_id");
    expect(indexes).not.toContain("entries_by_id_seq");
    const columns = "SELECT id, run_seq, flags, model_seq, thinking_seq FROM entries WHERE session_id = ? ORDER BY seq";
    const rows = store.db.prepare(columns).raw().all("s4");
    // runs: a-b-c are one run; d hangs off a (a new run), e-f-g continue d; h hangs off c
    expect(rows).toEqual([
      ["a", 0, 0, null, null],
      ["b", 0, 32, null, null],
      ["c", 0, 16, null, null],
      ["d", 3, 64, null, null],
      ["e", 3, 0, null, null],
      ["f", 3, 0, 5, null],
      ["g", 3, 0, 5, 6],
      ["h", 7, 0, null, null],
    ]);
    // the same as a fresh import writes
    const fresh = newStore(dir, "fresh.db");
    const id = (await fresh.importFile(session)).sessionId as string;
    expect(fresh.db.prepare(columns).raw().all(id)).toEqual(rows);
    store.close();
  });

  it("migration 11 gives a database of schema 10 the assistant messages' file operations and the settings index", async () => {
    const dir = tempDir();
    const file = path.join(dir, "v10.db");
    const session = path.join(dir, "s.jsonl");
    const at = (n: number): string => `2025-01-01T00:00:0${n}.000Z`;
    const call = (name: string, args: unknown) => ({ type: "toolCall", id: name, name, arguments: args });
    const entries = [
      { type: "message", id: "a", parentId: null, timestamp: at(1), message: { role: "user", content: "hi", timestamp: 1 } },
      {
        type: "message",
        id: "b",
        parentId: "a",
        timestamp: at(2),
        message: { role: "assistant", content: [call("read", { path: "/r" }), call("edit", { path: "/e" }), call("write", { path: "/w" }), call("bash", { command: "ls" }), call("read", { path: "" })], provider: "p", model: "m", timestamp: 2 },
      },
      { type: "message", id: "c", parentId: "b", timestamp: at(3), message: { role: "assistant", content: [call("grep", { path: "/g" })], provider: "p", model: "m", timestamp: 3 } },
      { type: "model_change", id: "d", parentId: "c", timestamp: at(4), model: "p/m" },
    ];
    const header = { type: "session", version: 3, id: "s11", timestamp: at(0), cwd: "/p" };
    fs.writeFileSync(session, [header, ...entries].map((e) => JSON.stringify(e)).join("\n") + "\n");
    const current = openStore({ path: file });
    await current.importFile(session);
    current.close();
    // a database as schema 10 wrote it: no file_ops column, no entries_file_ops / entries_settings
    const raw = new Database(file);
    raw.exec("DROP INDEX entries_file_ops; DROP INDEX entries_settings; ALTER TABLE entries DROP COLUMN file_ops;");
    raw.pragma("user_version = 10");
    raw.close();

    const store = openStore({ path: file });
    expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    const indexes = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries'").pluck().all();
    expect(indexes).toEqual(expect.arrayContaining(["entries_file_ops", "entries_settings"]));
    const columns = "SELECT id, file_ops FROM entries WHERE session_id = ? ORDER BY seq";
    const rows = store.db.prepare(columns).raw().all("s11");
    expect(rows).toEqual([
      ["a", null],
      ["b", JSON.stringify(["r/r", "e/e", "w/w"])],
      ["c", null],
      ["d", null],
    ]);
    // the same as a fresh import writes
    const fresh = newStore(dir, "fresh.db");
    const id = (await fresh.importFile(session)).sessionId as string;
    expect(fresh.db.prepare(columns).raw().all(id)).toEqual(rows);
    store.close();
    fresh.close();
  });

  it("migration 14 writes the settings index's condition without an IN list: the same rows, and a row written opens no temporary B-tree", async () => {
    const dir = tempDir();
    const file = path.join(dir, "v13.db");
    const session = path.join(dir, "s.jsonl");
    const at = (n: number): string => `2025-01-01T00:00:0${n}.000Z`;
    const entries = [
      { type: "message", id: "a", parentId: null, timestamp: at(1), message: { role: "user", content: "hi", timestamp: 1 } },
      { type: "model_change", id: "b", parentId: "a", timestamp: at(2), provider: "p", modelId: "m" },
      { type: "thinking_level_change", id: "c", parentId: "b", timestamp: at(3), thinkingLevel: "high" },
      { type: "message", id: "d", parentId: "c", timestamp: at(4), message: { role: "user", content: "more", timestamp: 4 } },
    ];
    fs.writeFileSync(session, [{ type: "session", version: 3, id: "s14", timestamp: at(0), cwd: "/p" }, ...entries].map((e) => JSON.stringify(e)).join("\n") + "\n");
    const current = openStore({ path: file });
    await current.importFile(session);
    current.close();
    // a database as schema 13 wrote it: the index of migration 11
    const raw = new Database(file);
    raw.exec("DROP INDEX entries_settings; CREATE INDEX entries_settings ON entries(session_id, type, seq) WHERE type IN ('thinking_level_change', 'model_change', 'mode_change', 'ttsr_injection');");
    raw.pragma("user_version = 13");
    const opcodes = (db: Database.Database): string[] =>
      (db.prepare("EXPLAIN INSERT INTO entries (session_id, seq, id, type) VALUES (?, ?, ?, ?)").all("s14", 9, "x", "model_change") as { opcode: string }[]).map((r) => r.opcode);
    expect(opcodes(raw)).toContain("OpenEphemeral");
    raw.close();

    const store = openStore({ path: file });
    expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'entries_settings'").pluck().get()).toBe(SETTINGS_INDEX);
    expect(opcodes(store.db)).not.toContain("OpenEphemeral");
    const rows = store.db.prepare(`SELECT id FROM entries INDEXED BY entries_settings WHERE session_id = ? AND ${SETTINGS_ROWS} ORDER BY seq`).pluck().all("s14");
    expect(rows).toEqual(["b", "c"]);
    expect(store.db.pragma("integrity_check", { simple: true })).toBe("ok");
    store.close();
    // a new database has it too
    const fresh = newStore(dir, "fresh.db");
    expect(fresh.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'entries_settings'").pluck().get()).toBe(SETTINGS_INDEX);
    fresh.close();
  });

  it("every connection setting holds on a new database and on one opened again", () => {
    const dir = tempDir();
    for (const _ of [1, 2]) {
      const db = openDatabase({ path: path.join(dir, "settings.db") });
      const get = (name: string): unknown => db.pragma(name, { simple: true });
      expect([get("journal_mode"), get("synchronous"), get("foreign_keys"), get("busy_timeout"), get("mmap_size"), get("cache_size"), get("wal_autocheckpoint")]).toEqual([
        "wal",
        1,
        1,
        5000,
        1024 * 1024 * 1024,
        -65536,
        4096,
      ]);
      db.close();
    }
  });

  it("a new database has 64 KiB pages (checkpointed at 256 MiB of WAL); the last entry with an id is one index seek", () => {
    const store = newStore();
    expect(store.db.pragma("page_size", { simple: true })).toBe(65536);
    expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(4096);
    const plan = store.db.prepare(`EXPLAIN QUERY PLAN SELECT seq FROM entries WHERE ${byId()} ORDER BY ${lastFirst()} LIMIT 1`).all("s", "x") as { detail: string }[];
    expect(plan.map((p) => p.detail).join("; ")).toMatch(/USING COVERING INDEX entries_by_id_tier/);
    expect(plan.map((p) => p.detail).join("; ")).not.toMatch(/TEMP B-TREE/);
  });

  it("a file that is not a database gets a clear error and is not modified", () => {
    const dir = tempDir();
    const file = path.join(dir, "notes.db");
    fs.writeFileSync(file, "this is not sqlite, just text that happens to be long enough to look like a header".repeat(20));
    const before = sha256File(file);
    expect(() => openDatabase({ path: file })).toThrow(DatabaseOpenError);
    expect(() => openDatabase({ path: file })).toThrow(/cannot open the Bonsai database/);
    expect(sha256File(file)).toBe(before);
  });
});
