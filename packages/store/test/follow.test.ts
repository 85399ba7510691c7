import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { StoreEvents } from "../src/index";
import { HEADER, line, newStore, tempDir, userEntry, waitFor } from "./support";

describe("live follow", () => {
  it("entries an agent appends reach the store within a second, with an event", async () => {
    const dir = tempDir();
    const file = path.join(dir, "live.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "start")));
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    const events: StoreEvents["entries-added"][] = [];
    store.on("entries-added", (e) => events.push(e));
    const follower = store.follow();
    expect(follower.sessionIds).toEqual([id]);

    // fs.watch reports the append at once and a 500 ms poll backs it up, so the entries arrive well
    // within a second; the wait is generous so a loaded CI machine cannot make this flaky.
    fs.appendFileSync(file, line(userEntry("b", "a", "appended by the agent", 1)));
    await waitFor(() => events.length > 0, 5000, "the entries-added event");
    expect(events[0]).toMatchObject({ sessionId: id, source: "follow" });
    expect(events[0]!.entries.map((e) => e.id)).toEqual(["b"]);
    expect(store.getLeaf(id)).toBe("b");

    // a line written in two parts is stored once it is complete
    const half = line(userEntry("c", "b", "written in two steps", 2));
    fs.appendFileSync(file, half.slice(0, 20));
    await new Promise((r) => setTimeout(r, 200));
    fs.appendFileSync(file, half.slice(20));
    await waitFor(() => store.getEntry(id, "c") !== undefined, 5000, "entry c");
    expect(store.loadEntries(id).map((e) => e.id)).toEqual(["a", "b", "c"]);

    // an atomic rewrite (temp file + rename, as agents do) is picked up as a new generation
    const updated = events.length;
    const rewritten = line({ ...HEADER, title: "renamed" }) + line(userEntry("a", null, "start")) + line(userEntry("b", "a", "appended by the agent", 1)) + half;
    fs.writeFileSync(path.join(dir, ".live.jsonl.tmp"), rewritten);
    fs.renameSync(path.join(dir, ".live.jsonl.tmp"), file);
    await waitFor(() => store.getSession(id)?.title === "renamed", 5000, "the rewrite");
    expect(store.getSession(id)!.generation).toBe(2);
    expect(events.length).toBe(updated);

    follower.close();
    fs.appendFileSync(file, line(userEntry("d", "c", "after close", 3)));
    await new Promise((r) => setTimeout(r, 700));
    expect(store.getEntry(id, "d")).toBeUndefined();
  });

  it("a follower started first also follows sessions imported afterwards", async () => {
    const dir = tempDir();
    const store = newStore(dir);
    const follower = store.follow();
    expect(follower.sessionIds).toEqual([]);
    const file = path.join(dir, "later.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "start")));
    const id = (await store.importFile(file)).sessionId as string;
    expect(follower.sessionIds).toEqual([id]);
    fs.appendFileSync(file, line(userEntry("b", "a", "more", 1)));
    await waitFor(() => store.getEntry(id, "b") !== undefined, 5000, "entry b");
    follower.close();
  });

  it("with folders, new session files are imported as agents create them, then followed", async () => {
    const dir = tempDir();
    const sessions = path.join(dir, "sessions", "--x-proj--");
    fs.mkdirSync(sessions, { recursive: true });
    const store = newStore(dir);
    const follower = store.follow({ folders: [path.join(dir, "sessions")], folderScanMs: 100 });
    fs.writeFileSync(path.join(sessions, "notes.jsonl"), line({ type: "summary" }));
    const file = path.join(sessions, "2025-01-01T00-00-00-000Z_new.jsonl");
    fs.writeFileSync(file, line({ ...HEADER, id: "brand-new" }) + line(userEntry("a", null, "hello")));
    await waitFor(() => store.getSession("brand-new") !== undefined, 5000, "the new session");
    expect(follower.sessionIds).toContain("brand-new");
    fs.appendFileSync(file, line(userEntry("b", "a", "more", 1)));
    await waitFor(() => store.getEntry("brand-new", "b") !== undefined, 5000, "entry b");
    // the non-session file was read once, not on every scan
    await new Promise((r) => setTimeout(r, 350));
    expect(store.getImportReports(path.join(sessions, "notes.jsonl"))).toHaveLength(1);
    follower.close();
  });

  it("polling alone (no watch event) still follows within a second", async () => {
    const dir = tempDir();
    const file = path.join(dir, "poll.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "start")));
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    const follower = store.follow({ sessionIds: [id], pollIntervalMs: 100 });
    // write through a hard link in another folder: the watched folder sees no event for its name
    const other = path.join(tempDir(), "link.jsonl");
    fs.linkSync(file, other);
    fs.appendFileSync(other, line(userEntry("b", "a", "via the link", 1)));
    await waitFor(() => store.getEntry(id, "b") !== undefined, 5000, "entry b");
    follower.close();
  });
});
