/**
 * ArchiveStore answers only within the principal's projects: a session of another project is
 * answered by every read exactly as one that does not exist (same refusal, same sentence), never
 * listed, resolved or found by search; an admin reads both; a revoked token gets no principal.
 */
import { DEFAULT_PRUNE_CONFIG } from "@bonsai/core";
import { SessionLookupError } from "@bonsai/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, addProject, ArchiveError, ArchiveStore, authenticate, grant, openArchiveDatabase, receiveBatch, revokeTokens, type ArchiveDatabase, type Principal } from "../src";
import { usePostgres } from "./archive-server";

const postgres = usePostgres();
let db: ArchiveDatabase;
let tokens: Record<"ada" | "bob" | "root", string>;

async function pushAs(principal: Principal, project: string, sessionId: string, word: string): Promise<void> {
  const header = JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: "2026-01-01T00:00:00.000Z", cwd: `/${project}` });
  const entries = [0, 1].map((i) =>
    JSON.stringify({ type: "message", id: `${sessionId}-e${i}`, parentId: i === 0 ? null : `${sessionId}-e0`, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: `${word} number ${i}` } }),
  );
  await receiveBatch(db.pool, principal, { project, from: 0, entries, session: { sessionId, agent: "pi", title: `${word} title`, cwd: `/${project}`, header, startedAt: null } });
}

beforeAll(async () => {
  db = await openArchiveDatabase(postgres.freshDatabase());
  await addProject(db.pool, "alpha");
  await addProject(db.pool, "beta");
  tokens = { ada: (await addPerson(db.pool, "ada")).token, bob: (await addPerson(db.pool, "bob")).token, root: (await addPerson(db.pool, "root", "admin")).token };
  await grant(db.pool, "ada", "alpha");
  await grant(db.pool, "bob", "beta");
  await pushAs(await authenticate(db.pool, tokens.ada), "alpha", "alpha-session", "aardvark");
  await pushAs(await authenticate(db.pool, tokens.bob), "beta", "beta-session", "bumblebee");
}, 120_000);

afterAll(async () => {
  await db.close();
});

const storeOf = async (who: keyof typeof tokens): Promise<ArchiveStore> => new ArchiveStore(db.pool, await authenticate(db.pool, tokens[who]));

/** every read of one session, by its id */
const READS: [string, (store: ArchiveStore, id: string) => Promise<unknown>][] = [
  ["getHeader", (s, id) => s.getHeader(id)],
  ["getLeaf", (s, id) => s.getLeaf(id)],
  ["lastEntryId", (s, id) => s.lastEntryId(id)],
  ["countSessionShape", (s, id) => s.countSessionShape(id)],
  ["loadEntries", (s, id) => s.loadEntries(id)],
  ["getEntry", (s, id) => s.getEntry(id, `${id}-e0`)],
  ["getEntryInfo", (s, id) => s.getEntryInfo(id, `${id}-e0`)],
  ["hasEntry", (s, id) => s.hasEntry(id, `${id}-e0`)],
  ["getEntries", (s, id) => s.getEntries(id, [`${id}-e0`])],
  ["getPreviews", (s, id) => s.getPreviews(id, [`${id}-e0`])],
  ["getLabel", (s, id) => s.getLabel(id, `${id}-e0`)],
  ["getSkeleton", (s, id) => s.getSkeleton(id)],
  ["getPackedSkeleton", (s, id) => s.getPackedSkeleton(id)],
  ["getSkeletonTail", (s, id) => s.getSkeletonTail(id, 0)],
  ["getPath", (s, id) => s.getPath(id)],
  ["getPathNodes", (s, id) => s.getPathNodes(id)],
  ["isOnPath", (s, id) => s.isOnPath(id, `${id}-e0`)],
  ["areOnPath", (s, id) => s.areOnPath(id, [`${id}-e0`])],
  ["getContextEntries", (s, id) => s.getContextEntries(id)],
  ["getContextSummary", (s, id) => s.getContextSummary(id)],
  ["renderJsonl", (s, id) => s.renderJsonl(id)],
  ["listPruned", (s, id) => s.listPruned(id)],
  ["getContextMessages", (s, id) => s.getContextMessages(id)],
  ["getContextTokens", (s, id) => s.getContextTokens(id, `${id}-e1`)],
  ["getCompactionWindow", (s, id) => s.getCompactionWindow(id)],
  ["getSizeSeries", (s, id) => s.getSizeSeries(id, `${id}-e1`, 8)],
  ["getToolResultsOnPath", (s, id) => s.getToolResultsOnPath(id)],
  ["getPrunePlan", (s, id) => s.getPrunePlan(id, undefined, DEFAULT_PRUNE_CONFIG)],
  ["getPruneSummary", (s, id) => s.getPruneSummary(id, undefined, DEFAULT_PRUNE_CONFIG)],
  ["getBranchPlan", (s, id) => s.getBranchPlan(id, `${id}-e1`, `${id}-e0`, 1_000)],
  ["readSession", (s, id) => s.readSession(id)],
  ["unindexedCount", (s, id) => s.unindexedCount(id)],
];

