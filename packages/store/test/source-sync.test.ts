/**
 * The source-file module's rules one by one (src/source/): line edits that keep every other byte,
 * appends that never tear a line (a deterministic torn write repaired), refusals that change
 * nothing, commits re-checked after the file is read up to date, the backup's checks, bad headers
 * and files that are not sessions reported without echoing their content.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseSessionText } from "@bonsai/core";
import { describe, expect, it } from "vitest";
import { BACKUP_SUFFIX, openStore, SourceBusyError, StaleCommitError, type FaultPoint } from "../src/index";
import { headerLineOf, LineMismatchError, moveToEnd, replaceLines } from "../src/source/line-edit";
import { HEADER, line, newStore, tempDir, toolResultEntry, userEntry } from "./support";

const B = (s: string): Buffer => Buffer.from(s, "utf8");

describe("line edits", () => {
  it("replace only the lines named, keeping BOM, \\r\\n, blank and broken lines and a missing final newline", () => {
    const text = "\uFEFF{\"h\":1}\r\n\n{broken\n{\"a\":1}\r\n{\"b\":2}";
    const out = replaceLines(B(text), new Map([
      [1, { text: '{"h":2}', expect: '{"h":1}' }],
      [4, { text: '{"a":9}', expect: '{"a":1}' }],
      [5, { text: '{"b":9}', expect: null }],
    ]));
    expect(out.toString("utf8")).toBe("\uFEFF{\"h\":2}\r\n\n{broken\n{\"a\":9}\r\n{\"b\":9}");
  });

  it("refuse a line that is not what the store expects, or is not there", () => {
    expect(() => replaceLines(B('{"a":1}\n'), new Map([[1, { text: "x", expect: '{"a":2}' }]]))).toThrow(LineMismatchError);
    expect(() => replaceLines(B('{"a":1}\n'), new Map([[2, { text: "x", expect: null }]]))).toThrow(/beyond the end/);
    expect(() => replaceLines(B('{"a":1}\n'), new Map([[1, { text: "x\ny", expect: null }]]))).toThrow(/line break/);
  });

  it("move a torn-in line after the other writer's line, and find the header line", () => {
    const torn = B('{"h":1}\n{"agent":"hal{"ours":1}\nf"}\n');
    const start = torn.indexOf('{"ours"');
    expect(moveToEnd(torn, start, start + '{"ours":1}\n'.length).toString()).toBe('{"h":1}\n{"agent":"half"}\n{"ours":1}\n');
    expect(headerLineOf(B('\n  \nnot json\n{"type":"session"}\n{"x":1}\n'))).toBe(4);
    expect(headerLineOf(B("nothing\n"))).toBe(0);
  });
});

async function imported(text: string, options: { fault?: (p: FaultPoint) => void } = {}) {
  const dir = tempDir();
  const file = path.join(dir, "s.jsonl");
  fs.writeFileSync(file, text);
  const store = openStore({ path: path.join(dir, "bonsai.db"), ...options });
  const id = (await store.importFile(file)).sessionId as string;
  return { dir, file, store, id };
}

const SMALL = line(HEADER) + line(userEntry("a", null, "first")) + line(userEntry("b", "a", "second", 1));

describe("appends", () => {
  it("a line another writer begins between Bonsai's look and its write is repaired: both lines whole", async () => {
    let file = "";
    const agentRest = '"late agent line"}}\n';
    const agentHalf = `{"type":"message","id":"agentx","parentId":"b","timestamp":"2025-01-01T00:00:09.000Z","message":{"role":"user","content":`;
    const t = await imported(SMALL, {
      fault: (p) => {
        if (p !== "append:before-write") return;
        // the agent starts its line just before Bonsai writes, and finishes it a moment later
        fs.appendFileSync(file, agentHalf);
        spawn(process.execPath, ["-e", `setTimeout(() => require("fs").appendFileSync(${JSON.stringify(file)}, ${JSON.stringify(agentRest)}), 150)`], { stdio: "ignore" });
      },
    });
    file = t.file;
    const e = t.store.appendEntry(t.id, { type: "custom", customType: "mark", data: {} });
    const parsed = parseSessionText(fs.readFileSync(t.file, "utf8"));
    expect(parsed.issues).toEqual([]);
    expect(parsed.entries.map((x) => x.id)).toEqual(["a", "b", "agentx", e.id]);
    await t.store.importFile(t.file);
    expect(t.store.loadEntries(t.id).map((x) => x.id)).toEqual(["a", "b", "agentx", e.id]);
    t.store.close();
  });

  it.skipIf(process.platform !== "linux")("the repair of a torn append waits while the other writer still holds the file open, then both lines are whole", async () => {
    let file = "";
    const agentRest = '"held agent line"}}\n';
    const agentHalf = `{"type":"message","id":"agenty","parentId":"b","timestamp":"2025-01-01T00:00:09.000Z","message":{"role":"user","content":`;
    // the other writer finishes its line through a descriptor it keeps open for 3 s: a rewrite
    // is refused meanwhile ("keeps it open for writing"), so the repair must wait for it
    const holder = `const fs = require("fs"); const fd = fs.openSync(${JSON.stringify("FILE")}, "a"); setTimeout(() => fs.writeSync(fd, ${JSON.stringify(agentRest)}), 150); setTimeout(() => fs.closeSync(fd), 3000);`;
    const t = await imported(SMALL, {
      fault: (p) => {
        if (p !== "append:before-write") return;
        fs.appendFileSync(file, agentHalf);
        spawn(process.execPath, ["-e", holder.replace(JSON.stringify("FILE"), JSON.stringify(file))], { stdio: "ignore" });
      },
    });
    file = t.file;
    const e = t.store.appendEntry(t.id, { type: "custom", customType: "mark", data: {} });
    const parsed = parseSessionText(fs.readFileSync(t.file, "utf8"));
    expect(parsed.issues).toEqual([]);
    expect(parsed.entries.map((x) => x.id)).toEqual(["a", "b", "agenty", e.id]);
    expect(t.store.db.prepare("SELECT count(*) FROM source_intents").pluck().get()).toBe(0);
    t.store.close();
  }, 30_000);

  it("a last line that stays incomplete is not appended after: refused, nothing written", async () => {
    const t = await imported(`${SMALL}{"type":"message","id":"cut`);
    const before = fs.readFileSync(t.file);
    expect(() => t.store.appendEntry(t.id, { type: "custom", customType: "x", data: {} })).toThrow(SourceBusyError);
    expect(() => t.store.appendEntry(t.id, { type: "custom", customType: "x", data: {} })).toThrow(/being written by a running agent; try again when it is idle/);
    expect(fs.readFileSync(t.file).equals(before)).toBe(true);
    expect(t.store.db.prepare("SELECT count(*) FROM source_intents").pluck().get()).toBe(0);
    t.store.close();
  });

  it("a writer that never stops mid-line: the append gives up within its time bound, refused, nothing written", async () => {
    const t = await imported(`${SMALL}{"type":"message","id":"slow`);
    // a line that grows by a byte every 200 ms and never ends: every look finds the file moved
    const trickle = spawn(process.execPath, ["-e", `setInterval(() => require("fs").appendFileSync(${JSON.stringify(t.file)}, "x"), 200)`], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(() => t.store.appendEntry(t.id, { type: "custom", customType: "x", data: {} })).toThrow(/never held still at the end of a line/);
    } finally {
      trickle.kill("SIGKILL");
    }
    const text = fs.readFileSync(t.file, "utf8");
    expect(text.startsWith(`${SMALL}{"type":"message","id":"slow`)).toBe(true);
    expect(text.slice(SMALL.length)).toMatch(/^\{"type":"message","id":"slowx*$/);
    expect(t.store.db.prepare("SELECT count(*) FROM source_intents").pluck().get()).toBe(0);
    t.store.close();
  }, 30_000);

  it("a compaction planned before the agent moved on is refused with what changed; nothing is written", async () => {
    const t = await imported(SMALL);
    const planned = t.store.getLeaf(t.id);
    fs.appendFileSync(t.file, line(userEntry("c", "b", "the agent went on", 2)));
    const before = fs.readFileSync(t.file);
    const body = { type: "compaction", summary: "s", firstKeptEntryId: "b", tokensBefore: 10 };
    expect(() => t.store.appendEntry(t.id, body, { expect: { leafId: planned, onPath: ["b"] } })).toThrow(StaleCommitError);
    expect(() => t.store.appendEntry(t.id, body, { expect: { leafId: planned, onPath: ["b"] } })).toThrow(/planned from b.*the leaf is now c.*Nothing was written/);
    expect(fs.readFileSync(t.file).equals(before)).toBe(true);
    // planned again from the new leaf: appended
    const ok = t.store.appendEntry(t.id, body, { expect: { leafId: "c", onPath: ["b"] } });
    expect(ok.parentId).toBe("c");
    t.store.close();
  });

  it("compact by stored id after the agent rewrote the file: refused, not hung off the new last entry", async () => {
    const t = await imported(SMALL);
    const planned = t.store.getLeaf(t.id);
    // the agent truncates and rewrites its file (other entries, same header)
    fs.writeFileSync(t.file, line(HEADER) + line(userEntry("n1", null, "new start", 5)));
    const body = { type: "compaction", summary: "s", firstKeptEntryId: "a", tokensBefore: 10 };
    expect(() => t.store.appendEntry(t.id, body, { expect: { leafId: planned, onPath: ["a"] } })).toThrow(/planned from b, which is no longer in the session/);
    expect(() => t.store.appendEntry(t.id, body, { expect: { leafId: "n1", onPath: ["a"] } })).toThrow(/entry a is no longer on the path to n1/);
    expect(parseSessionText(fs.readFileSync(t.file, "utf8")).entries.map((e) => e.id)).toEqual(["n1"]);
    t.store.close();
  });

  it("a label whose target disappeared with a rewrite is refused", async () => {
    const t = await imported(SMALL);
    fs.writeFileSync(t.file, line(HEADER) + line(userEntry("n1", null, "new", 5)));
    expect(() => t.store.appendLabel(t.id, "a", "x")).toThrow(/Entry a not found|no longer in it/);
    t.store.close();
  });
});

/** a session with large tool outputs: pruning rewrites the file */
function prunable(): string {
  let text = line(HEADER);
  let parent: string | null = null;
  for (let i = 0; i < 12; i++) {
    text += line(userEntry(`u${i}`, parent, `step ${i}`, i * 2));
    text += line(toolResultEntry(`t${i}`, `u${i}`, "bash", `out${i} `.repeat(12_000), i * 2 + 1));
    parent = `t${i}`;
  }
  return text;
}

