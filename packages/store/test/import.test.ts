import fs from "node:fs";
import path from "node:path";
import { buildIndex, getPath, parseSessionText, type SessionEntry } from "@bonsai/core";
import { describe, expect, it, vi } from "vitest";
import type { ImportIssue, StoreEvents } from "../src/index";
import {
  BEFORE_COMPACTION,
  HAVE_FIXTURES,
  HEADER,
  LARGE_SESSION,
  REAL_PI_FILES,
  line,
  newStore,
  sha256File,
  tempDir,
  toolResultEntry,
  userEntry,
} from "./support";

const issueKinds = (issues: ImportIssue[]): string[] => issues.map((i) => `${i.line}:${i.kind}`);

describe.skipIf(!HAVE_FIXTURES)("import of the legacy (v1) fixtures", () => {
  it("case 8: imports before-compaction.jsonl without writing to it; ids generated once and stored", async () => {
    const store = newStore();
    const before = sha256File(BEFORE_COMPACTION);
    const mtime = fs.statSync(BEFORE_COMPACTION).mtimeMs;
    const report = await store.importFile(BEFORE_COMPACTION);
    expect(report.status).toBe("imported");
    expect(report.entriesAdded).toBe(1002);
    expect(report.issues).toEqual([]);
    expect(sha256File(BEFORE_COMPACTION)).toBe(before);
    expect(before).toBe("1350e4bb514a511b3f64c21cf294ef481b050653410293cf535b2b4500ca7fa5");
    expect(fs.statSync(BEFORE_COMPACTION).mtimeMs).toBe(mtime);

    const session = store.getSession(report.sessionId as string);
    expect(session).toMatchObject({ entryCount: 1002, messageCount: 990, sourceVersion: 1, sourceFormat: "pi-jsonl" });
    expect(store.getHeader(session!.id).version).toBe(3);
    const entries = store.loadEntries(session!.id);
    // one linear chain with 8-hex ids
    expect(entries[0]!.parentId).toBeNull();
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id);
    for (const e of entries) expect(e.id).toMatch(/^[0-9a-f]{8}$/);
    // legacy compactions: firstKeptEntryIndex 293 / 551 -> the ids of file lines 294 / 552
    const compactions = entries.filter((e) => e.type === "compaction") as (SessionEntry & { firstKeptEntryId?: string })[];
    expect(compactions).toHaveLength(2);
    expect(compactions[0]!.firstKeptEntryId).toBe(entries[292]!.id);
    expect(compactions[1]!.firstKeptEntryId).toBe(entries[550]!.id);
    expect(entries.some((e) => "firstKeptEntryIndex" in e)).toBe(false);
    expect(store.getLeaf(session!.id)).toBe(entries[1001]!.id);
    expect(store.getEntryInfo(session!.id, entries[292]!.id)).toMatchObject({ seq: 292, line: 294 });

    // importing again is a no-op: the generated ids do not change
    const again = await store.importFile(BEFORE_COMPACTION);
    expect(again.status).toBe("unchanged");
    expect(store.loadEntries(session!.id).map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });

  it("imports large-session.jsonl: every entry, leaf = last line", async () => {
    const store = newStore();
    const report = await store.importFile(LARGE_SESSION);
    expect(report).toMatchObject({ status: "imported", entriesAdded: 1018, issues: [] });
    const s = store.getSession(report.sessionId as string)!;
    expect(s).toMatchObject({ entryCount: 1018, messageCount: 914 });
    const skeleton = store.getSkeleton(s.id);
    expect(skeleton.nodes).toHaveLength(1018);
    expect(skeleton.leafId).toBe(skeleton.nodes[1017]!.id);
    const last = skeleton.nodes[1017]!;
    expect(last).toMatchObject({ type: "message", role: "assistant" });
    expect(skeleton.nodes.filter((n) => n.role === "toolResult")).toHaveLength(373);
    expect(sha256File(LARGE_SESSION)).toBe("e3fd7f495fa8b9cc7defef430667d438aa7e73ec68db0474b2f3742313cc718f");
  });
});

describe.skipIf(REAL_PI_FILES.length === 0)("import of the real pi sessions", () => {
  it.each(REAL_PI_FILES.map((f) => [path.basename(f), f]))("%s: every line loads, JSON kept exactly as read", async (_name, file) => {
    const store = newStore();
    const text = fs.readFileSync(file, "utf8");
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    const report = await store.importFile(file);
    expect(report.status).toBe("imported");
    expect(report.issues).toEqual([]);
    expect(report.entriesAdded).toBe(lines.length - 1);
    const id = report.sessionId as string;
    const stored = store.db.prepare("SELECT j.json FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? ORDER BY e.seq").pluck().all(id) as string[];
    expect(stored).toEqual(lines.slice(1));
    const parsed = parseSessionText(text);
    const lastId = parsed.entries[parsed.entries.length - 1]!.id;
    expect(store.getLeaf(id)).toBe(lastId);
    // the stored path equals core's path
    const index = buildIndex(parsed.entries);
    expect(store.getPath(id).map((e) => e.id)).toEqual(getPath(index, lastId).map((e) => e.id));
  });
});

