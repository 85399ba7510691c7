/**
 * `bonsai amnesia --all` over the local store and over a team archive (`--archive URL [--project
 * NAME]`): the real pi and Codex sessions of ../shared/fixtures/real imported into real stores and
 * pushed to a real archive (a private PostgreSQL server and `bonsai team serve` of the built CLI).
 * The same JSON both ways; a member's report holds nothing of another project; a revoked token is
 * refused; a wrong command line is one line and exit status 2.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REAL_SESSIONS, realSession } from "./real-sessions";
import { runBonsai, startTestArchive, type TestArchive } from "./team-archive";

interface Row {
  sessionId: string;
  project: string | null;
  pushedBy: string | null;
  title: string | null;
  agent: string;
  compactions: number;
  prunings: number;
  score: number;
  findings: Record<string, number>;
  points: { kind: string; entryId: string; score: number }[];
}
interface Overview {
  sessions: Row[];
  totals: { sessions: number; compactions: number; prunings: number; score: number; findings: Record<string, number> };
  worst: { sessionId: string; project: string | null; title: string | null; entryId: string; score: number }[];
}

const HAVE = REAL_SESSIONS.pi.length > 0 && REAL_SESSIONS.codex.length > 0;

let archive: TestArchive;
let database: string;
let dir: string;
const tokens: Record<string, string> = {};
/** local stores: amy's (the pi sessions), ben's (the Codex sessions) */
let amyData: string;
let benData: string;

function bonsai(args: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  return runBonsai(dir, database ?? "", args, env);
}

