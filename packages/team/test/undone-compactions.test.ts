/**
 * A compaction undone in Bonsai (core undo-markers.ts: a `custom` entry naming it) is not counted in
 * the archive's list, as it is not in the local one, until it is redone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redoMarker, undoMarker } from "@bonsai/core";
import { addPerson, addProject, ArchiveStore, authenticate, grant, openArchiveDatabase, receiveBatch, type ArchiveDatabase, type Principal } from "../src";
import { usePostgres } from "./archive-server";

const postgres = usePostgres();
let db: ArchiveDatabase;
let ada: Principal;

const at = "2026-01-01T00:00:01.000Z";
const message = (id: string, parentId: string | null, text: string) => ({ type: "message", id, parentId, timestamp: at, message: { role: "user", content: text } });
const compaction = (id: string, parentId: string) => ({ type: "compaction", id, parentId, timestamp: at, summary: "what happened", firstKeptEntryId: "m1", tokensBefore: 1000 });

async function push(sessionId: string, entries: object[]): Promise<void> {
  const header = JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/src" });
  await receiveBatch(db.pool, ada, { project: "alpha", from: 0, entries: entries.map((e) => JSON.stringify(e)), session: { sessionId, agent: "pi", title: null, cwd: "/src", header, startedAt: null } });
}

beforeAll(async () => {
  db = await openArchiveDatabase(postgres.freshDatabase());
  await addProject(db.pool, "alpha");
  const token = (await addPerson(db.pool, "ada")).token;
  await grant(db.pool, "ada", "alpha");
  ada = await authenticate(db.pool, token);
}, 120_000);

afterAll(async () => {
  await db.close();
});

describe("compactions undone in Bonsai, in the archive's list", () => {
  it("counts a compaction, not once it is undone, and again once it is redone", async () => {
    const base = [message("m0", null, "one"), message("m1", "m0", "two"), compaction("c1", "m1"), message("m2", "c1", "three"), compaction("c2", "m2")];
    const undo = { ...undoMarker("compaction", "c2"), id: "u1", parentId: "m2", timestamp: at };
    const redo = { ...redoMarker("compaction", "c2"), id: "r1", parentId: "c2", timestamp: at };
    await push("plain", base);
    await push("undone", [...base, undo]);
    await push("redone", [...base, undo, redo]);
    const counts = new Map((await new ArchiveStore(db.pool, ada).listSessions()).map((s) => [s.id.split("/").at(-1), s.compactionCount]));
    expect(Object.fromEntries(counts)).toEqual({ plain: 2, undone: 1, redone: 2 });
  });
});
