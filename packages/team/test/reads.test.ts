/**
 * The archive's reads on their own: a session's JSONL is its header line and its entries in order,
 * byte for byte as pushed (an empty session is its header alone), and search finds a rare term among
 * more matches of a common word than it ranks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, archivedSessionJsonl, authenticate, openArchiveDatabase, receiveBatch, searchArchive, type ArchiveDatabase, type Principal } from "../src";
import { usePostgres } from "./archive-server";

const postgres = usePostgres();
let db: ArchiveDatabase;
let admin: Principal;

const header = (id: string): string => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/src" });
const entry = (i: number, text: string): string => JSON.stringify({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text }] } });

async function store(id: string, entries: string[]): Promise<void> {
  await receiveBatch(db.pool, admin, { project: "alpha", from: 0, entries, session: { sessionId: id, agent: "pi", title: null, cwd: "/src", header: header(id), startedAt: null } });
}

beforeAll(async () => {
  db = await openArchiveDatabase(postgres.freshDatabase());
  await addProject(db.pool, "alpha");
  admin = await authenticate(db.pool, (await addPerson(db.pool, "root", "admin")).token);
}, 120_000);

afterAll(async () => {
  await db.close();
});

describe("archive reads", () => {
  it("gives a session back as its header and entries, in order, as pushed; an empty one as its header", async () => {
    const entries = [entry(0, "first"), entry(1, 'quotes " and \\\\ and\ttabs'), entry(2, "third")];
    await store("three", entries);
    await store("empty", []);
    expect((await archivedSessionJsonl(db.pool, admin, "three")).jsonl).toBe(`${[header("three"), ...entries].join("\n")}\n`);
    expect((await archivedSessionJsonl(db.pool, admin, "empty")).jsonl).toBe(`${header("empty")}\n`);
  });

  it("finds a rare term among more matches of a common word than it ranks", async () => {
    const common = Array.from({ length: 2500 }, (_, i) => entry(i, `common word number ${i}`));
    common[3] = entry(3, "common word beside the quokka");
    await store("many", common);
    const rare = await searchArchive(db.pool, admin, "common quokka");
    expect(rare.map((h) => h.entryId)).toEqual(["e3"]);
    expect(await searchArchive(db.pool, admin, "common", { limit: 50 })).toHaveLength(50);
  }, 60_000);
});
