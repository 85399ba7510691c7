import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byId, firstFirst, lastFirst, lastWithId, RECENT, RECENT_IDS_LIMIT, SETTLED, settleRecentIds } from "../src/id-tiers";
import type { SqliteSessionStore } from "../src/index";
import { HEADER, line, newStore, tempDir, userEntry } from "./support";

/** a chain of user messages with ids `${prefix}0`, `${prefix}1`, ... hanging off `parent` */
function chain(prefix: string, count: number, parent: string | null, from = 0): string {
  let out = "";
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}`;
    out += line(userEntry(id, i === 0 ? parent : `${prefix}${i - 1}`, `message ${from + i}`, from + i));
  }
  return out;
}

const tiers = (store: SqliteSessionStore, sessionId: string): number[] =>
  store.db.prepare("SELECT id_tier FROM entries WHERE session_id = ? ORDER BY seq").pluck().all(sessionId) as number[];

describe("the id index's tiers", () => {
  it("a whole file is settled, appended lines are recent, and lookups by id find the last entry with the id across both", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + chain("a", 5, null));
    const store = newStore(dir);
    const sessionId = (await store.importFile(file)).sessionId as string;
    expect(tiers(store, sessionId)).toEqual([SETTLED, SETTLED, SETTLED, SETTLED, SETTLED]);

    // appended: a new entry, and one that repeats a settled id (lookups find the later one)
    fs.appendFileSync(file, line(userEntry("b0", "a4", "new", 10)) + line(userEntry("a2", "b0", "again", 11)));
    const report = await store.importFile(file);
    expect(report.status).toBe("appended");
    expect(tiers(store, sessionId)).toEqual([SETTLED, SETTLED, SETTLED, SETTLED, SETTLED, RECENT, RECENT]);
    expect(store.getEntryInfo(sessionId, "a2")).toMatchObject({ seq: 6 });
    expect(store.getEntryInfo(sessionId, "b0")).toMatchObject({ seq: 5 });
    expect(store.getEntryInfo(sessionId, "a4")).toMatchObject({ seq: 4 });
    expect(store.hasEntry(sessionId, "zz")).toBe(false);
    const first = store.db.prepare(`SELECT seq FROM entries WHERE ${byId()} ORDER BY ${firstFirst()} LIMIT 1`).pluck();
    const last = store.db.prepare(`SELECT seq FROM entries WHERE ${byId()} ORDER BY ${lastFirst()} LIMIT 1`).pluck();
    expect([first.get(sessionId, "a2"), last.get(sessionId, "a2")]).toEqual([2, 6]);

    // a line appended to a recent entry links to it: parent found in the recent tier
    fs.appendFileSync(file, line(userEntry("c0", "b0", "on b0", 12)));
    await store.importFile(file);
    expect(store.db.prepare("SELECT parent_seq FROM entries WHERE session_id = ? AND seq = 7").pluck().get(sessionId)).toBe(5);

    // the file rewritten: read whole again, every row settled
    fs.writeFileSync(file, line(HEADER) + chain("a", 3, null));
    expect((await store.importFile(file)).status).toBe("reimported");
    expect(tiers(store, sessionId)).toEqual([SETTLED, SETTLED, SETTLED]);
  });

  it("a session's recent rows are settled once there are more than the limit; lookups find the same entries", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + chain("a", 3, null));
    const store = newStore(dir);
    const sessionId = (await store.importFile(file)).sessionId as string;
    fs.appendFileSync(file, chain("b", 4, "a2", 3));
    await store.importFile(file);
    const db = store.db;
    const seqs = ["a0", "a2", "b0", "b3"].map((id) => store.getEntryInfo(sessionId, id)?.seq);
    // four recent rows: nothing to do under a limit of 4; settled over a limit of 3
    expect(db.transaction(() => settleRecentIds(db, sessionId, 4))()).toBe(0);
    expect(tiers(store, sessionId).filter((t) => t === RECENT)).toHaveLength(4);
    expect(db.transaction(() => settleRecentIds(db, sessionId, 3))()).toBe(4);
    expect(tiers(store, sessionId).every((t) => t === SETTLED)).toBe(true);
    expect(["a0", "a2", "b0", "b3"].map((id) => store.getEntryInfo(sessionId, id)?.seq)).toEqual(seqs);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  });

  it(`an append that takes a session over ${RECENT_IDS_LIMIT} recent rows settles them`, async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + chain("a", 2, null));
    const store = newStore(dir);
    const sessionId = (await store.importFile(file)).sessionId as string;
    fs.appendFileSync(file, chain("b", RECENT_IDS_LIMIT, "a1", 2));
    await store.importFile(file);
    expect(tiers(store, sessionId).filter((t) => t === RECENT)).toHaveLength(RECENT_IDS_LIMIT);
    fs.appendFileSync(file, chain("c", 1, `b${RECENT_IDS_LIMIT - 1}`, RECENT_IDS_LIMIT + 2));
    await store.importFile(file);
    expect(tiers(store, sessionId).every((t) => t === SETTLED)).toBe(true);
    expect(store.getEntryInfo(sessionId, "c0")).toMatchObject({ seq: RECENT_IDS_LIMIT + 2 });
    expect(store.getEntryInfo(sessionId, "b17")).toMatchObject({ seq: 19 });
  });

  it("every lookup by id seeks the id index over both tiers, the last or the first entry without a sort", () => {
    const store = newStore();
    for (const order of [lastFirst(), firstFirst()]) {
      for (const columns of ["seq", "line, preview"]) {
        const plan = (store.db.prepare(`EXPLAIN QUERY PLAN SELECT ${columns} FROM entries WHERE ${byId()} ORDER BY ${order} LIMIT 1`).all("s", "x") as { detail: string }[]).map((p) => p.detail).join("; ");
        expect(plan).toMatch(/USING (COVERING )?INDEX entries_by_id_tier \(session_id=\? AND id_tier=\? AND id=\?\)/);
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    }
  });

  it("lastWithId finds the last entry with an id: the recent tier's last, else the settled tier's, with two seeks and no temporary B-tree", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    // a whole file with an id twice (both settled), then appended lines with ids met before
    fs.writeFileSync(file, line(HEADER) + chain("a", 4, null) + line(userEntry("a1", "a3", "a1 again", 4)));
    const store = newStore(dir);
    const sessionId = (await store.importFile(file)).sessionId as string;
    fs.appendFileSync(file, line(userEntry("a2", "a1", "a2 again", 5)) + line(userEntry("b0", "a2", "new", 6)) + line(userEntry("a2", "b0", "a2 a third time", 7)));
    expect((await store.importFile(file)).status).toBe("appended");
    expect(tiers(store, sessionId)).toEqual([SETTLED, SETTLED, SETTLED, SETTLED, SETTLED, RECENT, RECENT, RECENT]);
    const last = store.db.prepare(lastWithId("seq, line"));
    const find = (id: string): unknown => last.get(sessionId, id, sessionId, id);
    expect(find("a2")).toEqual({ seq: 7, line: 9 });
    expect(find("a1")).toEqual({ seq: 4, line: 6 });
    expect(find("a0")).toEqual({ seq: 0, line: 2 });
    expect(find("b0")).toEqual({ seq: 6, line: 8 });
    expect(find("zz")).toBeUndefined();
    // the same as byId's lookup
    const byIdLast = store.db.prepare(`SELECT seq, line FROM entries WHERE ${byId()} ORDER BY ${lastFirst()} LIMIT 1`);
    for (const id of ["a0", "a1", "a2", "a3", "b0", "zz"]) expect(find(id)).toEqual(byIdLast.get(sessionId, id));
    const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${lastWithId("seq, line")}`).all("s", "x", "s", "x") as { detail: string }[]).map((p) => p.detail).join("; ");
    expect(plan.match(/INDEX entries_by_id_tier \(session_id=\? AND id_tier=\? AND id=\?\)/g)).toHaveLength(2);
    const opcodes = (store.db.prepare(`EXPLAIN ${lastWithId("seq, line")}`).all("s", "x", "s", "x") as { opcode: string }[]).map((r) => r.opcode);
    expect(opcodes).not.toContain("OpenEphemeral");
    expect(opcodes).not.toContain("SorterOpen");
  });

  it("no statement of the store looks an entry up by id without byId (it would miss the index's tiers)", () => {
    const src = path.resolve(__dirname, "../src");
    // id-tiers.ts writes the lookups the others use
    const files = fs.readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && !f.startsWith("migrations") && f !== "id-tiers.ts");
    const raw = /\b(?:[a-z]\.)?id = \?/;
    const offenders = files.filter((f) => {
      const text = fs.readFileSync(path.join(src, f), "utf8");
      return text.split("\n").some((l) => raw.test(l) && /entries/.test(l) && !/sessions|source_intents/.test(l));
    });
    expect(offenders).toEqual([]);
  });
});