function ok(args: string[], env: Record<string, string> = {}): string {
  const r = bonsai(args, env);
  if (r.code !== 0) throw new Error(`bonsai ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

function overview(args: string[], env: Record<string, string> = {}): Overview {
  return JSON.parse(ok(["amnesia", "--all", ...args, "--json"], env)) as Overview;
}

/** what a row says about the session's compactions, whoever computed it */
const scoring = (r: Row): unknown => ({ sessionId: r.sessionId, agent: r.agent, compactions: r.compactions, prunings: r.prunings, score: r.score, findings: r.findings, points: r.points });

beforeAll(async () => {
  if (!HAVE) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-amnesia-all-"));
  amyData = path.join(dir, "amy");
  benData = path.join(dir, "ben");
  ok(["import", ...REAL_SESSIONS.pi.map((f) => realSession("pi", f)), "--data-dir", amyData]);
  ok(["import", ...REAL_SESSIONS.codex.map((f) => realSession("codex", f)), "--data-dir", benData]);
  archive = await startTestArchive((db) => {
    database = db;
    ok(["team", "project", "add", "alpha"]);
    ok(["team", "project", "add", "beta"]);
    for (const [name, role] of [["amy", "member"], ["ben", "member"], ["root", "admin"], ["gone", "member"]]) {
      tokens[name as string] = (JSON.parse(ok(["team", "user", "add", name as string, "--role", role as string, "--json"])) as { token: string }).token;
    }
    ok(["team", "grant", "amy", "alpha"]);
    ok(["team", "grant", "ben", "beta"]);
    ok(["team", "grant", "gone", "alpha"]);
  });
  ok(["push", "--all", "--to", archive.url, "--project", "alpha", "--data-dir", amyData], { BONSAI_TOKEN: tokens.amy as string });
  ok(["push", "--all", "--to", archive.url, "--project", "beta", "--data-dir", benData], { BONSAI_TOKEN: tokens.ben as string });
  ok(["team", "token", "revoke", "--user", "gone"]);
}, 300_000);

afterAll(async () => {
  await archive?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE)("bonsai amnesia --all", () => {
  it("reports every stored session with a compaction, worst first, each as its own amnesia report scores it", () => {
    const listed = JSON.parse(ok(["ls", "--data-dir", benData, "--json"])) as { id: string; compactionCount: number; prunedCount: number }[];
    const report = overview(["--data-dir", benData]);
    const expected = listed.filter((s) => s.compactionCount > 0 || s.prunedCount > 0).map((s) => s.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(listed.length);
    expect(report.sessions.map((s) => s.sessionId).sort()).toEqual(expected.sort());
    expect(report.sessions.map((s) => s.score)).toEqual([...report.sessions.map((s) => s.score)].sort((a, b) => b - a));
    for (const row of report.sessions) {
      const one = JSON.parse(ok(["amnesia", row.sessionId, "--data-dir", benData, "--json"])) as { compactions: { compactionId: string; score: number }[] };
      expect(row.compactions).toBe(one.compactions.length);
      expect(row.score).toBe(one.compactions.reduce((sum, c) => sum + c.score, 0));
      expect(row).toMatchObject({ project: null, pushedBy: null, agent: "codex" });
    }
    expect(report.totals.sessions).toBe(expected.length);
    expect(report.totals.compactions).toBe(report.sessions.reduce((sum, s) => sum + s.compactions, 0));
    expect(report.worst[0]?.score).toBe(Math.max(...report.sessions.map((s) => s.score === 0 ? 0 : Math.max(...s.points.map((p) => p.score)))));
  });

  it("prints a table of totals, the worst compactions and the sessions", () => {
    const text = ok(["amnesia", "--all", "--data-dir", amyData]);
    expect(text).toMatch(/^Amnesia over \d+ sessions of the local store with a compaction or pruning \(\d+ compactions, 0 prunings\), total score \d+\n/);
    expect(text).toContain("Worst compactions and prunings:");
    expect(text).toContain("Sessions, worst first:");
    const quiet = path.join(dir, "quiet");
    ok(["import", realSession("pi", REAL_SESSIONS.pi.find((f) => f.startsWith("raquezha__pi.dev__96_2b1009dcd7_2")) as string), "--data-dir", quiet]);
    expect(ok(["amnesia", "--all", "--data-dir", quiet])).toBe("no session with a compaction or pruning in the local store\n");
  });

  it("answers on the archive with the same JSON as on the local store, limited to the token's projects", () => {
    const local = overview(["--data-dir", amyData]);
    const remote = overview(["--archive", archive.url], { BONSAI_TOKEN: tokens.amy as string });
    // the archive names each session by its key, project/person/id; the rest is the local store's answer
    const keyed = (r: Row): unknown => scoring({ ...r, sessionId: `alpha/amy/${r.sessionId}` });
    expect(remote.sessions.map(scoring)).toEqual(local.sessions.map(keyed));
    expect(remote.totals).toEqual(local.totals);
    expect(remote.sessions.every((s) => s.project === "alpha" && s.pushedBy === "amy")).toBe(true);
    expect(remote.worst.map((w) => [w.sessionId, w.entryId, w.score])).toEqual(local.worst.map((w) => [`alpha/amy/${w.sessionId}`, w.entryId, w.score]));
    // a second call reads the rows kept for these entry counts: the same answer
    expect(overview(["--archive", archive.url], { BONSAI_TOKEN: tokens.amy as string })).toEqual(remote);
  });

  it("reports one archived session as the local store does (downloaded, as context does)", () => {
    const id = overview(["--data-dir", amyData]).sessions[0]?.sessionId as string;
    const local = ok(["amnesia", id, "--data-dir", amyData, "--json"]);
    expect(ok(["amnesia", id, "--archive", archive.url, "--json"], { BONSAI_TOKEN: tokens.amy as string })).toBe(local);
  });

  it("shows a session's title without its control characters in the table", () => {
    const hostile = path.join(dir, "hostile");
    const file = path.join(dir, "hostile.jsonl");
    const t = "2026-01-01T00:00:00.000Z";
    const lines = [
      { type: "session", version: 3, id: "hostile-title", timestamp: t, cwd: "/w", title: "red \u001b[31mALERT\u001b[0m\u0007 title" },
      { type: "message", id: "h0", parentId: null, timestamp: t, message: { role: "user", content: "hello there", timestamp: 0 } },
      { type: "compaction", id: "hc", parentId: "h0", timestamp: t, summary: "s", firstKeptEntryId: "h0", tokensBefore: 10 },
    ];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    ok(["import", file, "--data-dir", hostile]);
    const text = ok(["amnesia", "--all", "--data-dir", hostile]);
    expect(text).toContain("red ?[31mALERT?[0m? title");
    expect([...text].some((c) => (c < " " && c !== "\n" && c !== "\t") || c === "\u007f")).toBe(false);
    expect((JSON.parse(ok(["amnesia", "--all", "--data-dir", hostile, "--json"])) as Overview).sessions[0]?.title).toBe("red \u001b[31mALERT\u001b[0m\u0007 title");
  });

  it("shows a member nothing of another project: no id, title or count", () => {
    const ben = overview(["--archive", archive.url], { BONSAI_TOKEN: tokens.ben as string });
    const amy = bonsai(["amnesia", "--all", "--archive", archive.url, "--json"], { BONSAI_TOKEN: tokens.amy as string }).stdout;
    expect(ben.sessions.length).toBeGreaterThan(0);
    for (const s of ben.sessions) {
      expect(amy).not.toContain(s.sessionId);
      if (s.title) expect(amy).not.toContain(s.title);
    }
    const asked = overview(["--archive", archive.url, "--project", "beta"], { BONSAI_TOKEN: tokens.amy as string });
    const missing = overview(["--archive", archive.url, "--project", "no-such-project"], { BONSAI_TOKEN: tokens.amy as string });
    expect(asked).toEqual(missing);
    expect(asked.totals.sessions).toBe(0);
  });

  it("gives an admin every project, or the one asked for", () => {
    const all = overview(["--archive", archive.url], { BONSAI_TOKEN: tokens.root as string });
    const alpha = overview(["--archive", archive.url, "--project", "alpha"], { BONSAI_TOKEN: tokens.root as string });
    const beta = overview(["--archive", archive.url, "--project", "beta"], { BONSAI_TOKEN: tokens.root as string });
    expect(new Set(all.sessions.map((s) => s.project))).toEqual(new Set(["alpha", "beta"]));
    expect(all.totals.sessions).toBe(alpha.totals.sessions + beta.totals.sessions);
    expect(alpha.sessions.every((s) => s.project === "alpha")).toBe(true);
    const text = ok(["amnesia", "--all", "--archive", archive.url, "--project", "beta"], { BONSAI_TOKEN: tokens.root as string });
    expect(text).toContain(`project beta of the archive ${archive.url}`);
    expect(text).toMatch(/PROJECT +PUSHED BY/);
  });

  it("refuses a revoked token in one sentence", () => {
    const r = bonsai(["amnesia", "--all", "--archive", archive.url], { BONSAI_TOKEN: tokens.gone as string });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("bonsai: the token is not valid for this archive (revoked, mistyped, or from another archive)\n");
  });

  it.each([
    [["amnesia"], "missing SESSION (or --all)"],
    [["amnesia", "--all", "some-session"], "give SESSION or --all, not both"],
    [["amnesia", "--all", "--project", "alpha"], "--project names a project of a team archive: use it with --archive URL"],
    [["amnesia", "some-session", "--archive", "http://127.0.0.1:1", "--project", "alpha"], "--project goes with --archive URL --all"],
    [["amnesia", "--all", "--archive", "http://127.0.0.1:1", "--project", " "], "--project needs a project name"],
  ])("bonsai %j: one line, exit 2", (args, message) => {
    const r = bonsai(args, { BONSAI_TOKEN: "t" });
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")).toHaveLength(2);
    expect(r.stderr).toContain(message);
  });
});
