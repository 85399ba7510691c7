/** Test support: temp dirs, real SQLite stores, the shared fixtures (read in place, never copied). */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { openStore, type SqliteSessionStore } from "../src/index";

const here = path.dirname(fileURLToPath(import.meta.url));
/** ../shared relative to the repository root */
export const SHARED = path.resolve(here, "../../../../shared");
export const FIXTURES = path.join(SHARED, "fixtures");
export const REAL_PI = path.join(FIXTURES, "real", "pi");
export const BEFORE_COMPACTION = path.join(FIXTURES, "before-compaction.jsonl");
export const LARGE_SESSION = path.join(FIXTURES, "large-session.jsonl");
export const HAVE_FIXTURES = fs.existsSync(BEFORE_COMPACTION) && fs.existsSync(LARGE_SESSION);
export const REAL_PI_FILES = fs.existsSync(REAL_PI)
  ? fs
      .readdirSync(REAL_PI)
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => path.join(REAL_PI, f))
  : [];
export const SKIP_FIXTURES = HAVE_FIXTURES ? "" : `shared fixtures not found at ${FIXTURES}: fixture tests skipped`;
export const SKIP_REAL = REAL_PI_FILES.length > 0 ? "" : `real pi sessions not found at ${REAL_PI}: real-file tests skipped`;
if (SKIP_FIXTURES) console.warn(SKIP_FIXTURES);
if (SKIP_REAL) console.warn(SKIP_REAL);

const dirs: string[] = [];
const stores: SqliteSessionStore[] = [];

export function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-store-"));
  dirs.push(d);
  return d;
}

export function newStore(dir = tempDir(), name = "bonsai.db"): SqliteSessionStore {
  const s = openStore({ path: path.join(dir, name) });
  stores.push(s);
  return s;
}

afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

export function sha256File(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Copies a file into `dir` (for tests that write: the shared data is never written). */
export function copyInto(dir: string, file: string, name = path.basename(file)): string {
  const dest = path.join(dir, name);
  fs.copyFileSync(file, dest);
  fs.chmodSync(dest, 0o644);
  return dest;
}

export function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

export const HEADER = { type: "session", version: 3, id: "sess-test-0001", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/tmp/project" };

export function userEntry(id: string, parentId: string | null, text: string, t = 0): Record<string, unknown> {
  return {
    type: "message",
    id,
    parentId,
    timestamp: new Date(Date.parse("2025-01-01T00:00:00.000Z") + t * 1000).toISOString(),
    message: { role: "user", content: text, timestamp: Date.parse("2025-01-01T00:00:00.000Z") + t * 1000 },
  };
}

export function toolResultEntry(id: string, parentId: string | null, toolName: string, text: string, t = 0): Record<string, unknown> {
  return {
    type: "message",
    id,
    parentId,
    timestamp: new Date(Date.parse("2025-01-01T00:00:00.000Z") + t * 1000).toISOString(),
    message: { role: "toolResult", toolCallId: `call-${id}`, toolName, content: [{ type: "text", text }], isError: false, timestamp: t },
  };
}

/** Waits until `pred` holds (polling every 20 ms) or fails after `ms`. */
export async function waitFor(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