async function prune(store: ReturnType<typeof openStore>, id: string): Promise<number> {
  const { applyPruning, planPruning } = await import("@bonsai/core");
  const p = store.getPath(id);
  return store.applyPruning(id, applyPruning(p, planPruning(p), 5));
}

describe("bytes a writer put into the replaced file", () => {
  const agentLine = (id: string, parentId: string, text: string) => line(userEntry(id, parentId, text, 99)).trimEnd();

  async function rewriteWithLateWrites(beforeRename: (file: string) => void, afterRename: (file: string) => void, whileSettling?: (file: string) => void) {
    let file = "";
    // the prune's own rename only (the carry-over is a rewrite too, with the same fault points)
    let before = 0;
    let after = 0;
    let settling = 0;
    const t = await imported(prunable(), {
      fault: (p) => {
        if (p === "rewrite:temp-written" && settling++ === 0) whileSettling?.(file);
        if (p === "rewrite:before-rename" && before++ === 0) beforeRename(file);
        if (p === "rewrite:after-rename" && after++ === 0) afterRename(file);
      },
    });
    file = t.file;
    expect(await prune(t.store, t.id)).toBeGreaterThan(0);
    const parsed = parseSessionText(fs.readFileSync(t.file, "utf8"));
    await t.store.importFile(t.file);
    const stored = t.store.loadEntries(t.id).map((e) => e.id);
    t.store.close();
    return { parsed, stored };
  }

  it("a line begun in the old file and finished in the new one (one line in two writes) is whole again, in its place", async () => {
    const first = agentLine("late1", "mid1", "begun before the rename");
    const cut = 3;
    const { parsed, stored } = await rewriteWithLateWrites(
      // the agent opened the file before the rename and wrote the start of its line...
      (file) => {
        const fd = fs.openSync(file, "a");
        fs.writeSync(fd, first.slice(0, cut));
        fs.closeSync(fd);
      },
      // ...and the rest (opening the path again: the new file), then its next line
      (file) => fs.appendFileSync(file, `${first.slice(cut)}\n${agentLine("late2", "late1", "after the rename")}\n`),
      // a line the rewrite takes in while it settles (the new file is longer than what was rendered)
      (file) => fs.appendFileSync(file, `${agentLine("mid1", "t11", "while Bonsai settles")}\n`),
    );
    expect(parsed.issues).toEqual([]);
    expect(parsed.entries.map((e) => e.id).slice(-4)).toEqual(["t11", "mid1", "late1", "late2"]);
    expect(stored.slice(-4)).toEqual(["t11", "mid1", "late1", "late2"]);
  }, 30_000);

  it("a whole line written to the old file comes before the lines the new file received after it", async () => {
    const { parsed } = await rewriteWithLateWrites(
      (file) => fs.appendFileSync(file, `${agentLine("late1", "t11", "written to the old file")}\n`),
      (file) => fs.appendFileSync(file, `${agentLine("late2", "late1", "written to the new file")}\n`),
    );
    expect(parsed.issues).toEqual([]);
    expect(parsed.entries.map((e) => e.id).slice(-3)).toEqual(["t11", "late1", "late2"]);
  }, 30_000);
});

