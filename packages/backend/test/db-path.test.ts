import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { backendDbPath, createBackend, type Backend } from "../src/index";

const dirs: string[] = [];
let backend: Backend | null = null;
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-dbpath-"));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  await backend?.close();
  backend = null;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("the backend's database path", () => {
  it("BONSAI_DB overrides <dataDir>/bonsai.db, as in the CLI", async () => {
    const dataDir = tempDir();
    const db = path.join(tempDir(), "nested", "shared.db");
    backend = createBackend({ dataDir, env: { BONSAI_DB: db } });
    expect(backend.dbPath).toBe(db);
    const s = backend.store.createSession({ cwd: "/p", title: "in BONSAI_DB" });
    await backend.close();
    backend = null;
    expect(fs.existsSync(db)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "bonsai.db"))).toBe(false);
    // the same database is found again through the variable
    backend = createBackend({ dataDir: tempDir(), env: { BONSAI_DB: db } });
    expect(backend.store.getSession(s.id)?.title).toBe("in BONSAI_DB");
  });

  it("without BONSAI_DB (or with it empty) the data folder's bonsai.db; an explicit dbPath wins", () => {
    const dataDir = tempDir();
    expect(backendDbPath(dataDir, {})).toBe(path.join(dataDir, "bonsai.db"));
    expect(backendDbPath(dataDir, { BONSAI_DB: "  " })).toBe(path.join(dataDir, "bonsai.db"));
    const explicit = path.join(tempDir(), "explicit.db");
    backend = createBackend({ dataDir, dbPath: explicit, env: { BONSAI_DB: path.join(tempDir(), "ignored.db") } });
    expect(backend.dbPath).toBe(explicit);
    expect(fs.existsSync(explicit)).toBe(true);
  });

  it("BONSAI_NO_WRITE_THROUGH=1 in the backend's env keeps source files untouched", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    const text = `${JSON.stringify({ type: "session", version: 3, id: "s-nowt", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" })}\n`;
    fs.writeFileSync(file, text);
    backend = createBackend({ dataDir: tempDir(), env: { BONSAI_NO_WRITE_THROUGH: "1" } });
    const id = (await backend.store.importFile(file)).sessionId as string;
    backend.store.appendEntry(id, { type: "mode_change", mode: "plan" });
    expect(fs.readFileSync(file, "utf8")).toBe(text);
    expect(backend.store.getSession(id)?.detached).toMatch(/write-through is turned off/);
  });
});
