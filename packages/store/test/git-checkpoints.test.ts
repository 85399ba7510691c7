/**
 * `importGitRepository` on repositories built with git (testkit entire-repo.ts): pi, Claude Code
 * and Codex transcripts taken from the shared real fixtures at run time, one session in two
 * checkpoints, commits with Entire-Checkpoint trailers on two branches. Checked against the
 * database's rows and against direct file imports, and the repository byte for byte unchanged.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EntireRepo } from "@bonsai/testkit/entire-repo";
import { importGitRepository, sessionsByCommitOrFile } from "../src/index";
import { FIXTURES, newStore, tempDir } from "./support";

const REAL = path.join(FIXTURES, "real");
const PI = path.join(REAL, "pi", "codyborders__yinshi__34_1a3af3e9ec_3_full.jsonl");
const CLAUDE = path.join(REAL, "claude-code", "entireio__external-agents__01_8c2b5cd218_0_full.jsonl");
const CODEX = path.join(REAL, "codex", "iampkuhz__feipi-session-browser__rollout-2026-06-19T12-32-38-019ede26-ff03-7a82-bb34-cfab716a498a.jsonl");
const HAVE = [PI, CLAUDE, CODEX].every((f) => fs.existsSync(f));

/** The first `n` lines of a file (an earlier checkpoint of a growing session). */
function firstLines(file: string, n: number): Buffer {
  const text = fs.readFileSync(file, "utf8");
  return Buffer.from(text.split("\n").slice(0, n).join("\n") + "\n");
}

const PI_ID = "019ffa2f-5809-74e7-99ce-d479e5403701";

function buildRepo(): { repo: EntireRepo; commits: { a: string; b: string } } {
  const repo = EntireRepo.create(tempDir());
  repo.addCheckpoint("a1b2c3d4e5f6", [
    { sessionId: PI_ID, agent: "Pi", model: "gpt-5.6-sol", createdAt: "2026-08-13T08:20:00Z", transcript: firstLines(PI, 12), filesTouched: ["src/one.ts"], prompt: "do one" },
    { sessionId: "cc-session", agent: "Claude Code", model: "claude-opus-4-6", createdAt: "2026-08-13T08:21:00Z", transcript: fs.readFileSync(CLAUDE), filesTouched: ["src/one.ts"] },
  ]);
  const a = repo.commitCode("src/one.ts", "export const one = 1;\n", "Add one", ["a1b2c3d4e5f6"]);
  repo.addCheckpoint("0f9e8d7c6b5a", [
    { sessionId: PI_ID, agent: "Pi", model: "gpt-5.6-sol", createdAt: "2026-08-13T09:00:00Z", transcript: fs.readFileSync(PI), filesTouched: ["src/two.ts", "docs/two.md"] },
    { sessionId: "codex-session", agent: "Codex", model: "gpt-5.4", createdAt: "2026-08-13T09:01:00Z", transcript: fs.readFileSync(CODEX), filesTouched: ["src/two.ts"] },
    { sessionId: "gemini-session", agent: "Gemini CLI", createdAt: "2026-08-13T09:02:00Z", transcript: Buffer.from('{"kind":"not a transcript Bonsai reads"}\n') },
  ]);
  fs.mkdirSync(path.join(repo.dir, "docs"));
  fs.writeFileSync(path.join(repo.dir, "docs", "two.md"), "# two\n");
  repo.git(["add", "docs/two.md"]);
  const b = repo.commitCode("src/two.ts", "export const two = 2;\n", "Add two", ["0f9e8d7c6b5a"]);
  repo.commitCode("src/three.ts", "export const three = 3;\n", "Unrelated change");
  return { repo, commits: { a, b } };
}

