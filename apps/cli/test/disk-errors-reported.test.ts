/**
 * A refusing disk reaches the user as its one sentence, never raw: the CLI's error reporter given the
 * real errors — SQLite's "database or disk is full" (a database held to its page limit) and the
 * kernel's ENOSPC (a write to /dev/full) — prints "bonsai: the disk is full; nothing was written"
 * and returns exit status 1.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { reportError } from "../src/errors";

function reported(err: unknown): { code: number; stderr: string } {
  let stderr = "";
  const code = reportError(err, { stderr: (t) => void (stderr += t) });
  return { code, stderr };
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

describe("the disk sentence for a refusing disk", () => {
  it("SQLite's SQLITE_FULL (database or disk is full)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-sqlite-full-"));
    const db = new Database(path.join(dir, "full.db"));
    try {
      db.exec("CREATE TABLE t (x BLOB)");
      db.pragma("max_page_count = 4");
      const err = thrown(() => db.prepare("INSERT INTO t VALUES (?)").run(Buffer.alloc(100_000)));
      expect((err as { code?: string }).code).toBe("SQLITE_FULL");
      expect(reported(err)).toEqual({ code: 1, stderr: "bonsai: the disk is full; nothing was written\n" });
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!fs.existsSync("/dev/full"))("the kernel's ENOSPC (a write to /dev/full)", () => {
    const err = thrown(() => fs.writeFileSync("/dev/full", "x"));
    expect((err as { code?: string }).code).toBe("ENOSPC");
    expect(reported(err)).toEqual({ code: 1, stderr: "bonsai: the disk is full; nothing was written\n" });
  });
});