/** the refusal a call ends with, its id replaced so that two ids' sentences compare */
async function refusalOf(call: () => Promise<unknown>, id: string): Promise<{ name: string; message: string }> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(SessionLookupError);
    return { name: (error as Error).name, message: (error as Error).message.replaceAll(id, "<id>") };
  }
  throw new Error("the read answered");
}

describe("ArchiveStore: one principal's projects", () => {
  it("answers every read of another project's session exactly as for a session that does not exist", async () => {
    const bob = await storeOf("bob");
    for (const [name, read] of READS) {
      const hidden = await refusalOf(() => read(bob, "alpha-session"), "alpha-session");
      const missing = await refusalOf(() => read(bob, "no-such-session"), "no-such-session");
      expect(hidden, name).toEqual(missing);
      await expect(read(bob, "beta-session"), name).resolves.not.toThrow();
    }
    expect(await bob.getSession("alpha-session")).toBeUndefined();
    expect((await bob.listSessions()).map((s) => s.id)).toEqual(["beta/bob/beta-session"]);
    await expect(bob.resolveSessionId("alpha")).rejects.toThrow(SessionLookupError);
    expect(await bob.resolveSessionId("b")).toBe("beta/bob/beta-session");
    expect(await bob.search("aardvark")).toEqual([]);
    expect(await bob.search("aardvark", { sessionId: "alpha-session" })).toEqual([]);
    expect((await bob.search("bumblebee")).map((h) => h.sessionId)).toEqual(["beta/bob/beta-session", "beta/bob/beta-session"]);
  });

  it("answers the reads of what an archive does not keep as the truth: no titles or settings of its own, nothing left to index", async () => {
    const ada = await storeOf("ada");
    expect(await ada.getSessionTitles()).toEqual(new Map());
    expect(await ada.getSettingsJson()).toBeUndefined();
    expect(await ada.unindexedCount()).toBe(0);
    expect(await ada.unindexedCount("alpha-session")).toBe(0);
    // what search finds right after the push: every entry is indexed
    expect((await ada.search("aardvark")).map((h) => h.entryId).sort()).toEqual(["alpha-session-e0", "alpha-session-e1"]);
    const read = await ada.readSession("alpha-session");
    expect({ format: read.format, agent: read.agent, title: read.title, leafId: read.leafId, ids: read.entries.map((e) => e.id) }).toEqual({
      format: "pi",
      agent: "pi",
      title: "aardvark title",
      leafId: "alpha-session-e1",
      ids: ["alpha-session-e0", "alpha-session-e1"],
    });
  });

  it("lets an admin read every project, and a member only theirs", async () => {
    const root = await storeOf("root");
    expect((await root.listSessions()).map((s) => s.id).sort()).toEqual(["alpha/ada/alpha-session", "beta/bob/beta-session"]);
    expect((await root.search("aardvark")).map((h) => h.entryId).sort()).toEqual(["alpha-session-e0", "alpha-session-e1"]);
    const ada = await storeOf("ada");
    expect((await ada.listSessions()).map((s) => s.id)).toEqual(["alpha/ada/alpha-session"]);
    expect(await ada.getSession("alpha-session")).toMatchObject({ id: "alpha/ada/alpha-session", headerId: "alpha-session", title: "aardvark title", sourcePath: null, entryCount: 2, messageCount: 2, firstMessage: "aardvark number 0", leafId: "alpha-session-e1" });
  });

  it("gives a revoked token no principal, so no store", async () => {
    const { token } = await addPerson(db.pool, "gone");
    await grant(db.pool, "gone", "alpha");
    expect((await new ArchiveStore(db.pool, await authenticate(db.pool, token)).listSessions()).map((x) => x.id)).toEqual(["alpha/ada/alpha-session"]);
    await revokeTokens(db.pool, { person: "gone" });
    await expect(authenticate(db.pool, token)).rejects.toThrow(ArchiveError);
  });
});
