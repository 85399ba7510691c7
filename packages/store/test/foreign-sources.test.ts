/**
 * Claude Code and Codex files in the store: every real file of ../shared/fixtures/real imports
 * read-only with exactly what its reader gives (entries, leaf, compactions where the reader puts
 * them), comes back byte for byte, gives the same context from the store as from the file, is
 * searchable, and is followed as it grows (appends cost what they add; after a reopen the file is
 * matched by id). Every write is refused and the file is never touched.
 */
import fs from "node:fs";
import path from "node:path";
import { buildSessionContext, type SessionEntry } from "@bonsai/core";
import { claudeCodeReader, codexReader, type SessionReader } from "@bonsai/formats";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { openStore, ReadOnlySessionError } from "../src/index";
import { FIXTURES, newStore, sha256File, tempDir } from "./support";

const REAL = path.join(FIXTURES, "real");
const READERS: Record<"claude-code" | "codex", SessionReader> = { "claude-code": claudeCodeReader, codex: codexReader };
const FILES = (["claude-code", "codex"] as const).flatMap((agent) => {
  const dir = path.join(REAL, agent);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((name) => ({ agent, name, file: path.join(dir, name) })) : [];
});
const SKIP = FILES.length === 0 ? `real Claude Code / Codex sessions not found at ${REAL}: skipped` : "";
if (SKIP) console.warn(SKIP);

/** compactions per file, from the README's tables (Claude Code compact_boundary lines, Codex compacted lines) */
const COMPACTIONS: Record<string, number> = {
  "entireio__cli__cd_95adddad32": 3,
  "entireio__cli__b0_dc55b3a1dc": 1,
  "EntityProcess__agentv__00_34f597b72d": 2,
  "ta93abe__me__0e_9c08d8603f": 1,
};
function compactionsOf(name: string): number {
  const key = Object.keys(COMPACTIONS).find((k) => name.startsWith(k));
  return key ? (COMPACTIONS[key] as number) : name.startsWith("entireio__cli__") ? -1 : 0;
}

function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function contextOf(entries: readonly SessionEntry[], leafId: string | null): unknown {
  const c = buildSessionContext(entries, leafId);
  return plain({ messages: c.messages, thinkingLevel: c.thinkingLevel, models: c.models });
}