describe.skipIf(!HAVE)("bonsai import --git: a repository's Entire checkpoints", () => {
  it("imports each agent session once, keeps the metadata, links the commits, reads only new checkpoints, and leaves the repository as it was", async () => {
    const { repo, commits } = buildRepo();
    const dir = tempDir();
    const store = newStore(dir);
    const before = repo.snapshot();

    const first = await importGitRepository(store, repo.dir);
    expect(repo.snapshot()).toEqual(before);
    expect(first.checkpointsTotal).toBe(2);
    expect(first.checkpointsRead).toBe(2);
    const byAgentSession = new Map(first.sessions.map((s) => [s.agentSessionId, s]));
    // one Bonsai session per agent session: the pi session (in both checkpoints) from the later one
    expect([...byAgentSession.keys()].sort()).toEqual(["019ffa2f-5809-74e7-99ce-d479e5403701", "cc-session", "codex-session", "gemini-session"]);
    expect(byAgentSession.get(PI_ID)!.checkpointId).toBe("0f9e8d7c6b5a");
    expect(byAgentSession.get("gemini-session")!.report.status).toBe("not-a-session");
    const sessions = store.listSessions();
    expect(sessions.map((s) => s.agent).sort()).toEqual(["claude-code", "codex", "pi"]);
    const pi = sessions.find((s) => s.agent === "pi")!;
    const cc = sessions.find((s) => s.agent === "claude-code")!;
    const codex = sessions.find((s) => s.agent === "codex")!;

    // the same entries as importing the transcripts as files
    const direct = newStore(tempDir());
    for (const [file, got] of [[PI, pi], [CLAUDE, cc], [CODEX, codex]] as const) {
      const r = await direct.importFile(file);
      expect(direct.loadEntries(r.sessionId!)).toEqual(store.loadEntries(got.id));
      expect(store.getSession(got.id)!.entryCount).toBe(direct.getSession(r.sessionId!)!.entryCount);
    }

    // the metadata, as stored
    const rows = store.db.prepare("SELECT checkpoint_id, idx, agent_session_id, session_id, agent, model, created_at, metadata_json FROM git_checkpoint_sessions ORDER BY checkpoint_id, idx").all() as Record<string, string>[];
    expect(rows.map((r) => [r.checkpoint_id, r.idx, r.agent_session_id, r.agent, r.model])).toEqual([
      ["0f9e8d7c6b5a", 0, PI_ID, "Pi", "gpt-5.6-sol"],
      ["0f9e8d7c6b5a", 1, "codex-session", "Codex", "gpt-5.4"],
      ["0f9e8d7c6b5a", 2, "gemini-session", "Gemini CLI", null],
      ["a1b2c3d4e5f6", 0, PI_ID, "Pi", "gpt-5.6-sol"],
      ["a1b2c3d4e5f6", 1, "cc-session", "Claude Code", "claude-opus-4-6"],
    ]);
    expect(rows.filter((r) => r.agent_session_id === PI_ID).map((r) => r.session_id)).toEqual([pi.id, pi.id]);
    expect(JSON.parse(rows[0]!.metadata_json as string).files_touched).toEqual(["src/two.ts", "docs/two.md"]);
    const checkpointMeta = store.db.prepare("SELECT metadata_json FROM git_checkpoints WHERE checkpoint_id = 'a1b2c3d4e5f6'").get() as { metadata_json: string };
    expect(JSON.parse(checkpointMeta.metadata_json).sessions).toHaveLength(2);

    // commits: the pi session is in both checkpoints, so it produced both commits
    expect(first.commitsLinked).toBe(2);
    expect(store.getSessionCommits(pi.id).map((c) => [c.sha, c.subject, c.files])).toEqual([
      [commits.a, "Add one", ["src/one.ts"]],
      [commits.b, "Add two", ["docs/two.md", "src/two.ts"]],
    ]);
    expect(store.getSessionCommits(cc.id).map((c) => c.subject)).toEqual(["Add one"]);
    expect(store.getSessionCommits(codex.id).map((c) => c.subject)).toEqual(["Add two"]);
    expect(store.getSessionCommits(pi.id)[0]!.date).toMatch(/^2026-03-01T/);
    // found by a commit's sha prefix and by a file it touched
    expect(new Set(sessionsByCommitOrFile(store.db, commits.b.slice(0, 7)).map((m) => m.sessionId))).toEqual(new Set([pi.id, codex.id]));
    expect(new Set(sessionsByCommitOrFile(store.db, "one.ts").map((m) => m.sessionId))).toEqual(new Set([pi.id, cc.id]));

    // again: nothing new
    const again = await importGitRepository(store, repo.dir);
    expect(repo.snapshot()).toEqual(before);
    expect(again.checkpointsRead).toBe(0);
    expect(again.sessions).toEqual([]);
    expect(again.commitsLinked).toBe(0);

    // a third checkpoint holding the pi session grown by one entry, and its commit on another branch
    repo.git(["checkout", "-q", "-b", "feature"]);
    const grown = Buffer.concat([fs.readFileSync(PI), Buffer.from(JSON.stringify({ type: "session_info", id: "feed0001", parentId: lastId(PI), timestamp: "2026-08-13T10:00:00.000Z", name: "grown in a third checkpoint" }) + "\n")]);
    repo.addCheckpoint("5566778899aa", [{ sessionId: PI_ID, agent: "Pi", createdAt: "2026-08-13T10:00:00Z", transcript: grown, filesTouched: ["src/four.ts"] }], "feature");
    const c = repo.commitCode("src/four.ts", "export const four = 4;\n", "Add four", ["5566778899aa"]);
    const beforeThird = repo.snapshot();
    const third = await importGitRepository(store, repo.dir);
    expect(repo.snapshot()).toEqual(beforeThird);
    expect(third.checkpointsTotal).toBe(3);
    expect(third.checkpointsRead).toBe(1);
    expect(third.sessions.map((s) => [s.agentSessionId, s.copy, s.report.status])).toEqual([[PI_ID, "appended", "appended"]]);
    expect(third.commitsLinked).toBe(1);
    expect(store.listSessions()).toHaveLength(3);
    expect(store.getSession(pi.id)!.entryCount).toBe(direct.listSessions().find((s) => s.agent === "pi")!.entryCount + 1);
    expect(store.getSessionCommits(pi.id).map((x) => x.sha)).toEqual([commits.a, commits.b, c]);
  });

  it("refuses a folder that is not a repository, or one without the checkpoint branch, with one sentence and nothing stored", async () => {
    const store = newStore();
    const plain = tempDir();
    await expect(importGitRepository(store, plain)).rejects.toThrow(/is not a git repository/);
    const repo = EntireRepo.create(tempDir());
    await expect(importGitRepository(store, repo.dir)).rejects.toThrow(/has no entire\/checkpoints\/v1 branch and no refs\/entire\/checkpoints\/ refs .*git fetch origin 'refs\/entire\/\*:refs\/entire\/\*'/);
    expect(store.listSessions()).toEqual([]);
    expect(store.db.prepare("SELECT count(*) AS n FROM git_checkpoints").get()).toEqual({ n: 0 });
  });

  it("given a folder inside the work tree, reads the repository from its top, as the same repository", async () => {
    const { repo } = buildRepo();
    fs.mkdirSync(path.join(repo.dir, "src", "deep"), { recursive: true });
    const store = newStore();
    const fromInside = await importGitRepository(store, path.join(repo.dir, "src", "deep"));
    expect(fromInside.repository).toBe(fs.realpathSync(repo.dir));
    expect([fromInside.checkpointsTotal, fromInside.checkpointsRead]).toEqual([2, 2]);
    expect(store.listSessions()).toHaveLength(3);
    expect((await importGitRepository(store, repo.dir)).checkpointsRead).toBe(0);
  });

  it("reads a remote-tracking checkpoint branch of a clone, and a bare repository", async () => {
    const { repo } = buildRepo();
    const clone = path.join(tempDir(), "clone");
    repo.git(["clone", "-q", "--no-checkout", repo.dir, clone]);
    const store = newStore();
    const r = await importGitRepository(store, clone);
    expect(r.branchRef).toBe("refs/remotes/origin/entire/checkpoints/v1");
    expect(store.listSessions()).toHaveLength(3);
    const bare = path.join(tempDir(), "bare.git");
    repo.git(["clone", "-q", "--bare", repo.dir, bare]);
    const other = newStore();
    expect((await importGitRepository(other, bare)).checkpointsRead).toBe(2);
    expect(other.listSessions()).toHaveLength(3);
  });
});