describe("the backup", () => {
  it("is written before the first rewrite, recorded, and whole; later rewrites keep it", async () => {
    const t = await imported(prunable());
    const original = fs.readFileSync(t.file);
    expect(await prune(t.store, t.id)).toBeGreaterThan(0);
    const backup = `${t.file}${BACKUP_SUFFIX}`;
    expect(fs.readFileSync(backup).equals(original)).toBe(true);
    expect(t.store.db.prepare("SELECT size, rewritten FROM source_backups").get()).toEqual({ size: original.length, rewritten: 1 });
    t.store.restorePruned(t.id);
    expect(fs.readFileSync(t.file).equals(original)).toBe(true);
    expect(fs.readFileSync(backup).equals(original)).toBe(true);
    t.store.close();
  });

  it("a copy cut short by an older Bonsai (a prefix of the file) is taken again whole", async () => {
    const t = await imported(prunable());
    const original = fs.readFileSync(t.file);
    fs.writeFileSync(`${t.file}${BACKUP_SUFFIX}`, original.subarray(0, 5000));
    await prune(t.store, t.id);
    expect(fs.readFileSync(`${t.file}${BACKUP_SUFFIX}`).equals(original)).toBe(true);
    t.store.close();
  });

  it("a copy that is not of this file is never relied on: the rewrite is refused, nothing changes", async () => {
    const t = await imported(prunable());
    const original = fs.readFileSync(t.file);
    fs.writeFileSync(`${t.file}${BACKUP_SUFFIX}`, "something else\n");
    await expect(prune(t.store, t.id)).rejects.toThrow(/is not a copy of this session file.*move it aside/);
    expect(fs.readFileSync(t.file).equals(original)).toBe(true);
    expect(t.store.listPruned(t.id)).toEqual([]);
    expect(t.store.getSkeleton(t.id).nodes.some((n) => n.pruned)).toBe(false);
    t.store.close();
  });

  it("damaged after the file was rewritten: further rewrites are refused; removed by the user: taken again", async () => {
    const t = await imported(prunable());
    await prune(t.store, t.id);
    const backup = `${t.file}${BACKUP_SUFFIX}`;
    fs.appendFileSync(backup, "tampered\n");
    const now = fs.readFileSync(t.file);
    expect(() => t.store.restorePruned(t.id)).toThrow(/backup .* is damaged .* move it aside/);
    expect(fs.readFileSync(t.file).equals(now)).toBe(true);
    fs.rmSync(backup);
    expect(t.store.restorePruned(t.id)).toBeGreaterThan(0);
    expect(fs.readFileSync(backup).equals(now)).toBe(true);
    t.store.close();
  });
});