describe("damaged files", () => {
  it("truncated last line, garbage lines, duplicate ids, missing parents and cycles are reported with line numbers; valid entries load", async () => {
    const dir = tempDir();
    const file = path.join(dir, "damaged.jsonl");
    const text =
      line(HEADER) + // 1
      line(userEntry("a", null, "first prompt", 1)) + // 2
      "this is not json at all\n" + // 3
      line(userEntry("b", "a", "second", 2)) + // 4
      "[1,2,3]\n" + // 5
      line(userEntry("b", "a", "duplicate of b", 3)) + // 6
      line(userEntry("c", "zzz-missing", "orphan", 4)) + // 7
      line(userEntry("x", "y", "cycle part one", 5)) + // 8
      line(userEntry("y", "x", "cycle part two", 6)) + // 9
      line({ type: "message", parentId: "b", timestamp: "2025-01-01T00:00:10.000Z", message: { role: "user", content: "no id" } }) + // 10
      "\n" + // 11 (blank: ignored)
      line(HEADER) + // 12 (second header)
      '{"type":"message","id":"d","parentId":"b","timest'; // 13: cut off
    fs.writeFileSync(file, text);
    const store = newStore(dir);
    const report = await store.importFile(file);
    expect(report.status).toBe("imported");
    expect(issueKinds(report.issues)).toEqual([
      "3:invalid-json",
      "5:not-an-object",
      "12:extra-header",
      "13:truncated-line",
      "10:missing-id",
      "6:duplicate-id",
      "7:missing-parent",
      "8:parent-cycle",
    ]);
    // the lines that could not be loaded are kept in the report
    expect(report.issues.find((i) => i.kind === "invalid-json")!.text).toBe("this is not json at all");
    expect(report.issues.find((i) => i.kind === "missing-id")!.text).toContain("no id");
    expect(report.issues.find((i) => i.kind === "truncated-line")!.text).toContain('"id":"d"');
    const id = report.sessionId as string;
    expect(store.loadEntries(id).map((e) => e.id)).toEqual(["a", "b", "b", "c", "x", "y"]);
    expect(store.getEntryInfo(id, "b")).toMatchObject({ seq: 2, line: 6 }); // last duplicate wins lookups
    // a cycle ends the path instead of looping
    expect(store.getPath(id, "y").map((e) => e.id)).toEqual(["x", "y"]);
    expect(store.getPath(id, "c").map((e) => e.id)).toEqual(["c"]);
    // duplicates and forward links: the context comes from the whole path, still cycle-safe
    expect(store.db.prepare("SELECT irregular FROM sessions WHERE id = ?").pluck().get(id)).toBe(1);
    expect(store.getContextEntries(id, "y").map((e) => e.id)).toEqual(["x", "y"]);
    // the report is stored
    expect(store.getImportReports(id)[0]!.issues).toHaveLength(8);

    // the writer finishes the cut-off line: the next import reads it from the stored offset
    fs.appendFileSync(file, 'amp":"2025-01-01T00:00:11.000Z","message":{"role":"user","content":"late"}}\n');
    const next = await store.importFile(file);
    expect(next.status).toBe("appended");
    expect(next.issues).toEqual([]);
    expect(store.getEntryInfo(id, "d")).toMatchObject({ seq: 6, line: 13 });
    expect(store.getLeaf(id)).toBe("d");
  });

  it("a read error during an import is reported, changes nothing, and the next import works", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, line(HEADER) + line(userEntry("a", null, "x")));
    const store = newStore(dir);
    const fail = vi.spyOn(fs, "readSync").mockImplementationOnce(() => {
      throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
    });
    try {
      const report = await store.importFile(file);
      expect(report.status).toBe("failed");
      expect(report.message).toMatch(/s\.jsonl was not imported: the disk reported an input\/output error; nothing was written/);
    } finally {
      fail.mockRestore();
    }
    expect(store.listSessions()).toEqual([]);
    expect((await store.importFile(file)).status).toBe("imported");
  });

  it("a file that is not a session is reported and nothing is stored", async () => {
    const dir = tempDir();
    const file = path.join(dir, "other.jsonl");
    fs.writeFileSync(file, line({ type: "summary", summary: "claude code" }) + line({ type: "user" }));
    const store = newStore(dir);
    const report = await store.importFile(file);
    expect(report.status).toBe("not-a-session");
    expect(report.issues[0]).toMatchObject({ line: 1, kind: "missing-header" });
    expect(store.listSessions()).toEqual([]);
    const empty = path.join(dir, "empty.jsonl");
    fs.writeFileSync(empty, "");
    expect((await store.importFile(empty)).issues[0]).toMatchObject({ kind: "empty" });
    const missing = await store.importFile(path.join(dir, "nope.jsonl"));
    expect(missing.status).toBe("failed");
    expect(missing.message).toContain("nope.jsonl");
  });
});