describe.skipIf(SKIP !== "")("every real Claude Code and Codex file in the store", () => {
  for (const { agent, name, file } of FILES) {
    it(`${agent}/${name.slice(0, 50)}: read-only, the reader's tree, byte for byte, same context`, async () => {
      const text = fs.readFileSync(file, "utf8");
      const before = sha256File(file);
      const read = READERS[agent].read(text);
      const store = newStore();
      const report = await store.importFile(file);
      expect(report.status).toBe("imported");
      const id = report.sessionId as string;
      const summary = store.getSession(id);
      expect(summary).toMatchObject({ agent, sourceFormat: agent, sourcePath: file, leafId: read.leafId, entryCount: read.entries.length, detached: null });
      expect(summary?.readOnly).toMatch(/never writes/);
      const expected = compactionsOf(name);
      expect(summary?.compactionCount).toBe(expected >= 0 ? expected : read.stats.compactions);
      expect(summary?.compactionCount).toBe(read.stats.compactions);

      // the stored tree is the reader's: entries, and the compaction nodes where the reader puts them
      expect(store.loadEntries(id)).toEqual(plain(read.entries));
      const compactions = store.getSkeleton(id).nodes.filter((n) => n.type === "compaction");
      expect(compactions.map((n) => [n.id, n.parentId, n.tokensBefore])).toEqual(
        read.entries.filter((e) => e.type === "compaction").map((e) => [e.id, e.parentId, (e as { tokensBefore: number }).tokensBefore]),
      );
      // agent events are titled by the agent's own line kind
      const event = store.getSkeleton(id).nodes.find((n) => n.type === "agent_event");
      if (event) expect(event.customType).toBeTruthy();

      // the agent's file, byte for byte
      expect(store.renderJsonl(id)).toBe(text);
      // what the model sees from the leaf: the store's shortcut path gives what the whole file gives
      expect(contextOf(store.getContextEntries(id), read.leafId)).toEqual(contextOf(read.entries, read.leafId));
      // the formats layer's view of the stored session
      const again = store.readSession(id);
      expect(again).toMatchObject({ format: agent, agent, leafId: read.leafId, readOnly: true, stats: read.stats });
      // its pi copy, from the store: pi's own SessionManager opens it and builds a context
      const home = tempDir();
      const copy = await store.continueInPi(id, { env: { PI_CODING_AGENT_DIR: path.join(home, "agent") }, home });
      const manager = SessionManager.open(copy.file, path.dirname(copy.file));
      expect(manager.getEntries()).toHaveLength(copy.entryCount);
      expect(manager.buildSessionContext().messages.length).toBeGreaterThan(0);
      expect(store.getSession(copy.sessionId)?.compactionCount).toBe(read.stats.compactions);
      expect(sha256File(file)).toBe(before);
    });
  }

  it("finds words of Claude Code and Codex sessions (search index of the entries' text)", async () => {
    const store = newStore();
    for (const { file } of FILES) await store.importFile(file);
    const hits = store.search("compaction");
    expect(hits.length).toBeGreaterThan(0);
    const agents = new Set(hits.map((h) => store.getSession(h.sessionId)?.agent));
    expect([...agents].some((a) => a === "claude-code" || a === "codex")).toBe(true);
  });

  it("links a Codex sub-agent rollout to its parent thread", async () => {
    const child = FILES.find((f) => f.name.startsWith("iampkuhz__feipi-session-browser"));
    if (!child) return;
    const store = newStore();
    const report = await store.importFile(child.file);
    expect(store.getSession(report.sessionId as string)?.parentSession).toBe("019ede24-67de-7b11-b46f-7922530907a9");
  });
});

/** Writes `text` to `file` in pieces of complete and broken lines, importing after each piece. */
async function growAndImport(store: ReturnType<typeof newStore>, file: string, text: string, pieces: number, reopen?: () => ReturnType<typeof newStore>): Promise<{ reports: { status: string; bytesRead: number }[]; store: ReturnType<typeof newStore> }> {
  const reports: { status: string; bytesRead: number }[] = [];
  const step = Math.ceil(text.length / pieces);
  let current = store;
  for (let pos = 0; pos < text.length; pos += step) {
    fs.appendFileSync(file, text.slice(pos, pos + step));
    const r = await current.importFile(file);
    reports.push({ status: r.status, bytesRead: r.bytesRead });
    if (reopen && reports.length % 3 === 0) current = reopen();
  }
  return { reports, store: current };
}

