/** The session list's figures and actions: titles kept in Bonsai, counts, the agents' folders. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MethodName, MethodOutput } from "@bonsai/ipc";
import { generateSession, sessionToJsonl } from "@bonsai/testkit";
import { createBackend, type Backend } from "../src/index";
import { callParsed } from "./support";

let dir: string;
let home: string;
let backend: Backend;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bonsai-list-"));
  home = path.join(dir, "home");
  fs.mkdirSync(home);
  backend = createBackend({ dataDir: path.join(dir, "data"), env: { HOME: home } });
});
afterEach(async () => {
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = <M extends MethodName>(method: M, params: unknown): Promise<MethodOutput<M>> => callParsed(backend, method, params);

const real = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");
const CLAUDE = path.join(real, "claude-code/entireio__cli__b0_dc55b3a1dc_1_full.jsonl");
const CODEX = path.join(real, "codex/EntityProcess__agentv__00_34f597b72d_1_full.jsonl");
const haveReal = fs.existsSync(CLAUDE) && fs.existsSync(CODEX);
if (!haveReal) console.warn(`real Claude Code / Codex files not found under ${real}: the test of their default folders is skipped`);

/** a session file in the pi sessions folder of this test's home (the window may import paths there) */
const piFile = (name: string) => path.join(home, ".pi/agent/sessions/--tmp-list--", name);

function writeSession(file: string, seed: number, entries = 200): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, sessionToJsonl(generateSession({ entries, seed, compactionInterval: 60, branchProbability: 0.2 })));
}

describe("session list", () => {
  it("a title given in Bonsai shows in the list, never reaches the file, and goes back with null", async () => {
    const file = piFile("a.jsonl");
    writeSession(file, 1);
    const before = fs.readFileSync(file, "utf8");
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    const original = (await call("listSessions", {})).sessions[0]!.title;
    const { session } = await call("setSessionTitle", { sessionId, title: "  Parser rewrite " });
    expect(session).toMatchObject({ title: "Parser rewrite", customTitle: true });
    expect((await call("listSessions", {})).sessions[0]).toMatchObject({ title: "Parser rewrite", customTitle: true });
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect((await call("setSessionTitle", { sessionId, title: null })).session).toMatchObject({ title: original, customTitle: false });
    const bad = await backend.dispatch("setSessionTitle", { sessionId, title: "x".repeat(201) });
    expect(bad.ok ? "" : bad.error.message).toContain("longer than 200");
  });

  it("counts compactions, branch tips and what the model sees from the leaf (the preview's figure)", async () => {
    const file = piFile("b.jsonl");
    writeSession(file, 2);
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    const listed = (await call("listSessions", {})).sessions[0]!;
    const preview = await call("getContextPreview", { sessionId });
    expect(listed.contextTokens).toBe(preview.agentTokens);
    expect(listed.estimatedTokens).toBe(preview.tokens);
    expect(listed.compactionCount).toBeGreaterThan(0);
    expect(listed.branches).toBeGreaterThan(1);
  });

  it("removing a session from Bonsai keeps the agent's file", async () => {
    const file = piFile("c.jsonl");
    writeSession(file, 3);
    const sessionId = (await call("importSessions", { paths: [file] })).results[0]!.sessionId!;
    expect(await call("deleteSession", { sessionId })).toEqual({ deleted: true });
    expect((await call("listSessions", {})).sessions).toEqual([]);
    expect(fs.existsSync(file)).toBe(true);
  });

  it("finds the agents' default folders with their session counts, and imports one by its path", async () => {
    expect((await call("findSessionFolders", {})).folders).toEqual([]);
    writeSession(path.join(home, ".pi/agent/sessions/--tmp-proj--/one.jsonl"), 4, 50);
    writeSession(path.join(home, ".pi/agent/sessions/--tmp-proj--/two.jsonl"), 5, 50);
    writeSession(path.join(home, ".omp/agent/sessions/--tmp-x--/three.jsonl"), 6, 50);
    const { folders } = await call("findSessionFolders", {});
    expect(folders.map((f) => [f.agent, f.sessionFiles])).toEqual([
      ["pi", 2],
      ["oh-my-pi", 1],
    ]);
    expect(folders[0]!.path).toBe(path.join(home, ".pi/agent/sessions"));
    const { results } = await call("importSessions", { paths: [folders[0]!.path] });
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect((await call("listSessions", {})).sessions).toHaveLength(2);
  });

  it.runIf(haveReal)("finds Claude Code's and Codex's default folders too, named by their agent, and imports them by their path", async () => {
    const claude = path.join(home, ".claude/projects/-work-app/8f0c.jsonl");
    const codex = path.join(home, ".codex/sessions/2026/01/02/rollout-2026-01-02T10-00-00-0001.jsonl");
    for (const [from, to] of [
      [CLAUDE, claude],
      [CODEX, codex],
    ] as const) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
    }
    writeSession(path.join(home, ".pi/agent/sessions/--tmp-proj--/one.jsonl"), 4, 50);
    const { folders } = await call("findSessionFolders", {});
    expect(folders.map((f) => [f.agent, f.path, f.sessionFiles])).toEqual([
      ["pi", path.join(home, ".pi/agent/sessions"), 1],
      ["Claude Code", path.join(home, ".claude/projects"), 1],
      ["Codex", path.join(home, ".codex/sessions"), 1],
    ]);
    const { results } = await call("importSessions", { paths: [folders[1]!.path, folders[2]!.path] });
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    const agents = (await call("listSessions", {})).sessions.map((s) => s.agent).sort();
    expect(agents).toEqual(["claude-code", "codex"]);
  });
});
