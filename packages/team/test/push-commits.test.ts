/**
 * `bonsai push` of sessions imported from a repository's Entire checkpoint branch: their commit
 * links travel with them, redacted like the rest (checked in PostgreSQL), a later push brings the
 * links the session gained, and the archive reads them for the people who may read the session.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { importGitRepository, openStore, type SqliteSessionStore } from "@bonsai/store";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { EntireRepo } from "@bonsai/testkit/entire-repo";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ArchiveClient, ArchiveStore, authenticate, pushSession, storePushSource, type ArchiveDatabase } from "../src";
import { startTwoPeopleArchive, usePostgres, type TwoPeopleArchive } from "./archive-server";

const server = usePostgres();
let db: ArchiveDatabase;
let url: string;
let adaToken: string;
let bobToken: string;
const dirs: string[] = [];
const stores: SqliteSessionStore[] = [];

let archive: TwoPeopleArchive;
beforeAll(async () => {
  archive = await startTwoPeopleArchive(server.freshDatabase());
  ({ db, url, adaToken, bobToken } = archive);
});
afterAll(() => archive.stop());
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const SECRET = "AKIAIOSFODNN7EXAMPLE";

describe("bonsai push with commit links", () => {
  it("sends a session's commits redacted, updates them on a later push, and the archive reads them per person", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-push-commits-"));
    dirs.push(dir);
    const repo = EntireRepo.create(dir);
    const session = generateSession({ entries: 20, seed: 91, cwd: repo.dir });
    const text = sessionToJsonl(session);
    repo.addCheckpoint("aa00bb11cc22", [{ sessionId: session.header.id, agent: "Pi", createdAt: "2026-05-01T10:00:00Z", transcript: Buffer.from(text) }]);
    const first = repo.commitCode("src/keys.ts", "export const k = 1;\n", `Rotate the key ${SECRET}`, ["aa00bb11cc22"]);
    const store = openStore({ path: path.join(dir, "bonsai.db") });
    stores.push(store);
    const imported = await importGitRepository(store, repo.dir);
    const sessionId = imported.sessions[0]!.report.sessionId!;
    const client = new ArchiveClient(url, adaToken);

    const report = await pushSession(storePushSource(store), sessionId, { client, project: "alpha" });
    expect(report.redacted).toEqual([{ rule: "aws-access-key", count: 1 }]);
    const row = async () => (await db.pool.query<{ pk: string; commits: unknown }>("SELECT id AS pk, commits FROM sessions WHERE session_id = $1", [sessionId])).rows[0]!;
    const stored = (await row()).commits as { sha: string; subject: string; date: string; files: string[] }[];
    expect(stored.map((c) => [c.sha, c.files])).toEqual([[first, ["src/keys.ts"]]]);
    expect(stored[0]!.subject).not.toContain(SECRET);
    expect(stored[0]!.subject).toMatch(/^Rotate the key /);
    expect(stored[0]!.date).toBe(store.getSessionCommits(sessionId)[0]!.date);

    // the session grows into a second checkpoint, with a second commit: the next push brings both
    const grown = `${text}${JSON.stringify({ type: "session_info", id: "s-info-1", parentId: session.entries.at(-1)!.id, timestamp: "2026-05-01T11:00:00.000Z", name: "grown" })}\n`;
    repo.addCheckpoint("dd33ee44ff55", [{ sessionId: session.header.id, agent: "Pi", createdAt: "2026-05-01T11:00:00Z", transcript: Buffer.from(grown) }]);
    const second = repo.commitCode("src/two.ts", "export const two = 2;\n", "Add two", ["dd33ee44ff55"]);
    await importGitRepository(store, repo.dir);
    const again = await pushSession(storePushSource(store), sessionId, { client, project: "alpha" });
    expect(again.sent).toBe(1);
    expect(((await row()).commits as { sha: string }[]).map((c) => c.sha)).toEqual([first, second]);

    // nothing new in the session but the links: still brought
    await db.pool.query("UPDATE sessions SET commits = NULL WHERE session_id = $1", [sessionId]);
    expect((await pushSession(storePushSource(store), sessionId, { client, project: "alpha" })).sent).toBe(0);
    expect(((await row()).commits as { sha: string }[]).map((c) => c.sha)).toEqual([first, second]);

    // read for the people who may read the session
    const ada = await authenticate(db.pool, adaToken);
    const key = `alpha/ada/${sessionId}`;
    expect(await new ArchiveStore(db.pool, ada).commitCounts()).toEqual([[key, 2]]);
    expect((await new ArchiveStore(db.pool, ada).commits(key)).map((c) => c.subject)).toEqual([stored[0]!.subject, "Add two"]);
    // in the archive's list (what `ls --archive --json` prints)
    const listed = await new ArchiveClient(url, adaToken).sessions();
    expect(listed.find((x) => x.id === sessionId)!.commits.map((c) => c.sha)).toEqual([first, second]);
    const bob = await authenticate(db.pool, bobToken);
    expect(await new ArchiveStore(db.pool, bob).commitCounts()).toEqual([]);
    // a session bob may not read is answered as one that does not exist
    await expect(new ArchiveStore(db.pool, bob).commits(key)).rejects.toThrow(/no session/);
    // over HTTP (what `context --archive` asks): the same commits for ada, none of it for bob
    expect(await new ArchiveClient(url, adaToken).sessionCommits(key)).toEqual(await new ArchiveStore(db.pool, ada).commits(key));
    await expect(new ArchiveClient(url, bobToken).sessionCommits(key)).rejects.toMatchObject({ code: "not-found" });
  });
});