describe("what import reports say", () => {
  it("a file that is not a session is reported without a word of its content", async () => {
    const store = newStore();
    const dir = tempDir();
    const secret = path.join(dir, "notes.jsonl");
    fs.writeFileSync(secret, '{"type":"api-key","value":"sk-secret-123"}\nAWS_SECRET=hunter2\n');
    const report = await store.importFile(secret);
    expect(report.status).toBe("not-a-session");
    expect(JSON.stringify(report)).not.toMatch(/secret|hunter2|api-key/);
    expect(JSON.stringify(store.getImportReports(secret))).not.toMatch(/secret|hunter2|api-key/);
  });

  it('bad header fields ("version":"three", {} or [] for timestamp or cwd) get a clear report, never a raw SQLite message', async () => {
    const store = newStore();
    const dir = tempDir();
    const write = (name: string, header: Record<string, unknown>): string => {
      const f = path.join(dir, name);
      fs.writeFileSync(f, line({ ...HEADER, ...header }) + line(userEntry("a", null, "x")));
      return f;
    };
    const three = await store.importFile(write("v.jsonl", { version: "three" }));
    expect(three.status).toBe("not-a-session");
    expect(three.message).toMatch(/"version" is text, not a whole number/);
    for (const [name, header] of [
      ["cwd.jsonl", { cwd: {} }],
      ["ts.jsonl", { timestamp: [] }],
      ["both.jsonl", { cwd: [], timestamp: {}, title: 5 }],
    ] as const) {
      const r = await store.importFile(write(name, header));
      expect(r.status, r.message).toBe("imported");
      expect(r.issues.map((i) => i.message).join(" ")).toMatch(/is (an object|a list|a number), not text: shown as empty/);
      expect(JSON.stringify(r)).not.toMatch(/bind|SQLite/i);
    }
  });
});