describe.skipIf(SKIP !== "")("a growing Claude Code or Codex file (live follow)", () => {
  const growing = FILES.filter((f) => /b0_dc55b3a1dc|cd_95adddad32|EntityProcess__agentv|ta93abe__me__1b/.test(f.name));

  for (const { agent, name, file: real } of growing) {
    it(`${agent}/${name.slice(0, 40)}: appended in pieces, the store ends with what a whole read gives`, async () => {
      const text = fs.readFileSync(real, "utf8");
      const dir = tempDir();
      const file = path.join(dir, "session.jsonl");
      fs.writeFileSync(file, "");
      const store = newStore(dir);
      const { reports } = await growAndImport(store, file, text, 23);
      // after the first read, every piece is an append that reads only the bytes added
      const appends = reports.filter((r) => r.status === "appended");
      expect(appends.length).toBeGreaterThan(15);
      // each append reads what was added (one piece, and the line end a complete last line owed), not the file
      const piece = Math.ceil(Buffer.byteLength(text) / 23) * 4;
      for (const r of appends) expect(r.bytesRead).toBeLessThanOrEqual(piece);
      expect(reports.filter((r) => r.status === "reimported")).toEqual([]);
      const sessionId = store.listSessions()[0]?.id as string;
      const whole = READERS[agent].read(text);
      expect(store.loadEntries(sessionId)).toEqual(plain(whole.entries));
      expect(store.getLeaf(sessionId)).toBe(whole.leafId);
      expect(store.getSession(sessionId)?.compactionCount).toBe(whole.stats.compactions);
      expect(store.renderJsonl(sessionId)).toBe(text);
      // microcompactions mark earlier tool outputs pruned, as a whole read does
      const pruned = (s: readonly { pruned?: boolean; id: string }[]) => s.filter((n) => n.pruned).map((n) => n.id);
      const fresh = newStore();
      const wholeImport = await fresh.importFile(real);
      expect(pruned(store.getSkeleton(sessionId).nodes)).toEqual(pruned(fresh.getSkeleton(wholeImport.sessionId as string).nodes));
    });
  }

  it("after a reopen (no reader in memory) the file is read once more and matched by id", async () => {
    const one = growing[0];
    if (!one) return;
    const text = fs.readFileSync(one.file, "utf8");
    const dir = tempDir();
    const file = path.join(dir, "session.jsonl");
    fs.writeFileSync(file, "");
    const dbPath = path.join(dir, "bonsai.db");
    const first = openStore({ path: dbPath });
    const stores = [first];
    const { store } = await growAndImport(first, file, text, 11, () => {
      stores[stores.length - 1]?.close();
      const next = openStore({ path: dbPath });
      stores.push(next);
      return next;
    });
    try {
      const sessionId = store.listSessions()[0]?.id as string;
      const whole = READERS[one.agent].read(text);
      expect(store.loadEntries(sessionId)).toEqual(plain(whole.entries));
      expect(store.getSession(sessionId)?.generation).toBe(1);
    } finally {
      store.close();
    }
  });

  it("a follower takes in what a Claude Code file gains and reports it as entries added", async () => {
    const one = growing.find((f) => f.agent === "claude-code");
    if (!one) return;
    const lines = fs.readFileSync(one.file, "utf8").split("\n");
    const dir = tempDir();
    const file = path.join(dir, "session.jsonl");
    fs.writeFileSync(file, `${lines.slice(0, 200).join("\n")}\n`);
    const store = newStore(dir);
    const id = (await store.importFile(file)).sessionId as string;
    const before = store.getSession(id)?.entryCount as number;
    const added: string[] = [];
    store.on("entries-added", (e) => added.push(...e.entries.map((x) => x.id)));
    const follower = store.follow({ sessionIds: [id], pollIntervalMs: 30 });
    try {
      fs.appendFileSync(file, `${lines.slice(200, 260).join("\n")}\n`);
      const deadline = Date.now() + 10_000;
      while (store.getSession(id)?.entryCount === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 30));
      expect(store.getSession(id)?.entryCount).toBeGreaterThan(before);
      expect(added.length).toBeGreaterThan(0);
    } finally {
      follower.close();
    }
  });
});

describe.skipIf(SKIP !== "")("Bonsai never writes a Claude Code or Codex file", () => {
  it("refuses every write with one sentence and leaves the file, its folder and the journal as they were", async () => {
    const dir = tempDir();
    const src = FILES.find((f) => f.name.startsWith("entireio__cli__b0_dc55b3a1dc")) ?? FILES[0];
    if (!src) return;
    const file = path.join(dir, "transcript.jsonl");
    fs.copyFileSync(src.file, file);
    const bytes = fs.readFileSync(file);
    const listing = fs.readdirSync(dir).sort();
    const store = newStore(tempDir());
    const id = (await store.importFile(file)).sessionId as string;
    const leaf = store.getLeaf(id) as string;
    const result = store.loadEntries(id).find((e) => e.type === "message" && (e as { message: { role: string } }).message.role === "toolResult") as SessionEntry;
    const attempts: (() => unknown)[] = [
      () => store.appendEntry(id, { type: "compaction", summary: "s", firstKeptEntryId: leaf, tokensBefore: 1 }),
      () => store.appendLabel(id, leaf, "mine"),
      () => store.appendEntry(id, { type: "message", message: { role: "user", content: "hi", timestamp: 1 } }),
      () => store.applyPruning(id, [{ entryId: result.id, message: { role: "toolResult", content: [], prunedAt: 1 } }]),
      () => store.restorePruned(id),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow(ReadOnlySessionError);
      expect(attempt).toThrow(/never writes.*continue it in pi/);
    }
    // moving the leaf is Bonsai's own (nothing is written, as for pi sessions)
    store.setLeaf(id, leaf);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(listing);
    expect(store.db.prepare("SELECT count(*) FROM source_intents").pluck().get()).toBe(0);
    expect(store.db.prepare("SELECT count(*) FROM source_backups").pluck().get()).toBe(0);
    expect(store.getSession(id)?.entryCount).toBe(store.loadEntries(id).length);
  });
});

