/**
 * The read commands answer a stored session id exactly as they answer its file: the JSON of
 * context, plan, prune --dry-run and branch (and the text of all four: a long context's listing
 * folded, and with --all), and the Markdown export
 * by leaf, compared byte for byte on generated sessions (with compactions and branch summaries,
 * without compactions, many branches) and the real pi sessions. The
 * stored side reads only what each answer needs (packages/store/src/reads/).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSessionText } from "@bonsai/core";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const bin = path.join(root, "apps/cli/bin/bonsai.cjs");
const realPi = path.resolve(root, "../shared/fixtures/real/pi");
const REAL = existsSync(realPi) ? readdirSync(realPi).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(realPi, f)) : [];
if (REAL.length === 0) console.warn(`real pi sessions not found at ${realPi}: their stored-output comparison is skipped`);
let dir = "";
let db = "";

function run(...args: string[]): string {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir, env: { ...process.env, BONSAI_DB: db, BONSAI_DEBUG: "", HOME: dir }, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`bonsai ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** the session id `bonsai import` gave the file */
function importFile(file: string): string {
  const out = run("import", file, "--json");
  const id = (JSON.parse(out) as { reports: { sessionId: string | null }[] }).reports[0]?.sessionId;
  if (!id) throw new Error(`import of ${file} gave no session: ${out}`);
  return id;
}

function entryIds(file: string): string[] {
  return parseSessionText(readFileSync(file, "utf8")).entries.map((e) => e.id);
}

/** every read command on the file and on its stored id, for the leaves (undefined: the default leaf) */
function compare(file: string, id: string, leaves: (string | undefined)[], target: string): void {
  for (const leaf of leaves) {
    const leafArgs = leaf === undefined ? [] : ["--leaf", leaf];
    for (const command of [["context", ...leafArgs, "--json"], ["plan", ...leafArgs, "--json"], ["plan", ...leafArgs, "--keep-recent", "300", "--json"], ["prune", "--dry-run", ...leafArgs, "--json"]]) {
      const [name, ...rest] = command as [string, ...string[]];
      expect(run(name, id, ...rest), `${name} ${rest.join(" ")}`).toBe(run(name, file, ...rest));
    }
    // the context's listing (its first line names the session as given): a long one folded, and all of it
    const contextText = (arg: string, ...more: string[]): string => run("context", arg, ...leafArgs, ...more).replace(/^[^\n]*\n/, "");
    expect(contextText(id), `context ${leafArgs.join(" ")}`).toBe(contextText(file));
    expect(contextText(id, "--all"), `context --all ${leafArgs.join(" ")}`).toBe(contextText(file, "--all"));
    // the plan's text (its first line names the session as given)
    const planText = (arg: string): string => run("plan", arg, ...leafArgs, "--keep-recent", "300").replace(/^[^\n]*\n/, "");
    expect(planText(id), `plan --keep-recent 300 ${leafArgs.join(" ")}`).toBe(planText(file));
    // the text of a dry run (by tool name when it prunes many results) names the session as given: compared without that line
    const pruneText = (arg: string): string => run("prune", arg, "--dry-run", ...leafArgs).replace(/^[^\n]*\n/, "");
    expect(pruneText(id), `prune --dry-run ${leafArgs.join(" ")}`).toBe(pruneText(file));
    for (const budget of ["100000", "3000", "0"]) {
      const branch = ["--to", target, ...(leaf === undefined ? [] : ["--from", leaf]), "--budget", budget];
      expect(run("branch", id, ...branch, "--json"), `branch ${branch.join(" ")} --json`).toBe(run("branch", file, ...branch, "--json"));
      const branchText = (arg: string): string => run("branch", arg, ...branch).replace(/^[^\n]*\n/, "");
      expect(branchText(id), `branch ${branch.join(" ")}`).toBe(branchText(file));
    }
    // the Markdown's first line is the title, which a stored session may know (its session_info, compactions)
    const md = (arg: string): string => run("export", arg, "--format", "md", ...leafArgs).replace(/^[^\n]*\n/, "");
    expect(md(id), `export --format md ${leafArgs.join(" ")}`).toBe(md(file));
  }
}