describe("re-import", () => {
  function writeSession(file: string, n: number): void {
    let text = line(HEADER);
    for (let i = 0; i < n; i++) text += line(userEntry(`e${i}`, i === 0 ? null : `e${i - 1}`, `message ${i}`, i));
    fs.writeFileSync(file, text);
  }

  async function imported(n: number) {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    writeSession(file, n);
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    return { dir, file, store, id };
  }

  it("is a no-op when the file is unchanged", async () => {
    const dir = tempDir();
    const file = path.join(dir, "s.jsonl");
    writeSession(file, 5);
    const store = newStore(dir);
    const first = await store.importFile(file);
    const reports = store.db.prepare("SELECT count(*) FROM import_reports").pluck().get();
    const second = await store.importFile(file);
    expect(second.status).toBe("unchanged");
    expect(second.entriesAdded).toBe(0);
    expect(store.db.prepare("SELECT count(*) FROM import_reports").pluck().get()).toBe(reports);
    expect(store.getSession(first.sessionId as string)!.entryCount).toBe(5);
    // touching the file (same bytes, new mtime) is still a no-op for the data
    const t = new Date(Date.now() + 5000);
    fs.utimesSync(file, t, t);
    const third = await store.importFile(file);
    expect(third.status).toBe("unchanged");
    expect(store.getSession(first.sessionId as string)!.entryCount).toBe(5);
  });

  it("reads only the appended bytes when the file grew, and reports them in an event", async () => {
    const { file, store, id } = await imported(3);
    const events: StoreEvents["entries-added"][] = [];
    store.on("entries-added", (e) => events.push(e));
    fs.appendFileSync(file, line(userEntry("e3", "e2", "appended one", 3)) + line(toolResultEntry("e4", "e3", "bash", "appended two", 4)));
    const size = fs.statSync(file).size;
    const report = await store.importFile(file);
    expect(report).toMatchObject({ status: "appended", entriesAdded: 2 });
    expect(report.bytesRead).toBe(size - Buffer.byteLength(fs.readFileSync(file, "utf8").split("\n").slice(0, 4).join("\n") + "\n"));
    expect(events).toHaveLength(1);
    expect(events[0]!.entries.map((e) => e.id)).toEqual(["e3", "e4"]);
    expect(store.getLeaf(id)).toBe("e4");
    expect(store.getEntryInfo(id, "e4")).toMatchObject({ seq: 4, line: 6 });
    expect(store.getSession(id)!.entryCount).toBe(5);
  });

  it("a file rewritten in place is read again as a new generation of the same session", async () => {
    const { file, store, id } = await imported(4);
    store.setLeaf(id, "e1");
    writeSession(file, 2); // shorter: not an append
    fs.appendFileSync(file, line(userEntry("n2", "e1", "new branch", 9)));
    const report = await store.importFile(file);
    expect(report.status).toBe("reimported");
    expect(report.sessionId).toBe(id);
    expect(report.issues[0]!.kind).toBe("rewritten");
    const s = store.getSession(id)!;
    expect(s.generation).toBe(2);
    expect(store.loadEntries(id).map((e) => e.id)).toEqual(["e0", "e1", "n2"]);
    expect(store.getLeaf(id)).toBe("n2");
    expect(store.listSessions()).toHaveLength(1);
  });

  it("two files with the same session id stay two sessions", async () => {
    const dir = tempDir();
    const a = path.join(dir, "a.jsonl");
    const b = path.join(dir, "b.jsonl");
    writeSession(a, 2);
    writeSession(b, 3);
    const store = newStore(dir);
    const ra = await store.importFile(a);
    const rb = await store.importFile(b);
    expect(ra.sessionId).toBe(HEADER.id);
    expect(rb.sessionId).not.toBe(HEADER.id);
    expect(rb.sessionId!.startsWith(`${HEADER.id}-`)).toBe(true);
    expect(store.getSession(rb.sessionId!)!.headerId).toBe(HEADER.id);
    expect(store.resolveSessionId(HEADER.id)).toBe(HEADER.id);
  });

  it("importPaths scans folders recursively with progress, and stops when aborted", async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, "sessions", "--x-proj--"), { recursive: true });
    for (let i = 0; i < 4; i++) {
      const f = path.join(dir, "sessions", "--x-proj--", `s${i}.jsonl`);
      writeSession(f, 3);
      fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(HEADER.id, `sess-${i}`));
    }
    fs.writeFileSync(path.join(dir, "sessions", "notes.txt"), "not a session");
    const store = newStore(dir);
    const progress: number[] = [];
    const result = await store.importPaths([path.join(dir, "sessions")], { onProgress: (p) => progress.push(p.filesDone) });
    expect(result.filesTotal).toBe(4);
    expect(result.reports.map((r) => r.status)).toEqual(["imported", "imported", "imported", "imported"]);
    expect(progress[progress.length - 1]).toBe(4);
    expect(store.listSessions()).toHaveLength(4);

    const store2 = newStore(dir, "second.db");
    const controller = new AbortController();
    const partial = await store2.importPaths([path.join(dir, "sessions")], {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.filesDone === 2) controller.abort();
      },
    });
    expect(partial.aborted).toBe(true);
    expect(store2.listSessions()).toHaveLength(2);
  });
});

