/**
 * The window's "Import from a Git Repository…": importGitRepository and findGitRepositories on a
 * backend, against a repository built with git (testkit entire-repo.ts): a repository inside the
 * session folders, one the backend offered, the desktop app's folder picker, and the refusals.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CallResult } from "@bonsai/ipc";
import { EntireRepo } from "@bonsai/testkit/entire-repo";
import { createBackend, type Backend, type HostDialogs } from "../src/index";
import { ok } from "./support";

const CODEX = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real/codex/iampkuhz__feipi-session-browser__rollout-2026-06-19T12-32-38-019ede26-ff03-7a82-bb34-cfab716a498a.jsonl");
const HAVE = fs.existsSync(CODEX);

let dir: string;
const backends: Backend[] = [];
let repo: EntireRepo;

/** a small pi session whose working folder is the repository (what onboarding looks at) */
function piSessionIn(cwd: string): Buffer {
  const lines = [
    { type: "session", version: 3, id: "pi-in-repo", timestamp: "2026-01-01T00:00:00.000Z", cwd },
    { type: "message", id: "u1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "add one", timestamp: 1 } },
  ];
  return Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

function backendWith(dialogs?: HostDialogs): Backend {
  const b = createBackend({ dataDir: path.join(dir, `data-${backends.length}`), env: { BONSAI_SESSIONS_DIRS: path.join(dir, "sessions") }, ...(dialogs ? { dialogs } : {}) });
  backends.push(b);
  return b;
}

type GitImport = { cancelled: boolean; repository: string | null; checkpointsRead: number; checkpointsTotal: number; commitsLinked: number; results: { ok: boolean; sessionId: string | null; source: string }[] };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-git-backend-"));
  fs.mkdirSync(path.join(dir, "sessions"));
  repo = EntireRepo.create(path.join(dir, "sessions"));
  repo.addCheckpoint("abcdef012345", [
    { sessionId: "pi-in-repo", agent: "Pi", createdAt: "2026-01-01T00:00:05Z", transcript: piSessionIn(repo.dir) },
    { sessionId: "codex-1", agent: "Codex", createdAt: "2026-01-01T00:00:06Z", transcript: HAVE ? fs.readFileSync(CODEX) : Buffer.from("{}\n") },
  ]);
  repo.commitCode("one.txt", "1\n", "Add one", ["abcdef012345"]);
});
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE)("importGitRepository", () => {
  it("imports a repository inside the session folders, with progress events and the commit links", async () => {
    const b = backendWith();
    const events: { event: string; payload: unknown }[] = [];
    b.onEvent((event, payload) => events.push({ event, payload }));
    const r = ok<GitImport>(await b.dispatch("importGitRepository", { path: repo.dir, requestId: "g1" }));
    expect([r.cancelled, r.checkpointsRead, r.checkpointsTotal, r.commitsLinked]).toEqual([false, 1, 1, 1]);
    expect(r.results.map((x) => [x.ok, x.source])).toEqual([
      [true, "ab/cdef012345/1/full.jsonl (Codex)"],
      [true, "ab/cdef012345/0/full.jsonl (Pi)"],
    ]);
    const progress = events.filter((e) => e.event === "importProgress").map((e) => e.payload as { requestId: string; done: number; total: number; finished: boolean });
    expect(progress.at(-1)).toMatchObject({ requestId: "g1", fileIndex: 1, fileCount: 2, finished: true });
    // what the database holds
    const piId = r.results[1]!.sessionId!;
    expect(b.store.listSessions().map((s) => s.id).sort()).toEqual(r.results.map((x) => x.sessionId).sort());
    expect((b.store as unknown as { getSessionCommits(id: string): { subject: string }[] }).getSessionCommits(piId).map((c) => c.subject)).toEqual(["Add one"]);
    // what the window reads of the links
    const commits = ok<{ commits: { sha: string; subject: string; files: string[] }[] }>(await b.dispatch("getSessionCommits", { sessionId: piId })).commits;
    expect(commits.map((c) => [c.subject, c.files])).toEqual([["Add one", ["one.txt"]]]);
    expect(ok<{ counts: Record<string, number> }>(await b.dispatch("getCommitCounts", {})).counts).toEqual({ [piId]: 1, [r.results[0]!.sessionId!]: 1 });
    // the window's search finds the sessions by a commit's sha prefix and by a file it changed, a hit opening the session at its leaf
    const search = async (query: string) => ok<{ hits: { sessionId: string; entryId: string; type: string; snippet: string }[] }>(await b.dispatch("searchSessions", { query })).hits.filter((h) => h.type === "commit");
    const bySha = await search(commits[0]!.sha.slice(0, 8));
    expect(bySha.map((h) => h.sessionId)).toContain(piId);
    expect(bySha.find((h) => h.sessionId === piId)).toMatchObject({ entryId: b.store.getSession(piId)!.leafId, snippet: expect.stringContaining("Add one") });
    expect((await search("one.txt")).map((h) => h.sessionId)).toContain(piId);
    expect(await search("no-such-file.txt")).toEqual([]);
    // again: nothing new
    const again = ok<GitImport>(await b.dispatch("importGitRepository", { path: repo.dir }));
    expect([again.checkpointsRead, again.results.length]).toEqual([0, 0]);
  });

  it("cancelImport stops it: what was read is not kept as read, and the next import reads every checkpoint again", async () => {
    const b = backendWith();
    const running = b.dispatch("importGitRepository", { path: repo.dir, requestId: "g2" });
    const cancelled = ok<{ cancelled: boolean }>(await b.dispatch("cancelImport", { requestId: "g2" }));
    expect(cancelled.cancelled).toBe(true);
    const r = ok<GitImport>(await running);
    expect(r.cancelled).toBe(true);
    expect(ok<{ counts: Record<string, number> }>(await b.dispatch("getCommitCounts", {})).counts).toEqual({});
    const next = ok<GitImport>(await b.dispatch("importGitRepository", { path: repo.dir }));
    expect([next.cancelled, next.checkpointsRead, next.results.every((x) => x.ok)]).toEqual([false, 1, true]);
  });

  it("refuses a repository outside the session folders, and a picker in browser mode", async () => {
    const b = backendWith();
    const outside = EntireRepo.create(dir);
    const r: CallResult = await b.dispatch("importGitRepository", { path: outside.dir });
    expect(r.ok ? null : [r.error.code, r.error.message]).toEqual(["forbidden", expect.stringContaining("outside the session folders")]);
    const picker: CallResult = await b.dispatch("importGitRepository", {});
    expect(picker.ok ? null : picker.error.code).toBe("unavailable");
    const notRepo: CallResult = await b.dispatch("importGitRepository", { path: path.join(dir, "sessions") });
    expect(notRepo.ok ? null : notRepo.error.message).toMatch(/is not a git repository/);
    expect(b.store.listSessions()).toEqual([]);
  });

  it("the desktop app's picker chooses the repository; cancelled, nothing is read", async () => {
    let answer: string | null = null;
    const dialogs: HostDialogs = { openSessionFiles: async () => null, saveSessionFile: async () => null, chooseFolder: async () => null, chooseGitRepository: async () => answer, confirmSettings: async () => false };
    const b = backendWith(dialogs);
    expect(ok<GitImport>(await b.dispatch("importGitRepository", {}))).toMatchObject({ cancelled: true, repository: null, results: [] });
    expect(b.store.listSessions()).toEqual([]);
    const outside = EntireRepo.create(dir);
    outside.addCheckpoint("123456abcdef", [{ sessionId: "codex-2", agent: "Codex", createdAt: "2026-01-01T00:00:06Z", transcript: fs.readFileSync(CODEX) }]);
    answer = outside.dir;
    const r = ok<GitImport>(await b.dispatch("importGitRepository", {}));
    expect([r.cancelled, r.checkpointsRead, r.results.map((x) => x.ok)]).toEqual([false, 1, [true]]);
  });

  it("findGitRepositories offers the working folders of session files and stored sessions that hold checkpoints", async () => {
    const b = backendWith();
    expect(ok<{ repositories: unknown[] }>(await b.dispatch("findGitRepositories", {})).repositories).toEqual([]);
    // before any import: an agent's session file whose working folder is the repository (and one elsewhere)
    fs.mkdirSync(path.join(dir, "sessions", "agent"));
    fs.writeFileSync(path.join(dir, "sessions", "agent", "a.jsonl"), piSessionIn(repo.dir));
    fs.writeFileSync(path.join(dir, "sessions", "agent", "b.jsonl"), piSessionIn(dir));
    const found = ok<{ repositories: { path: string; sessions: number }[] }>(await b.dispatch("findGitRepositories", {}));
    expect(found.repositories).toEqual([{ path: repo.dir, sessions: 1 }]);
    // offered, so it may be imported by its path
    const r = ok<GitImport>(await b.dispatch("importGitRepository", { path: repo.dir }));
    expect(r.checkpointsRead).toBe(1);
    // a repository that only stored sessions name (no session file in the agents' folders names it)
    const other = backendWith();
    fs.rmSync(path.join(dir, "sessions", "agent"), { recursive: true });
    expect(ok<{ repositories: unknown[] }>(await other.dispatch("findGitRepositories", {})).repositories).toEqual([]);
    await other.dispatch("importGitRepository", { path: repo.dir });
    expect(ok<{ repositories: unknown[] }>(await other.dispatch("findGitRepositories", {})).repositories).toEqual([{ path: repo.dir, sessions: 1 }]);
  });

  it("offers and imports a repository whose checkpoints are on refs of their own (Entire 0.10), without the branch", async () => {
    const refsOnly = EntireRepo.create(path.join(dir, "sessions", "refs-only"));
    refsOnly.addCheckpointRef("01M00RJ1HC7TDT6GQBD07F6356", [{ sessionId: "pi-in-refs", agent: "Pi", createdAt: "2026-01-01T00:00:05Z", transcript: piSessionIn(refsOnly.dir) }]);
    refsOnly.commitCode("one.txt", "1\n", "Add one", ["01M00RJ1HC7TDT6GQBD07F6356"]);
    fs.mkdirSync(path.join(dir, "sessions", "agent"));
    fs.writeFileSync(path.join(dir, "sessions", "agent", "a.jsonl"), piSessionIn(refsOnly.dir));
    const b = backendWith();
    expect(ok<{ repositories: { path: string }[] }>(await b.dispatch("findGitRepositories", {})).repositories.map((r) => r.path)).toEqual([refsOnly.dir]);
    const r = ok<GitImport>(await b.dispatch("importGitRepository", { path: refsOnly.dir }));
    expect([r.checkpointsRead, r.commitsLinked, r.results.map((x) => x.ok)]).toEqual([1, 1, [true]]);
  });
});