describe.skipIf(!HAVE)("bonsai import --git: checkpoints on refs of their own (Entire 0.10)", () => {
  const ULID_A = "01M00RJ1HC7TDT6GQBD07F6356";
  const ULID_B = "01M05HSEZPVP31RB5K4R9BFJCH";

  it("imports refs/entire/checkpoints/<xx>/<ULID> beside the branch, links commits whose trailers name a ULID, and reads only new refs again", async () => {
    const repo = EntireRepo.create(tempDir());
    // an older checkpoint on the branch, newer ones on refs (a repository that upgraded Entire)
    repo.addCheckpoint("a1b2c3d4e5f6", [{ sessionId: "cc-session", agent: "Claude Code", createdAt: "2026-08-13T08:21:00Z", transcript: fs.readFileSync(CLAUDE), filesTouched: ["src/one.ts"] }]);
    const a = repo.commitCode("src/one.ts", "export const one = 1;\n", "Add one", ["a1b2c3d4e5f6"]);
    repo.addCheckpointRef(ULID_A, [
      { sessionId: PI_ID, agent: "Pi", model: "gpt-5.6-sol", createdAt: "2026-08-14T18:29:12Z", transcript: firstLines(PI, 12), filesTouched: ["src/two.ts"], prompt: "do two" },
      { sessionId: "codex-session", agent: "Codex", createdAt: "2026-08-14T18:30:00Z", transcript: fs.readFileSync(CODEX), filesTouched: ["src/two.ts"] },
    ]);
    const b = repo.commitCode("src/two.ts", "export const two = 2;\n", "Add two", [ULID_A]);
    const before = repo.snapshot();
    const store = newStore();

    const first = await importGitRepository(store, repo.dir);
    expect(repo.snapshot()).toEqual(before);
    expect(first.branchRef).toBe("refs/heads/entire/checkpoints/v1 + refs/entire/checkpoints/* (1 refs)");
    expect([first.checkpointsTotal, first.checkpointsRead]).toEqual([2, 2]);
    expect(first.skipped).toEqual([]);
    expect(first.sessions.map((s) => [s.agentSessionId, s.checkpointId, s.transcript, s.report.status]).sort()).toEqual([
      [PI_ID, ULID_A.toLowerCase(), `56/${ULID_A}/0/full.jsonl`, "imported"],
      ["cc-session", "a1b2c3d4e5f6", "a1/b2c3d4e5f6/0/full.jsonl", "imported"],
      ["codex-session", ULID_A.toLowerCase(), `56/${ULID_A}/1/full.jsonl`, "imported"],
    ].sort());
    const sessions = store.listSessions();
    const pi = sessions.find((x) => x.agent === "pi")!;
    const codex = sessions.find((x) => x.agent === "codex")!;
    // the same entries as importing the transcript as a file
    const direct = newStore();
    const r = await direct.importFile(CODEX);
    expect(store.loadEntries(codex.id)).toEqual(direct.loadEntries(r.sessionId!));
    // the stored metadata and the commits the ULID trailer names
    const rows = store.db.prepare("SELECT checkpoint_id, idx, agent_session_id, model FROM git_checkpoint_sessions ORDER BY checkpoint_id, idx").all();
    expect(rows).toEqual([
      { checkpoint_id: ULID_A.toLowerCase(), idx: 0, agent_session_id: PI_ID, model: "gpt-5.6-sol" },
      { checkpoint_id: ULID_A.toLowerCase(), idx: 1, agent_session_id: "codex-session", model: null },
      { checkpoint_id: "a1b2c3d4e5f6", idx: 0, agent_session_id: "cc-session", model: null },
    ]);
    expect(store.getSessionCommits(pi.id).map((c) => c.sha)).toEqual([b]);
    expect(store.getSessionCommits(codex.id).map((c) => [c.sha, c.files])).toEqual([[b, ["src/two.ts"]]]);
    expect(store.getSessionCommits(sessions.find((x) => x.agent === "claude-code")!.id).map((c) => c.sha)).toEqual([a]);

    // again: nothing new; a new ref holding the pi session grown: only it is read, and appended
    expect((await importGitRepository(store, repo.dir)).checkpointsRead).toBe(0);
    repo.addCheckpointRef(ULID_B, [{ sessionId: PI_ID, agent: "Pi", createdAt: "2026-08-16T14:07:00Z", transcript: fs.readFileSync(PI) }]);
    const third = await importGitRepository(store, repo.dir);
    expect([third.checkpointsTotal, third.checkpointsRead]).toEqual([3, 1]);
    expect(third.sessions.map((s) => [s.agentSessionId, s.copy, s.report.status])).toEqual([[PI_ID, "appended", "appended"]]);
    expect(store.getSession(pi.id)!.entryCount).toBe(direct.getSession((await direct.importFile(PI)).sessionId!)!.entryCount);
  });

  it("reads a repository whose checkpoints are only on refs (no checkpoint branch)", async () => {
    const repo = EntireRepo.create(tempDir());
    repo.addCheckpointRef(ULID_A, [{ sessionId: "cc-session", agent: "Claude Code", createdAt: "2026-08-14T18:29:12Z", transcript: fs.readFileSync(CLAUDE) }]);
    const store = newStore();
    const r = await importGitRepository(store, repo.dir);
    expect(r.branchRef).toBe("refs/entire/checkpoints/* (1 refs)");
    expect(r.sessions.map((s) => s.report.status)).toEqual(["imported"]);
    expect(store.listSessions().map((x) => x.agent)).toEqual(["claude-code"]);
  });
});

function lastId(file: string): string {
  const lines = fs.readFileSync(file, "utf8").trim().split("\n");
  return (JSON.parse(lines[lines.length - 1]!) as { id: string }).id;
}