describe("sessions", () => {
  it("resolves full ids and unique prefixes, and explains ambiguous ones", async () => {
    const store = newStore();
    store.createSession({ id: "abc111", cwd: "/x" });
    store.createSession({ id: "abc222", cwd: "/x" });
    expect(store.resolveSessionId("abc111")).toBe("abc111");
    expect(store.resolveSessionId("abc2")).toBe("abc222");
    expect(() => store.resolveSessionId("abc")).toThrow(/matches 2 sessions: abc111, abc222/);
    expect(() => store.resolveSessionId("zzz")).toThrow(/no stored session matches "zzz"/);
  });

  it("keeps settings as JSON", () => {
    const store = newStore();
    expect(store.getSettingsJson()).toBeUndefined();
    store.saveSettingsJson({ theme: "dark", sessionDirs: ["/a"] });
    expect(store.getSettingsJson()).toEqual({ theme: "dark", sessionDirs: ["/a"] });
    store.saveSettingsJson({ theme: "light" });
    expect(store.getSettingsJson()).toEqual({ theme: "light" });
  });
});

describe("the stored text of each entry", () => {
  it("is the line as read: non-ASCII, invalid UTF-8 (replaced), CRLF endings, leading spaces, across pieces", async () => {
    const dir = tempDir();
    const file = path.join(dir, "mixed.jsonl");
    const parts: Buffer[] = [Buffer.from(line(HEADER))];
    let parent: string | null = null;
    for (let i = 0; i < 400; i++) {
      const id = `e${i}`;
      // non-ASCII lines in the first 64 KiB piece and again near the end; long lines so that the file spans several pieces
      const text = i < 60 || i > 380 ? `héllo ✓ 🌳 ${i} ${"ü".repeat(200)}` : `plain ${i} ${"x".repeat(400)}`;
      let bytes = Buffer.from(JSON.stringify(userEntry(id, parent, text, i)));
      const at = bytes.indexOf(` ${i} `) + 1;
      if (i % 7 === 3) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff, 0xc3]), bytes.subarray(at)]); // invalid UTF-8 inside the text
      if (i % 5 === 1) bytes = Buffer.concat([Buffer.from("  "), bytes]);
      parts.push(bytes, Buffer.from(i % 4 === 2 ? "\r\n" : "\n"));
      parent = id;
    }
    const raw = Buffer.concat(parts);
    fs.writeFileSync(file, raw);
    const expected = raw
      .toString("utf8")
      .split("\n")
      .slice(1, -1)
      .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));

    const store = newStore(dir);
    const report = await store.importFile(file);
    expect(report.status).toBe("imported");
    expect(report.entriesAdded).toBe(400);
    const id = report.sessionId as string;
    const rows = store.db
      .prepare("SELECT typeof(j.json) AS type, j.json, hex(j.json) AS hex FROM entries e JOIN entry_json j ON j.pk = e.pk WHERE e.session_id = ? ORDER BY e.seq")
      .all(id) as { type: string; json: string; hex: string }[];
    expect(rows.every((r) => r.type === "text")).toBe(true);
    expect(rows.map((r) => r.json)).toEqual(expected);
    // stored as the UTF-8 of the text (an invalid byte as U+FFFD), never as the file's raw bytes
    expect(rows.map((r) => r.hex)).toEqual(expected.map((t) => Buffer.from(t).toString("hex").toUpperCase()));
    expect(store.renderJsonl(id).split("\n").slice(1, -1)).toEqual(expected);
    expect((store.getEntry(id, "e399") as { message: { content: string } }).message.content).toBe(`héllo ✓ 🌳 399 ${"ü".repeat(200)}`);
  });
});
