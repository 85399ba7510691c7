/**
 * The team archive through the built CLI: administration, `team serve`, `bonsai push` (incremental,
 * idempotent, killed at random moments and repeated), revocation, and what the server logs. A real
 * PostgreSQL server (packages/testkit) and real child processes.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateSession, sessionToJsonl, writeSessionJsonl } from "@bonsai/testkit";
import { EntireRepo } from "@bonsai/testkit/entire-repo";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runBonsai, runBonsaiAsync, startServe, startTestArchive, type TestArchive } from "./team-archive";

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.resolve(here, "../../../../shared/fixtures/real/pi");
const PI_FILE = fs.existsSync(FIXTURE) ? fs.readdirSync(FIXTURE).filter((f) => f.endsWith(".jsonl")).sort()[0] : undefined;

let archive: TestArchive;
let database: string;
let url: string;
let dir: string;
let adaToken: string;

function bonsai(args: string[], env: Record<string, string> = {}): { code: number; stdout: string; stderr: string } {
  return runBonsai(dir, database, args, env);
}

function ok(args: string[], env: Record<string, string> = {}): string {
  const r = bonsai(args, env);
  if (r.code !== 0) throw new Error(`bonsai ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

async function archiveRows(sessionId: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const rows = await client.query<{ seq: number }>("SELECT e.seq FROM entries e JOIN sessions s ON s.id = e.session_pk WHERE s.session_id = $1 ORDER BY e.seq", [sessionId]);
    return rows.rows.map((r) => r.seq);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-team-cli-"));
  archive = await startTestArchive((db) => {
    database = db;
    ok(["team", "project", "add", "alpha"]);
    ok(["team", "project", "add", "beta"]);
    adaToken = (JSON.parse(ok(["team", "user", "add", "ada", "--json"])) as { token: string }).token;
    ok(["team", "grant", "ada", "alpha"]);
  });
  url = archive.url;
}, 120_000);

afterAll(async () => {
  await archive?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!PI_FILE)("bonsai team and bonsai push", () => {
  it("pushes a stored session once; the second push sends nothing; the server logs the person, not the content", async () => {
    const data = path.join(dir, "local-a");
    ok(["import", path.join(FIXTURE, PI_FILE as string), "--data-dir", data]);
    const first = JSON.parse(ok(["push", "--all", "--to", url, "--project", "alpha", "--data-dir", data, "--json"], { BONSAI_TOKEN: adaToken })) as { sent: number; had: number }[];
    expect(first).toHaveLength(1);
    expect(first[0]?.had).toBe(0);
    expect(first[0]?.sent).toBeGreaterThan(0);
    const again = JSON.parse(ok(["push", "--all", "--to", url, "--project", "alpha", "--data-dir", data, "--json"], { BONSAI_TOKEN: adaToken })) as { sent: number; had: number }[];
    expect(again[0]).toMatchObject({ had: first[0]?.sent, sent: 0 });
    // the server's output is read while this process waits, not during the pushes above
    for (let i = 0; i < 100 && !archive.log().includes("/api/push/batch"); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(archive.log()).toMatch(/ POST \/api\/push\/batch 200 [\d.]+ms ada\n/);
    expect(archive.log()).not.toContain(path.basename(PI_FILE as string, ".jsonl"));
    const listing = JSON.parse(ok(["team", "ls", "--json"])) as { projects: { name: string; sessions: number }[] };
    expect(listing.projects).toContainEqual({ name: "alpha", sessions: 1 });
  }, 120_000);

  it("ls, search, context and export read the archive with --archive, answering as for the local store", () => {
    const data = path.join(dir, "local-a");
    const env = { BONSAI_TOKEN: adaToken };
    const listed = JSON.parse(ok(["ls", "--archive", url, "--json"], env)) as { id: string; archive: { project: string; pushedBy: string } }[];
    expect(listed).toHaveLength(1);
    // named by its key, project/person/id; its own id is the local store's
    const id = listed[0]?.id as string;
    const localId = (listed[0] as unknown as { headerId: string }).headerId;
    expect(id).toBe(`alpha/ada/${localId}`);
    expect(listed[0]).toMatchObject({ archive: { project: "alpha", pushedBy: "ada" } });
    // the shape of the local ls --json (the counts the archive's list does not read are null), and where it was pushed
    const localListed = JSON.parse(ok(["ls", "--data-dir", data, "--json"])) as Record<string, unknown>[];
    expect(Object.keys(listed[0] as object).sort()).toEqual([...Object.keys(localListed[0] as object), "archive"].sort());
    // a plain session file produced no commits, in the archive as locally
    expect(listed[0]).toMatchObject({ commits: [] });
    const strip = (value: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(value).filter(([key]) => !["file", "source", "sourcePath", "session"].includes(key)));
    const remote = JSON.parse(ok(["context", id, "--archive", url, "--json"], env)) as Record<string, unknown>;
    const local = JSON.parse(ok(["context", localId, "--data-dir", data, "--json"])) as Record<string, unknown>;
    expect(strip(remote)).toEqual(strip(local));
    const html = ok(["export", id, "--archive", url, "--format", "html"], env);
    expect(html).toMatch(/^<!doctype html>/i);
    const word = /[A-Za-z]{6,}/.exec(JSON.stringify(local.messages ?? ""))?.[0] ?? "the";
    const hits = JSON.parse(ok(["search", word, "--archive", url, "--json"], env)) as { sessionId: string }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(new Set(hits.map((h) => h.sessionId))).toEqual(new Set([id]));
    const both = bonsai(["ls", "--archive", url, "--data-dir", data], env);
    expect(both.code).toBe(2);
  }, 120_000);

  it("never takes the token on the command line, and refuses a push to a project not granted", () => {
    const data = path.join(dir, "local-a");
    const noToken = bonsai(["push", "--all", "--to", url, "--project", "alpha", "--data-dir", data]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toBe("bonsai: set BONSAI_TOKEN to your archive token (it is never taken on the command line)\n");
    const denied = bonsai(["push", "--all", "--to", url, "--project", "beta", "--data-dir", data], { BONSAI_TOKEN: adaToken });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toBe('bonsai: no project named "beta" that ada may use\n');
  }, 120_000);

  it("a push killed at random moments and repeated leaves every entry exactly once", async () => {
    const data = path.join(dir, "local-big");
    const file = path.join(dir, "big.jsonl");
    const generated = generateSession({ entries: 4000, seed: 7, sessionId: "big-session-0001" });
    await writeSessionJsonl(file, generated);
    ok(["import", file, "--data-dir", data]);
    for (let trial = 0; trial < 3; trial++) {
      const child = spawn(process.execPath, [BIN, "push", "--all", "--to", url, "--project", "alpha", "--data-dir", data], { env: { ...process.env, BONSAI_TOKEN: adaToken, HOME: dir }, stdio: "ignore" });
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 900));
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    ok(["push", "--all", "--to", url, "--project", "alpha", "--data-dir", data], { BONSAI_TOKEN: adaToken });
    const seqs = await archiveRows("big-session-0001");
    expect(seqs).toEqual(Array.from({ length: generated.entries.length }, (_, i) => i));
  }, 300_000);

  it("a revoked token is refused in one sentence", () => {
    ok(["team", "token", "revoke", "--user", "ada"]);
    const r = bonsai(["push", "--all", "--to", url, "--project", "alpha", "--data-dir", path.join(dir, "local-a")], { BONSAI_TOKEN: adaToken });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("bonsai: the token is not valid for this archive (revoked, mistyped, or from another archive)\n");
  }, 120_000);

  it("says clearly when the archive's database is unreachable", () => {
    const r = bonsai(["team", "ls"], { BONSAI_TEAM_DATABASE: "postgres://x@127.0.0.1:1/none" });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("bonsai: cannot open the team archive database: connection refused\n");
  });

  it("team serve --trusted-proxy-header limits failed sign-ins per client address as the proxy names it; a header that is not one is refused", async () => {
    const bad = bonsai(["team", "serve", "--listen", "127.0.0.1:0", "--trusted-proxy-header", "x forwarded"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('bonsai: --trusted-proxy-header takes a header name such as x-forwarded-for: "x forwarded"\n');
    const token = (JSON.parse(ok(["team", "user", "add", "behind-proxy", "--json"])) as { token: string }).token;
    const proxied = await startServe(database, ["--trusted-proxy-header", "X-Forwarded-For"]);
    try {
      const me = (token: string, client: string): Promise<Response> => fetch(`${proxied.url}/api/me`, { headers: { authorization: `Bearer ${token}`, "x-forwarded-for": client } });
      for (let i = 0; i < 20; i++) expect((await me(`bonsai_${(0xa000 + i).toString(16).padStart(16, "0")}_${"A".repeat(43)}`, "203.0.113.9")).status).toBe(401);
      expect((await me(token, "203.0.113.9")).status).toBe(429);
      expect((await me(token, "203.0.113.10")).status).toBe(200);
      expect(proxied.log()).toContain("(refused sign-in from 203.0.113.9)");
    } finally {
      const exited = new Promise((resolve) => proxied.serve.once("exit", resolve));
      proxied.serve.kill("SIGTERM");
      await exited;
    }
  }, 120_000);

  it("team serve refuses a --cache-mb that is not a whole number of megabytes, before it opens anything", () => {
    for (const bad of ["-1", "lots", "1.5"]) {
      const r = bonsai(["team", "serve", "--listen", "127.0.0.1:0", `--cache-mb=${bad}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`bonsai: --cache-mb takes a whole number of megabytes from 0 to 65536: ${JSON.stringify(bad)}\n`);
    }
  });
  it("ls --archive reads every page (--limit, --project); a session id two projects hold needs --project, named in one line", () => {
    const data = path.join(dir, "local-a");
    const id = (JSON.parse(ok(["ls", "--data-dir", data, "--json"])) as { id: string }[])[0]?.id as string;
    const boToken = (JSON.parse(ok(["team", "user", "add", "bo", "--json"])) as { token: string }).token;
    const rootToken = (JSON.parse(ok(["team", "user", "add", "root", "--role", "admin", "--json"])) as { token: string }).token;
    const cyToken = (JSON.parse(ok(["team", "user", "add", "cy", "--json"])) as { token: string }).token;
    ok(["team", "grant", "bo", "beta"]);
    ok(["team", "grant", "cy", "alpha"]);
    // the same session file pushed into a second project
    ok(["push", id, "--to", url, "--project", "beta", "--data-dir", data], { BONSAI_TOKEN: boToken });
    const root = { BONSAI_TOKEN: rootToken };
    const all = JSON.parse(ok(["ls", "--archive", url, "--json"], root)) as { id: string; headerId: string; archive: { project: string } }[];
    // each named by its key, project/person/id
    expect(all.filter((s) => s.headerId === id).map((s) => s.id).sort()).toEqual([`alpha/ada/${id}`, `beta/bo/${id}`]);
    expect(JSON.parse(ok(["ls", "--archive", url, "--json", "--limit", "1"], root))).toHaveLength(1);
    expect((JSON.parse(ok(["ls", "--archive", url, "--json", "--project", "beta"], root)) as { id: string }[]).map((s) => s.id)).toEqual([`beta/bo/${id}`]);
    const ambiguous = bonsai(["context", id, "--archive", url, "--json"], root);
    expect(ambiguous.code).not.toBe(0);
    expect(ambiguous.stderr.trim().split("\n")).toHaveLength(1);
    expect(ambiguous.stderr).toContain(`alpha/ada/${id}`);
    expect(ambiguous.stderr).toContain(`beta/bo/${id}`);
    expect(ambiguous.stderr).toContain("project/person/id");
    expect(JSON.parse(ok(["context", `beta/bo/${id}`, "--archive", url, "--json"], root))).toEqual(JSON.parse(ok(["context", `alpha/ada/${id}`, "--archive", url, "--json"], root)));
    const context = (project: string): unknown => JSON.parse(ok(["context", id, "--archive", url, "--project", project, "--json"], root));
    expect(context("beta")).toEqual(context("alpha"));
    expect(ok(["export", id, "--archive", url, "--project", "alpha", "--format", "html"], root)).toMatch(/^<!doctype html>/i);
    // a member of alpha only gets hers: nothing tells her that beta holds the id (ada's token was revoked above)
    const cy = bonsai(["context", id, "--archive", url, "--json"], { BONSAI_TOKEN: cyToken });
    expect(cy.stderr).toBe("");
    expect(cy.code).toBe(0);
    expect(JSON.parse(cy.stdout)).toEqual(context("alpha"));
    const notHers = bonsai(["context", id, "--archive", url, "--project", "beta", "--json"], { BONSAI_TOKEN: cyToken });
    const missing = bonsai(["context", "no-such-session", "--archive", url, "--project", "beta", "--json"], { BONSAI_TOKEN: cyToken });
    expect(notHers.stderr.replace(id, "X")).toBe(missing.stderr.replace("no-such-session", "X"));
    // --project and --limit belong to --archive
    expect(bonsai(["ls", "--limit", "3", "--data-dir", data]).stderr).toContain("use it with --archive URL");
    expect(bonsai(["context", id, "--project", "beta", "--data-dir", data]).stderr).toContain("use it with --archive URL");
  }, 120_000);
});

describe("bonsai push of a session the archive refuses", () => {
  it("names the refused session in one line, pushes the others, and exits 1", async () => {
    const data = path.join(dir, "local-dee");
    ok(["team", "project", "add", "gamma"]);
    const deeToken = (JSON.parse(ok(["team", "user", "add", "dee", "--json"])) as { token: string }).token;
    ok(["team", "grant", "dee", "gamma"]);
    const write = (id: string, entryIds: string[]): string => {
      const file = path.join(dir, `${id}.jsonl`);
      const header = { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/src" };
      const entries = entryIds.map((entryId, i) => ({ type: "message", id: entryId, parentId: i === 0 ? null : entryIds[i - 1], timestamp: `2026-01-01T00:00:0${i}.000Z`, message: { role: "user", content: `line ${i}` } }));
      fs.writeFileSync(file, `${[header, ...entries].map((e) => JSON.stringify(e)).join("\n")}\n`);
      return file;
    };
    ok(["import", write("gamma-dupes", ["g-0", "g-1", "g-1", "g-3"]), "--data-dir", data]);
    ok(["import", write("gamma-fine", ["f-0", "f-1"]), "--data-dir", data]);
    const pushed = bonsai(["push", "--all", "--to", url, "--project", "gamma", "--data-dir", data], { BONSAI_TOKEN: deeToken });
    expect(pushed.code).toBe(1);
    expect(pushed.stderr).toBe(
      'bonsai: gamma-dupes was not pushed: session gamma-dupes has two entries with the id "g-1" (entries 2 and 3); the archive keeps one entry per id, so nothing of it was pushed\n' +
        "bonsai: 1 of 2 sessions were not pushed (named above); the others were\n",
    );
    expect(pushed.stdout).toBe("gamma-fine  archive had 0, sent 2\n");
    expect(await archiveRows("gamma-fine")).toEqual([0, 1]);
    expect(await archiveRows("gamma-dupes")).toEqual([]);
  }, 60_000);
});

describe("context --archive of a session imported from a checkpoint branch", () => {
  it("shows the commits the session produced, as the local context does (JSON and text)", async () => {
    ok(["team", "project", "add", "delta"]);
    const eveToken = (JSON.parse(ok(["team", "user", "add", "eve", "--json"])) as { token: string }).token;
    ok(["team", "grant", "eve", "delta"]);
    const data = path.join(dir, "local-eve");
    const repo = EntireRepo.create(fs.mkdtempSync(path.join(dir, "repo-")));
    const session = generateSession({ entries: 12, seed: 47, cwd: repo.dir });
    repo.addCheckpoint("ab12cd34ef56", [{ sessionId: session.header.id, agent: "Pi", createdAt: "2026-05-02T09:00:00Z", transcript: Buffer.from(sessionToJsonl(session)) }]);
    const sha = repo.commitCode("src/links.ts", "export const links = 1;\n", "Link the commits", ["ab12cd34ef56"]);
    ok(["import", "--git", repo.dir, "--data-dir", data]);
    const localId = (JSON.parse(ok(["ls", "--data-dir", data, "--json"])) as { id: string }[])[0]?.id as string;
    const env = { BONSAI_TOKEN: eveToken };
    ok(["push", "--all", "--to", url, "--project", "delta", "--data-dir", data], env);
    const key = `delta/eve/${localId}`;

    const local = JSON.parse(ok(["context", localId, "--data-dir", data, "--json"])) as { commits: { sha: string; subject: string; date: string; files: string[] }[] };
    expect(local.commits.map((c) => [c.sha, c.subject, c.files])).toEqual([[sha, "Link the commits", ["src/links.ts"]]]);
    const remote = JSON.parse(ok(["context", key, "--archive", url, "--json"], env)) as { commits: unknown };
    expect(remote.commits).toEqual(local.commits);
    // the same commits as the archive's list has for the session
    const listed = (JSON.parse(ok(["ls", "--archive", url, "--json"], env)) as { id: string; commits: unknown }[]).find((s) => s.id === key);
    expect(listed?.commits).toEqual(local.commits);

    // the text: the same "produced 1 commit" lines as the local context prints
    const commitText = (out: string): string[] => out.split("\n").filter((line) => /^produced \d+ commit|^ {2}[0-9a-f]{10} /.test(line));
    const localText = commitText(ok(["context", localId, "--data-dir", data]));
    expect(localText).toEqual(["produced 1 commit:", `  ${sha.slice(0, 10)} ${local.commits[0]?.date.slice(0, 10) ?? ""} Link the commits (1 file: src/links.ts)`]);
    expect(commitText(ok(["context", key, "--archive", url], env))).toEqual(localText);

    // an archive older than this CLI has no commits call: the context is shown, without them, and stderr says so
    const older = await olderArchiveProxy(url);
    try {
      const r = await runBonsaiAsync(dir, database, ["context", key, "--archive", older.url, "--json"], env);
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { commits: unknown; entryIds: unknown }).commits).toEqual([]);
      expect(r.stderr).toContain("this archive does not list the commits of its sessions (a server older than this Bonsai)");
    } finally {
      await older.close();
    }
  }, 120_000);
});

/** A real HTTP server in front of the archive that answers as an archive from before the commits call. */
async function olderArchiveProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if ((req.url ?? "").startsWith("/api/session/commits")) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "no such call", code: "not-found" }));
      return;
    }
    const forwarded = http.request(target + (req.url ?? "/"), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
