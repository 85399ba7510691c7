import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore, type SqliteSessionStore } from "@bonsai/store";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addPerson, ARCHIVE_SCHEMA_VERSION, ArchiveClient, ArchiveError, grant, pushSession, revokeTokens, storePushSource, type ArchiveDatabase } from "../src";
import { startTwoPeopleArchive, usePostgres, type TwoPeopleArchive } from "./archive-server";

const REAL_PI = path.resolve(__dirname, "../../../../shared/fixtures/real/pi");
const PI_FILES = fs.existsSync(REAL_PI) ? fs.readdirSync(REAL_PI).filter((f) => f.endsWith(".jsonl")).sort() : [];

const server = usePostgres();
let db: ArchiveDatabase;
let url: string;
let adaToken: string;
let bobToken: string;
const logLines: string[] = [];

let archive: TwoPeopleArchive;
beforeAll(async () => {
  archive = await startTwoPeopleArchive(server.freshDatabase(), (line) => logLines.push(line));
  ({ db, url, adaToken, bobToken } = archive);
});
afterAll(() => archive.stop());

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

function localStore(): { store: SqliteSessionStore; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-push-"));
  const store = openStore({ path: path.join(dir, "bonsai.db") });
  cleanup.push(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { store, dir };
}

async function entriesInArchive(sessionId: string): Promise<{ seq: number; entry_id: string }[]> {
  return (await db.pool.query<{ seq: number; entry_id: string }>("SELECT e.seq, e.entry_id FROM entries e JOIN sessions s ON s.id = e.session_pk WHERE s.session_id = $1 ORDER BY e.seq", [sessionId])).rows;
}

describe.skipIf(PI_FILES.length === 0)("bonsai push", () => {
  it("sends a real pi session once, and a second push sends nothing", async () => {
    const { store } = localStore();
    const report = await store.importFile(path.join(REAL_PI, PI_FILES[0] as string));
    const sessionId = report.sessionId as string;
    const stored = store.loadEntries(sessionId);
    const client = new ArchiveClient(url, adaToken);
    const first = await pushSession(storePushSource(store), sessionId, { client, project: "alpha", batchBytes: 16 * 1024 });
    expect(first).toMatchObject({ had: 0, sent: stored.length, added: stored.length });
    const rows = await entriesInArchive(sessionId);
    expect(rows.map((r) => r.entry_id)).toEqual(stored.map((e) => e.id));
    const second = await pushSession(storePushSource(store), sessionId, { client, project: "alpha" });
    expect(second).toMatchObject({ had: stored.length, sent: 0, added: 0 });
    expect(await entriesInArchive(sessionId)).toEqual(rows);
    expect(logLines.some((line) => / POST \/api\/push\/batch 200 [\d.]+ms ada$/.test(line))).toBe(true);
    expect(logLines.join("\n")).not.toContain(stored[1]?.id ?? "never");
  });

  it("sends the title rule's title: an unnamed pi session is stored in the archive under its first prompt, as the local list names it", async () => {
    const { store } = localStore();
    const fixture = PI_FILES.find((f) => {
      const text = fs.readFileSync(path.join(REAL_PI, f), "utf8");
      return !text.includes('"type":"session_info"') && !/^\{[^\n]*"title":/u.test(text);
    }) as string;
    const lines = fs.readFileSync(path.join(REAL_PI, fixture), "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as { type: string; message?: { role: string; content: unknown } });
    const content = lines.find((l) => l.type === "message" && l.message?.role === "user")!.message!.content;
    const text = typeof content === "string" ? content : (content as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text).join("\n");
    const firstLine = text.trim().split("\n")[0]!.trim().slice(0, 120);
    const { sessionId } = await store.importFile(path.join(REAL_PI, fixture));
    expect(store.getSession(sessionId as string)?.title).toBeNull(); // no name of its own
    await pushSession(storePushSource(store), sessionId as string, { client: new ArchiveClient(url, adaToken), project: "alpha" });
    const stored = await db.pool.query<{ title: string | null }>("SELECT title FROM sessions WHERE session_id = $1", [sessionId]);
    expect(stored.rows.map((r) => r.title)).toEqual([firstLine]);
  });

  it("sends only what the session gained since the last push", async () => {
    const { store, dir } = localStore();
    const file = path.join(dir, "grow.jsonl");
    const lines = fs.readFileSync(path.join(REAL_PI, PI_FILES[0] as string), "utf8").trimEnd().split("\n");
    // a session id of its own: the archive already holds this fixture from the test above
    lines[0] = JSON.stringify({ ...(JSON.parse(lines[0] as string) as object), id: "grown-session-1" });
    const firstPart = lines.slice(0, Math.max(2, Math.floor(lines.length / 2)));
    fs.writeFileSync(file, `${firstPart.join("\n")}\n`);
    const sessionId = (await store.importFile(file)).sessionId as string;
    const client = new ArchiveClient(url, adaToken);
    await pushSession(storePushSource(store), sessionId, { client, project: "alpha" });
    const before = store.loadEntries(sessionId).length;
    fs.appendFileSync(file, `${lines.slice(firstPart.length).join("\n")}\n`);
    await store.importFile(file);
    const after = store.loadEntries(sessionId).length;
    const report = await pushSession(storePushSource(store), sessionId, { client, project: "alpha" });
    expect(report).toMatchObject({ had: before, sent: after - before, added: after - before });
    const rows = await entriesInArchive(sessionId);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: after }, (_, i) => i));
  });

  it("redacts secrets before they leave, and a dry run sends nothing", async () => {
    const { store, dir } = localStore();
    const file = path.join(dir, "secret.jsonl");
    const header = { type: "session", version: 3, id: "secret-session-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/work/app" };
    const user = { type: "message", id: "aaaaaaaa", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "deploy with AWS key AKIAABCDEFGHIJKLMNOP and DB postgres://app:hunter22@db/x", timestamp: 1 } };
    fs.writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify(user)}\n`);
    const sessionId = (await store.importFile(file)).sessionId as string;
    const client = new ArchiveClient(url, adaToken);
    const dry = await pushSession(storePushSource(store), sessionId, { client, project: "alpha", dryRun: true });
    expect(dry).toMatchObject({ had: 0, sent: 1, added: 0 });
    // each secret twice: in the entry and in the title (the title rule makes the first prompt the title)
    expect(dry.redacted).toEqual([{ rule: "aws-access-key", count: 2 }, { rule: "url-password", count: 2 }]);
    expect(await entriesInArchive(sessionId)).toEqual([]);
    await pushSession(storePushSource(store), sessionId, { client, project: "alpha" });
    const stored = (await db.pool.query<{ entry: string }>("SELECT entry FROM entries e JOIN sessions s ON s.id = e.session_pk WHERE s.session_id = $1", [sessionId])).rows;
    expect(stored[0]?.entry).toContain("[REDACTED:aws-access-key]");
    expect(stored[0]?.entry).not.toContain("AKIAABCDEFGHIJKLMNOP");
    expect(stored[0]?.entry).not.toContain("hunter22");
    const [title] = (await db.pool.query<{ title: string }>("SELECT title FROM sessions WHERE session_id = $1", [sessionId])).rows;
    expect(title?.title).toContain("[REDACTED:aws-access-key]");
    expect(title?.title).not.toContain("AKIAABCDEFGHIJKLMNOP");
    expect(title?.title).not.toContain("hunter22");
    expect(fs.readFileSync(file, "utf8")).toContain("AKIAABCDEFGHIJKLMNOP");
  });

  it("refuses a project one is not granted, and a revoked token, with the same answer for a missing project", async () => {
    const { store } = localStore();
    const sessionId = (await store.importFile(path.join(REAL_PI, PI_FILES[0] as string))).sessionId as string;
    const source = storePushSource(store);
    const refused = async (token: string, project: string): Promise<ArchiveError> => {
      const error = await pushSession(source, sessionId, { client: new ArchiveClient(url, token), project }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArchiveError);
      return error as ArchiveError;
    };
    const notGranted = await refused(bobToken, "alpha");
    const missing = await refused(bobToken, "nope");
    expect(notGranted.code).toBe("forbidden");
    expect(notGranted.message.replace("alpha", "X")).toBe(missing.message.replace("nope", "X"));
    const { token, tokenId } = await addPerson(db.pool, "eve");
    await grant(db.pool, "eve", "alpha");
    await revokeTokens(db.pool, { tokenId });
    expect((await refused(token, "alpha")).code).toBe("unauthorized");
    expect((await db.pool.query("SELECT 1 FROM sessions s JOIN projects p ON p.id = s.project_id WHERE p.name = 'alpha' AND s.session_id = $1 AND s.pushed_by = (SELECT id FROM people WHERE name = 'bob')", [sessionId])).rowCount).toBe(0);
  });

  it("answers /health without a token and nothing else without one", async () => {
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ ok: true, schema: ARCHIVE_SCHEMA_VERSION });
    const response = await fetch(`${url}/api/me`);
    expect(response.status).toBe(401);
  });
});
