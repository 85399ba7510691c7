/**
 * The store commands of the built CLI (import, ls, export, search) and stored session ids in the
 * read commands, against a real database in a temp dir (BONSAI_DB).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@bonsai/store";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const largeSession = path.resolve(root, "../shared/fixtures/large-session.jsonl");
let dir = "";
let db = "";

function run(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir, env: { ...process.env, BONSAI_DB: db, BONSAI_DEBUG: "", HOME: dir } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const line = (v: unknown): string => `${JSON.stringify(v)}\n`;
const ts = (i: number): string => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();

function writeSession(name: string, id: string, texts: string[]): string {
  const file = path.join(dir, "sessions", name);
  mkdirSync(path.dirname(file), { recursive: true });
  let text = line({ type: "session", version: 3, id, timestamp: ts(0), cwd: "/work/p" });
  texts.forEach((t, i) => {
    text += line({ type: "message", id: `${id}-e${i}`, parentId: i === 0 ? null : `${id}-e${i - 1}`, timestamp: ts(i + 1), message: { role: "user", content: t, timestamp: i } });
  });
  writeFileSync(file, text);
  return file;
}

beforeAll(() => {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-store-"));
  db = path.join(dir, "data", "bonsai.db");
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("bonsai import / ls / search / export", () => {
  it("works end to end on a folder of sessions", () => {
    expect(run("ls").stderr).toMatch(/^bonsai: no Bonsai database at .*bonsai\.db yet/);
    const a = writeSession("--work-p--/a.jsonl", "aaaa1111", ["refactor the parser module", "now add tests for the lexer"]);
    writeSession("--work-p--/b.jsonl", "bbbb2222", ["what is the weather"]);
    writeFileSync(path.join(dir, "sessions", "notes.jsonl"), line({ type: "summary", summary: "not pi" }));

    const imported = run("import", path.join(dir, "sessions"));
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/imported +.*a\.jsonl -> aaaa1111: 2 entries/);
    expect(imported.stdout).toMatch(/not-a-session .*notes\.jsonl/);
    expect(imported.stdout).toMatch(/3 files: 2 imported, 1 not-a-session/);
    expect(existsSync(db)).toBe(true);
    // the import indexes nothing for search (not even between its files): the first search does
    const stored = openStore({ path: db });
    expect(stored.unindexedCount()).toBe(3);
    stored.close();
    expect(run("import", path.join(dir, "sessions")).stdout).toMatch(/2 unchanged/);

    const ls = run("ls", "--json");
    expect(ls.code).toBe(0);
    const sessions = JSON.parse(ls.stdout) as { id: string; entryCount: number; firstMessage: string }[];
    expect(sessions.map((s) => s.id).sort()).toEqual(["aaaa1111", "bbbb2222"]);
    expect(sessions.find((s) => s.id === "aaaa1111")).toMatchObject({ entryCount: 2, firstMessage: "refactor the parser module" });
    expect(run("ls").stdout).toMatch(/aaaa1111 +pi +.* 2 +0 +14 {2}refactor the parser module {2}\[\/work\/p\]/);
    // a title given in the app shows in ls (the app's own store writes it; the file keeps its header)
    const store = openStore({ path: db });
    store.setSessionTitle("aaaa1111", "Parser rewrite");
    store.close();
    expect(run("ls").stdout).toMatch(/aaaa1111 +pi +.* 2 +0 +14 {2}Parser rewrite {2}\[\/work\/p\]/);
    expect((JSON.parse(run("ls", "--json").stdout) as { id: string; title: string; titleInBonsai?: boolean }[]).find((s) => s.id === "aaaa1111")).toMatchObject({
      title: "Parser rewrite",
      titleInBonsai: true,
    });

    const searched = run("search", "lexer", "--json");
    expect(searched.stderr).toBe(""); // a few entries to index: nothing to say
    const hits = JSON.parse(searched.stdout) as { sessionId: string; entryId: string; snippet: string }[];
    expect(hits).toEqual([expect.objectContaining({ sessionId: "aaaa1111", entryId: "aaaa1111-e1", snippet: "now add tests for the [lexer]" })]);
    expect(run("search", "weather").stdout).toMatch(/^bbbb2222 +bbbb2222-e0 +user +what is the \[weather\]/);
    expect(run("search", "nothing-like-this").stdout).toBe('no matches for "nothing-like-this"\n');
    expect(run("search", "weather", "--session", "aaaa").stdout).toMatch(/no matches/);

    // export by unique prefix: the same bytes as the source (v3 lines kept exactly)
    const out = path.join(dir, "out.jsonl");
    const exported = run("export", "aaaa", "-o", out);
    expect(exported.code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(a, "utf8"));
    expect(run("export", "bbbb").stdout).toBe(readFileSync(path.join(dir, "sessions", "--work-p--/b.jsonl"), "utf8"));
    const md = run("export", "aaaa1111", "--format", "md").stdout;
    expect(md).toContain("## User\n\nnow add tests for the lexer");

    // the read commands take stored ids too
    const context = JSON.parse(run("context", "aaaa", "--json").stdout) as { entryIds: string[] };
    expect(context.entryIds).toEqual(["aaaa1111-e0", "aaaa1111-e1"]);
  });

  it("search indexes what import left unindexed, and says so on stderr when that is a lot", () => {
    // `bonsai import` never indexes for search: the first search does (20,000 entries: about a second)
    const many = Array.from({ length: 20_000 }, (_, i) => (i === 19_999 ? "the very last quokkaword prompt" : `prompt number ${i}`));
    writeSession("--work-q--/many.jsonl", "cccc3333", many);
    expect(run("import", path.join(dir, "sessions", "--work-q--")).code).toBe(0);
    const first = run("search", "quokkaword");
    expect(first.stderr).toBe("indexing 20,000 entries for search (once, for the entries imported since the last search)\n");
    expect(first.stdout).toMatch(/^cccc3333 +cccc3333-e19999 +user +the very last \[quokkaword\] prompt/);
    const again = run("search", "quokkaword");
    expect(again.stderr).toBe("");
    expect(again.stdout).toBe(first.stdout);
  });

  it("reports mistakes in one line", () => {
    const bad = run("export", "zzzz");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('bonsai: zzzz: no such file, and no stored session matches "zzzz" (run "bonsai ls" to see them)\n');
    expect(run("export", "aaaa", "--format", "pdf").stderr).toMatch(/^bonsai: --format must be jsonl, md, pi or html/);
    expect(run("import", path.join(dir, "missing.jsonl")).stderr).toMatch(/^bonsai: .*missing\.jsonl: no such file or directory\n$/);
    const notSession = path.join(dir, "plain.jsonl");
    writeFileSync(notSession, "[]\n");
    const r = run("import", notSession);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^bonsai: .*plain\.jsonl: not a session/);
    expect(run("search", " ").code).toBe(2);
  });

  it.skipIf(!existsSync(largeSession))("imports a legacy fixture and exports it in v3 with the stored ids", () => {
    expect(run("import", largeSession).code).toBe(0);
    const ls = JSON.parse(run("ls", "--json").stdout) as { id: string; sourceVersion: number }[];
    const s = ls.find((x) => x.id === "d703a1a9-1b7b-4fb1-b512-c9738b1fe617");
    expect(s?.sourceVersion).toBe(1);
    const first = run("export", "d703a1a9").stdout;
    expect(JSON.parse(first.split("\n")[0] as string).version).toBe(3);
    expect(run("export", "d703a1a9").stdout).toBe(first); // ids were generated once, on import
    const plan = run("plan", "d703", "--json");
    expect(plan.code).toBe(0);
  });
});
