import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DatabaseOpenError, MIGRATIONS, NewerDatabaseError, SCHEMA_VERSION, migrate, openDatabase, openStore } from "../src/index";
import { newStore, sha256File, tempDir } from "./support";

describe("schema and migrations", () => {
  it("creates every table at the current version, in WAL mode", () => {
    const dir = tempDir();
    const store = newStore(dir);
    expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    const names = (store.db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name").pluck().all() as string[]).filter(
      (n) => !n.startsWith("entries_fts_"),
    );
    expect(names).toEqual(["entries", "entries_fts", "entry_json", "import_reports", "labels", "pruned_outputs", "sessions", "settings"]);
  });

  it("opens with an explicit native binding (how Electron passes its own build)", () => {
    const binding = createRequire(import.meta.url)
      .resolve("better-sqlite3/package.json")
      .replace(/package\.json$/, "build/Release/better_sqlite3.node");
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
    let error: unknown;
    try {
      openStore({ path: file });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(NewerDatabaseError);
    expect((error as Error).message).toContain(`schema ${SCHEMA_VERSION + 7}`);
    expect((error as Error).message).toContain("Update Bonsai");
    expect(sha256File(file)).toBe(before);
    expect(fs.readdirSync(dir).sort()).toEqual(listing); // no -wal / -shm created either
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
