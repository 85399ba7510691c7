/**
 * Import results come from the store's typed failure (ImportFailure), not from its message: the
 * same reports with their message reworded (same meaning) give the same result. Real store, real
 * files.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUSY_TIMEOUT_MS, openDatabase, openStore, type ImportReport, type SqliteSessionStore } from "@bonsai/store";
import { failureReason, toImportResult } from "../src/import-results";

let dir: string;
let store: SqliteSessionStore | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** the reports a real store gives for these paths */
async function reportsFor(files: Record<string, string>, missing: string[] = []): Promise<ImportReport[]> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-import-results-"));
  store = openStore({ path: path.join(dir, "bonsai.db") });
  const paths = Object.entries(files).map(([name, text]) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  });
  return (await store.importPaths([...paths, ...missing.map((m) => path.join(dir, m))])).reports;
}

const reworded = (r: ImportReport): ImportReport => ({ ...r, message: "Import refused.", issues: r.issues.map((i) => ({ ...i, message: "Refused." })) });

describe("import results", () => {
  it("a file that is not a session: the store's reason, whatever the report's message says", async () => {
    const [report] = await reportsFor({ "notes.jsonl": '{"secret":"hunter2"}\n{"more":1}\n' });
    expect(report!.status).toBe("not-a-session");
    expect(report!.failure).toMatchObject({ kind: "not-a-session" });
    const result = toImportResult("notes.jsonl", report!, null);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^not a session file/);
    expect(result.error).not.toContain("hunter2");
    expect(toImportResult("notes.jsonl", reworded(report!), null).error).toBe(result.error);
  });

  it("a path that is not there: the system's code says so, whatever the report's message says", async () => {
    const [report] = await reportsFor({}, ["gone.jsonl"]);
    expect(report!.failure).toEqual({ kind: "unreadable", code: "ENOENT" });
    expect(failureReason(report!)).toBe("the file could not be read: no such file or folder");
    expect(failureReason(reworded(report!))).toBe("the file could not be read: no such file or folder");
  });

  it("another process holding the store's write lock past the busy timeout: nothing stored, the report says why in one line, and the next import works", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-import-results-"));
    const database = path.join(dir, "bonsai.db");
    store = openStore({ path: database });
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, `${JSON.stringify({ type: "session", version: 3, id: "busy-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" })}\n${JSON.stringify({ type: "message", id: "a1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } })}\n`);
    // a second connection of the same SQLite (as another Bonsai process holds one) takes the write lock
    const other = openDatabase({ path: database });
    other.exec("BEGIN IMMEDIATE");
    let report: ImportReport | undefined;
    try {
      [report] = (await store.importPaths([file])).reports;
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(report).toMatchObject({ status: "failed", entriesAdded: 0, reportId: 0, failure: { kind: "busy" } });
    expect(report!.message).toContain("another process kept the store's write lock");
    expect(toImportResult("s.jsonl", report!, null).error).toBe(`another Bonsai process was writing the store for more than ${BUSY_TIMEOUT_MS / 1000} seconds: nothing of this file was stored; import it again when that has finished`);
    expect(toImportResult("s.jsonl", reworded(report!), null).error).toBe(toImportResult("s.jsonl", report!, null).error);
    expect(store.listSessions()).toEqual([]);
    const [again] = (await store.importPaths([file])).reports;
    expect(again).toMatchObject({ status: "imported", entriesAdded: 1 });
  }, 30_000);

  it("a failure without a known system code gives the general reason, even when its message names one", async () => {
    const [report] = await reportsFor({}, ["gone.jsonl"]);
    const other: ImportReport = { ...report!, message: "EACCES: permission denied", failure: { kind: "other" } };
    expect(failureReason(other)).toBe("the file could not be imported as a session (run `bonsai import FILE` on the host for the details)");
  });
});
