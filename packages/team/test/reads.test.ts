/**
 * The archive's reads on their own: a session's JSONL is its header line and its entries in order,
 * byte for byte as pushed (an empty session is its header alone), and search finds a rare term among
 * more matches of a common word than it ranks, and a phrase only where its words follow each other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, ArchiveStore, authenticate, openArchiveDatabase, receiveBatch, type ArchiveDatabase, type Principal } from "../src";
import { RECENT_ENTRIES } from "../src/archive-search";
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
    expect(await new ArchiveStore(db.pool, admin).renderJsonl("three")).toBe(`${[header("three"), ...entries].join("\n")}\n`);
    expect(await new ArchiveStore(db.pool, admin).renderJsonl("empty")).toBe(`${header("empty")}\n`);
  });

  it("finds a rare term among more matches of a common word than it ranks", async () => {
    const common = Array.from({ length: 2500 }, (_, i) => entry(i, `common word number ${i}`));
    common[3] = entry(3, "common word beside the quokka");
    await store("many", common);
    const rare = await new ArchiveStore(db.pool, admin).searchHits("common quokka");
    expect(rare.map((h) => h.entryId)).toEqual(["e3"]);
    // a hit names the session's project and the person who pushed it
    expect(rare.map((h) => [h.sessionId, h.project, h.pushedBy])).toEqual([["many", "alpha", "root"]]);
    expect(await new ArchiveStore(db.pool, admin).searchHits("common", { limit: 50 })).toHaveLength(50);
  }, 60_000);

  it("finds a phrase only where its words follow each other in that order, however long the entry", async () => {
    const long = `${"filler ".repeat(5000)}the rollback database step ${"filler ".repeat(5000)}`;
    const texts = [
      "run the rollback database step now", // 0: both phrases
      "database rollback, in the other order", // 1
      "a rollback of the database", // 2: words apart
      "Rollback, database! step", // 3: punctuation between the words
      long, // 4: far inside a long entry
      "rollback database", // 5
      "the rollback happened; step database later", // 6
      "rollback database, then the database step", // 7: every pair of the three-word phrase, not the phrase
    ];
    await store("phrases", texts.map((text, i) => entry(i, text)));
    const ids = async (q: string): Promise<string[]> => (await new ArchiveStore(db.pool, admin).searchHits(q, { session: "phrases" })).map((h) => h.entryId).sort();
    expect(await ids('"rollback database"')).toEqual(["e0", "e3", "e4", "e5", "e7"]);
    expect(await ids('"rollback database step"')).toEqual(["e0", "e3", "e4"]);
    expect(await ids('"database rollback"')).toEqual(["e1"]);
    expect(await ids('"rollback database" step')).toEqual(["e0", "e3", "e4", "e7"]);
    expect(await ids("rollback database")).toEqual(["e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7"]);
  }, 60_000);

  it("searches text with any character as text: never an error, and punctuation found where it stands", async () => {
    const texts = ["match the regex .* here", "a key:* with a colon", 'quoted "words" and a back\\slash', "中文的上下文溢出了", "nothing special", "it's a ' quote"];
    await store("characters", texts.map((text, i) => entry(i, text)));
    const ids = async (q: string): Promise<string[]> => (await new ArchiveStore(db.pool, admin).searchHits(q, { session: "characters" })).map((h) => h.entryId).sort();
    for (const q of [":*", ".*", "\u0000", "a\u0000b", '"', '""', "\\", "'", "*", "**", "&", "|", "!", "<->", "(", "'*", "it's*", "中文", '"上下文溢出"', "NEAR(a b)"]) await expect(ids(q), JSON.stringify(q)).resolves.toBeInstanceOf(Array);
    expect(await ids(":*")).toEqual(["e1"]);
    expect(await ids(".*")).toEqual(["e0"]);
    expect(await ids("\\")).toEqual(["e2"]);
    expect(await ids("\u0000")).toEqual([]);
    expect(await ids("regex\u0000here")).toEqual(["e0"]);
    expect(await ids('"上下文溢出"')).toEqual(["e3"]);
    expect(await ids('"上下文 溢出"')).toEqual(["e3"]);
    expect(await ids('"中文 溢出"')).toEqual([]);
    expect(await ids("it's*")).toEqual(["e5"]);
  }, 60_000);

  it("ranks entries where the words stand next to each other first, then closer ones", async () => {
    const filler = (n: number): string => Array.from({ length: n }, (_, i) => `filler${i}`).join(" ");
    await store("closeness", [
      entry(0, `context context context context ${filler(30)} overflow overflow overflow overflow`),
      entry(1, `${filler(40)} the context window had an overflow today ${filler(40)}`),
      entry(2, `${filler(60)} a context overflow happened ${filler(60)}`),
    ]);
    const order = async (q: string): Promise<string[]> => (await new ArchiveStore(db.pool, admin).searchHits(q, { session: "closeness" })).map((h) => h.entryId);
    // ts_rank alone ranks the entry with both words most often first: the case this guards
    expect((await order("context"))[0]).toBe("e0");
    expect(await order("context overflow")).toEqual(["e2", "e1", "e0"]);
    expect(await order("context overf*")).toEqual(["e2", "e1", "e0"]);
    expect(await order('"context overflow"')).toEqual(["e2"]);
    const ranks = (await new ArchiveStore(db.pool, admin).searchHits("context overflow", { session: "closeness" })).map((h) => h.rank);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
  }, 60_000);

  it("indexes the pairs of words that follow each other, as the phrase operator reads them", async () => {
    const pairs = async (text: string): Promise<string[]> =>
      ((await db.pool.query<{ pairs: string[] }>("SELECT archive_word_pairs(to_tsvector('simple', $1)) AS pairs", [text])).rows[0]?.pairs ?? []).sort();
    expect(await pairs("Rollback the database, then the rollback")).toEqual(["database then", "rollback the", "the database", "the rollback", "then the"]);
    expect(await pairs("one")).toEqual([]);
    expect(await pairs("")).toEqual([]);
  });

  it("ranks a common term among the matches of the most recent sessions, and finds a rarer one anywhere", async () => {
    await store("older-zebras", Array.from({ length: 60 }, (_, i) => entry(i, "zebra zebra zebra zebra")));
    await store("old-narwhal", [entry(0, "the narwhal surfaced")]);
    await store("newer-zebras", Array.from({ length: RECENT_ENTRIES }, (_, i) => entry(i, `a zebra among words ${i}`)));
    const zebras = await new ArchiveStore(db.pool, admin).searchHits("zebra", { limit: 50 });
    expect(zebras).toHaveLength(50);
    expect(new Set(zebras.map((h) => h.sessionId))).toEqual(new Set(["newer-zebras"]));
    // older than the recent entries read row by row: found through the word index
    expect((await new ArchiveStore(db.pool, admin).searchHits("narwhal")).map((h) => [h.sessionId, h.entryId])).toEqual([["old-narwhal", "e0"]]);
    expect((await new ArchiveStore(db.pool, admin).searchHits("zebra", { session: "older-zebras", limit: 50 })).map((h) => h.sessionId)).toContain("older-zebras");
  }, 60_000);
});
