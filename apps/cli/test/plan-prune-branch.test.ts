/**
 * `bonsai plan`, `bonsai prune` (dry run) and `bonsai branch`, run in process through runCli on
 * session files written to a temp dir: JSON shapes and values, text output, and the error policy.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSession, writeSessionJsonl } from "@bonsai/testkit";
import { bonsai, json } from "./run-cli";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bonsai-cli-plan-"));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const x = (n: number) => "x".repeat(n);
const usage = (input: number, output = 0, cacheRead = 0, cacheWrite = 0) => ({ input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite });
const user = (content: string) => ({ type: "message", message: { role: "user", content, timestamp: 1 } });
const assistant = (content: unknown[], u = usage(0), stopReason = "stop") => ({
  type: "message",
  message: { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "m", usage: u, stopReason, timestamp: 2 },
});
const text = (t: string) => ({ type: "text", text: t });
const call = (name: string, args: Record<string, unknown>) => ({ type: "toolCall", id: `c-${name}`, name, arguments: args });
const result = (size: number, toolName = "bash") => ({
  type: "message",
  message: { role: "toolResult", toolCallId: "c", toolName, content: [text(x(size))], isError: false, timestamp: 3 },
});

/** Writes a v3 session; nodes are [id, parentId, body]. */
function session(name: string, nodes: [string, string | null, Record<string, unknown>][]): string {
  const header = { type: "session", version: 3, id: name, timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
  const lines = [header, ...nodes.map(([id, parentId, body], i) => ({ ...body, id, parentId, timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i + 1)).toISOString() }))];
  const file = path.join(dir, `${name}.jsonl`);
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return file;
}

const chain = (name: string, bodies: Record<string, unknown>[]) =>
  session(name, bodies.map((b, i): [string, string | null, Record<string, unknown>] => [`e${i}`, i === 0 ? null : `e${i - 1}`, b]));

describe("bonsai plan", () => {
  it("reports the plan of case 66 with the issue's JSON shape", async () => {
    const file = chain("ratio", [
      user(x(400)),
      assistant([text(x(400))]),
      user(x(400)),
      assistant([text(x(400))], usage(1000, 50, 200, 0)),
    ]);
    const plan = await json(`plan`, file, "--keep-recent", "300");
    expect(plan).toMatchObject({
      firstKeptEntryId: "e3",
      isSplitTurn: true,
      summarizeEntryIds: ["e0", "e1"],
      turnPrefixEntryIds: ["e2"],
      tokensBefore: 1250,
      hasPreviousSummary: false,
      readFiles: [],
      modifiedFiles: [],
      keepRecentTokens: 100,
    });
    // the default keep budget keeps everything
    expect(await json("plan", file)).toMatchObject({ firstKeptEntryId: "e0", summarizeEntryIds: [], isSplitTurn: false });
  });

  it("prints null when the branch already ends with a compaction, and plans another leaf with --leaf", async () => {
    const file = chain("compacted", [user("a"), assistant([text("b")]), { type: "compaction", summary: "S", firstKeptEntryId: "e0", tokensBefore: 10 }]);
    const r = await bonsai("plan", file, "--json");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("null");
    expect(await json("plan", file, "--leaf", "e1")).toMatchObject({ firstKeptEntryId: "e0", hasPreviousSummary: false });
    const textOut = await bonsai("plan", file);
    expect(textOut.stdout).toMatch(/^Nothing to compact/);
  });

  it("lists file operations of the summarized part and the previous compaction (text and JSON)", async () => {
    const file = chain("files", [
      user("a"),
      assistant([call("read", { path: "r1" }), call("edit", { path: "e1" })]),
      result(10),
      { type: "compaction", summary: "S", firstKeptEntryId: "e0", tokensBefore: 1000, details: { readFiles: ["old-r"], modifiedFiles: ["old-m"] } },
      user(x(4000)),
      assistant([call("read", { path: "e1" }), call("write", { path: "w1" }), call("read", { path: "r2" })]),
      result(10),
      user(x(4000)),
      assistant([text(x(4000))]),
    ]);
    const plan = await json("plan", file, "--keep-recent", "1000");
    expect(plan).toMatchObject({ firstKeptEntryId: "e8", hasPreviousSummary: true, readFiles: ["e1", "old-r", "r2"], modifiedFiles: ["old-m", "w1"] });
    const out = (await bonsai("plan", file, "--keep-recent", "1000")).stdout;
    expect(out).toContain("Split turn: yes");
    expect(out).toContain("Modified files (2):\n  old-m\n  w1");
  });
});