beforeAll(() => {
  const build = spawnSync(process.execPath, [path.join(root, "scripts/build.mjs"), "cli"], { encoding: "utf8", cwd: root });
  if (build.status !== 0) throw new Error(`CLI build failed: ${build.stderr}`);
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-stored-"));
  db = path.join(dir, "bonsai.db");
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("stored ids answer as their files", () => {
  it.each([
    ["compactions every 300 entries, branches", { entries: 2500, seed: 31, compactionInterval: 300, branchProbability: 0.15 }],
    ["no compaction", { entries: 900, seed: 32, compactionInterval: 0 }],
    ["many branches and branch summaries", { entries: 3000, seed: 33, compactionInterval: 400, branchProbability: 0.3 }],
    // thousands of small messages within the branch budget (the bench's "small" shape)
    ["small entries, a compaction every 100 entries, branches", { entries: 4000, seed: 36, contentScale: 0.3, compactionInterval: 100, branchProbability: 0.15 }],
  ])("generated: %s", (_name, options) => {
    const file = path.join(dir, `g${options.seed}.jsonl`);
    writeFileSync(file, sessionToJsonl(generateSession(options)));
    const id = importFile(file);
    const ids = entryIds(file);
    compare(file, id, [undefined, ids[Math.floor(ids.length * 0.6)]], ids[Math.floor(ids.length / 3)] as string);
  }, 300_000);

  it("a context of more than 500 messages is listed as its first 50 and newest 450, and all of it with --all", () => {
    const file = path.join(dir, "long-context.jsonl");
    writeFileSync(file, sessionToJsonl(generateSession({ entries: 1500, seed: 35, compactionInterval: 0 })));
    const id = importFile(file);
    const listing = run("context", id);
    const count = Number(/Messages: (\d+)/.exec(listing)?.[1]);
    expect(listing).toMatch(/\nContext: \d+ tokens/);
    expect(count).toBeGreaterThan(800);
    const rows = listing.trimEnd().split("\n").slice(6);
    // the header row, the first 50, the row saying what is not listed, the newest 450
    expect(rows).toHaveLength(1 + 500 + 1);
    expect(rows[1]?.trim().startsWith("1  ")).toBe(true);
    expect(rows[50]?.trim().startsWith("50  ")).toBe(true);
    expect(rows[51]?.trim()).toBe(`… ${count - 500} messages in between are not listed (--all lists every message)`);
    expect(rows[52]?.trim().startsWith(`${count - 450 + 1}  `)).toBe(true);
    expect(rows.at(-1)?.trim().startsWith(`${count}  `)).toBe(true);
    expect(run("context", id, "--all").trimEnd().split("\n").slice(6)).toHaveLength(1 + count);
    compare(file, id, [undefined], entryIds(file)[100] as string);
  }, 300_000);

  it("ids JSON escapes (quotes, backslashes, control characters) and non-ASCII ids", () => {
    // a foreign session's ids are arbitrary strings; the stored side prints its id lists from SQLite's text
    const odd = ['"q', "b\\s", "nl\n", "c\u0001", "é", "😀", '","', "\u2028"];
    const generated = generateSession({ entries: 1200, seed: 34, compactionInterval: 0 });
    const rename = new Map(generated.entries.map((e, i) => [e.id, i % 2 === 0 ? `${odd[(i / 2) % odd.length]}${e.id}` : e.id]));
    const entries = generated.entries.map((e) => ({ ...e, id: rename.get(e.id) as string, parentId: e.parentId === null ? null : (rename.get(e.parentId) ?? e.parentId) }));
    const file = path.join(dir, "odd-ids.jsonl");
    writeFileSync(file, sessionToJsonl({ ...generated, entries } as typeof generated));
    const id = importFile(file);
    const ids = entryIds(file);
    expect(ids.some((x) => x.startsWith('"q')) && ids.some((x) => x.startsWith("nl\n"))).toBe(true);
    const pruned = (JSON.parse(run("prune", id, "--dry-run", "--json")) as { prunedEntryIds: string[] }).prunedEntryIds;
    for (const o of odd) expect(pruned.some((x) => x.startsWith(o)), o).toBe(true);
    compare(file, id, [undefined], ids[10] as string);
  }, 300_000);

  it.skipIf(REAL.length === 0)("the real pi sessions", () => {
    for (const [i, file] of REAL.entries()) {
      const id = importFile(file);
      const ids = entryIds(file);
      compare(file, id, i === 0 ? [undefined, ids[Math.floor(ids.length / 2)]] : [undefined], ids[Math.floor(ids.length / 4)] as string);
    }
  }, 300_000);
});