describe("files no reader knows", () => {
  it("get one sentence saying what they look like, and nothing is stored", async () => {
    const dir = tempDir();
    const file = path.join(dir, "app-log.jsonl");
    fs.writeFileSync(file, `${JSON.stringify({ level: "info", msg: "started", ts: 1 })}\n${JSON.stringify({ level: "warn", msg: "slow", ts: 2 })}\n`);
    const store = newStore(dir);
    const report = await store.importFile(file);
    expect(report.status).toBe("not-a-session");
    // one sentence that quotes nothing of the file (reports reach the browser window)
    expect(report.message).toMatch(/^not a session file: it is JSON lines but no session format Bonsai knows \(its first line is an object with 3 keys\); Bonsai reads pi \/ oh-my-pi sessions, Claude Code transcripts and Codex rollouts$/);
    expect(report.message).not.toMatch(/started|level|msg/);
    expect(store.listSessions()).toEqual([]);
  });
});

describe.skipIf(SKIP !== "")("Continue in pi", () => {
  for (const prefix of ["entireio__cli__cd_95adddad32", "EntityProcess__agentv"]) {
    it(`${prefix}: a new pi session in pi's folder for the cwd, imported and writable; the source untouched`, async () => {
      const src = FILES.find((f) => f.name.startsWith(prefix));
      if (!src) return;
      const before = sha256File(src.file);
      const home = tempDir();
      const env = { PI_CODING_AGENT_DIR: path.join(home, "agent") };
      const store = newStore();
      const id = (await store.importFile(src.file)).sessionId as string;
      const source = store.getSession(id);
      const copy = await store.continueInPi(id, { env, home });
      const cwd = source ? store.getHeader(id).cwd : "";
      expect(path.dirname(copy.file)).toBe(path.join(home, "agent", "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`));
      expect(path.basename(copy.file)).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z_${copy.sessionId}\\.jsonl$`));
      const summary = store.getSession(copy.sessionId);
      expect(summary).toMatchObject({ agent: "pi", sourceFormat: "pi-jsonl", readOnly: null, parentSession: src.file, sourcePath: copy.file });
      expect(summary?.compactionCount).toBe(source?.compactionCount);
      expect(copy.entryCount).toBe(summary?.entryCount);

      // pi opens and resumes it
      const manager = SessionManager.open(copy.file, path.dirname(copy.file));
      expect(manager.getHeader()?.id).toBe(copy.sessionId);
      expect(manager.buildSessionContext().messages.length).toBeGreaterThan(0);

      // Bonsai writes the copy like any pi session (a label here), never the source
      store.appendLabel(copy.sessionId, summary?.leafId as string, "continued");
      expect(fs.readFileSync(copy.file, "utf8")).toContain('"label":"continued"');
      expect(sha256File(src.file)).toBe(before);
      // a second copy is a second file, never the first one replaced
      const second = await store.continueInPi(id, { env, home });
      expect(second.file).not.toBe(copy.file);
      expect(fs.readFileSync(copy.file, "utf8")).toContain('"label":"continued"');
    });
  }
});