describe("bonsai prune (dry run)", () => {
  const pruneSession = () =>
    chain("prune", [user("q"), result(100000, "bash"), result(100000, "read"), result(100000, "skill"), result(160000, "bash"), result(80000, "bash")]);

  it("case 90 through the CLI: read and skill are protected by default", async () => {
    const file = pruneSession();
    expect(await json("prune", file, "--dry-run")).toMatchObject({ prunedEntryIds: ["e1"], tokensSaved: 24991, prunedCount: 1 });
    // a session file is never modified: without --dry-run the answer is the same plan
    expect(await json("prune", file)).toMatchObject({ prunedEntryIds: ["e1"], tokensSaved: 24991 });
  });

  it("case 91 through the CLI: --protect skill makes read results prunable", async () => {
    expect(await json("prune", pruneSession(), "--dry-run", "--protect", "skill")).toMatchObject({ prunedEntryIds: ["e1", "e2"], tokensSaved: 49982 });
  });

  it("explains in text when nothing reaches the minimum saving", async () => {
    const file = chain("prune-small", [user("q"), result(80000), result(160000)]);
    expect(await json("prune", file, "--dry-run")).toMatchObject({ prunedEntryIds: [], tokensSaved: 0 });
    const out = (await bonsai("prune", file, "--dry-run")).stdout;
    expect(out).toMatch(/Nothing to prune: 1 result would save only 19,991 tokens \(minimum 20,000\)\./);
  });

  it("lists a few results one by one, and many by tool name (the JSON lists every id)", async () => {
    const few = (await bonsai("prune", pruneSession(), "--dry-run")).stdout;
    expect(few).toMatch(/^ {2}e1 +bash +25000 +24991$/m);
    // 60 prunable results (40 bash of 2,000 chars, 20 grep of 4,000) before 40,000 protected tokens of bash
    const bodies = [user("q"), ...Array.from({ length: 60 }, (_, i) => (i % 3 === 2 ? result(4000, "grep") : result(2000, "bash"))), ...Array.from({ length: 4 }, () => result(40000, "bash"))];
    const file = chain("prune-many", bodies);
    const report = await json<{ prunedEntryIds: string[]; prunedCount: number }>("prune", file, "--dry-run");
    expect(report.prunedCount).toBe(60);
    expect(report.prunedEntryIds).toEqual(Array.from({ length: 60 }, (_, i) => `e${i + 1}`));
    const out = (await bonsai("prune", file, "--dry-run")).stdout;
    expect(out).toContain("Would prune 60 tool results: the model would stop seeing about 39,520 tokens");
    expect(out).toContain("the outputs replaced hold 39,520 tokens (tokensSaved)");
    // most saved first: 20 x (1,000 - 8) for grep, 40 x (500 - 8) for bash
    expect(out).toMatch(/^ {2}grep +20 +20000 +19840\n {2}bash +40 +20000 +19680$/m);
    expect(out).toContain("from e1 to e60; --json lists every entry id");
    expect(out).not.toMatch(/^ {2}e1 /m);
  });
});

describe("bonsai branch", () => {
  const treeFile = () =>
    session("tree", [
      ["A", null, user("A")],
      ["B", "A", assistant([text("B"), call("read", { path: "r.ts" })])],
      ["C", "B", user("C")],
      ["D", "C", assistant([text("D"), call("write", { path: "w.ts", content: "z" })])],
      ["E", "A", assistant([text("E")])],
      ["F", "E", user("F")],
    ]);

  it("case 97 through the CLI", async () => {
    const report = await json("branch", treeFile(), "--from", "D", "--to", "F");
    expect(report).toEqual({
      commonAncestorId: "A",
      entryIds: ["B", "C", "D"],
      includedEntryIds: ["B", "C", "D"],
      readFiles: ["r.ts"],
      modifiedFiles: ["w.ts"],
      totalTokens: 15,
      fromId: "D",
      toId: "F",
      budget: 100000,
    });
  });

  it("defaults --from to the last entry and honours --budget", async () => {
    const file = treeFile();
    expect(await json("branch", file, "--to", "D")).toMatchObject({ fromId: "F", commonAncestorId: "A", entryIds: ["E", "F"] });
    const tight = await json("branch", file, "--from", "D", "--to", "F", "--budget", "10");
    expect(tight).toMatchObject({ includedEntryIds: ["C", "D"], totalTokens: 10, modifiedFiles: ["w.ts"], readFiles: ["r.ts"] });
    const out = (await bonsai("branch", file, "--from", "B", "--to", "D")).stdout;
    expect(out).toContain("Nothing would be summarized");
  });
});

describe("errors: one line on stderr, non-zero exit", () => {
  const expectOneLine = (r: { code: number; stdout: string; stderr: string }, code: number, pattern: RegExp) => {
    expect(r.code).toBe(code);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  };

  it("missing file, not a session, unknown ids, missing --to, bad numbers", async () => {
    const file = chain("err", [user("a"), assistant([text("b")])]);
    const notSession = path.join(dir, "not-session.jsonl");
    writeFileSync(notSession, '{"hello":1}\n');
    expectOneLine(await bonsai("plan", path.join(dir, "missing.jsonl")), 1, /no such file/);
    expectOneLine(await bonsai("prune", notSession, "--dry-run"), 1, /not a session file/);
    expectOneLine(await bonsai("plan", file, "--leaf", "zz"), 1, /--leaf zz: no entry with this id/);
    expectOneLine(await bonsai("branch", file, "--to", "zz"), 1, /--to zz: no entry with this id/);
    expectOneLine(await bonsai("branch", file, "--from", "zz", "--to", "e0"), 1, /--from zz: no entry with this id/);
    expectOneLine(await bonsai("branch", file), 2, /missing --to TARGET/);
    expectOneLine(await bonsai("plan", file, "--keep-recent", "lots"), 2, /--keep-recent must be a non-negative integer/);
  });
});

describe("on a generated session", () => {
  it("plan, prune and branch answer on 5,000 entries with branches and compactions", async () => {
    const generated = generateSession({ entries: 5000, seed: 11 });
    const file = path.join(dir, "generated.jsonl");
    await writeSessionJsonl(file, generated);
    const plan = await json<{ firstKeptEntryId: string; hasPreviousSummary: boolean } | null>("plan", file);
    expect(plan?.hasPreviousSummary).toBe(true);
    const prune = await json<{ prunedEntryIds: string[]; tokensSaved: number }>("prune", file, "--dry-run");
    expect(prune.prunedEntryIds.length).toBeGreaterThan(0);
    const target = generated.entries[100]?.id as string;
    const branch = await json<{ entryIds: string[]; includedEntryIds: string[] }>("branch", file, "--to", target);
    expect(branch.entryIds.length).toBeGreaterThan(branch.includedEntryIds.length);
  });
});
