import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentOfSessionDir, claudeCodeProjectsDir, codexSessionsDir, defaultDataDir, defaultDbPath, defaultSessionDirs, piSessionFile } from "../src/index";

describe("data folder and session folders", () => {
  it("matches Electron's userData for the app name Bonsai on each platform", () => {
    expect(defaultDataDir({}, "linux", "/home/ann")).toBe("/home/ann/.config/Bonsai");
    expect(defaultDataDir({ XDG_CONFIG_HOME: "/xdg" }, "linux", "/home/ann")).toBe("/xdg/Bonsai");
    expect(defaultDataDir({}, "darwin", "/Users/ann")).toBe("/Users/ann/Library/Application Support/Bonsai");
    expect(defaultDataDir({ APPDATA: "C:\\Users\\ann\\AppData\\Roaming" }, "win32", "C:\\Users\\ann")).toBe("C:\\Users\\ann\\AppData\\Roaming\\Bonsai");
  });

  it("puts bonsai.db in the data folder unless BONSAI_DB says otherwise", () => {
    expect(defaultDbPath({}, "linux", "/home/ann")).toBe("/home/ann/.config/Bonsai/bonsai.db");
    expect(defaultDbPath({ BONSAI_DB: "/tmp/x/my.db" }, "linux", "/home/ann")).toBe(path.resolve("/tmp/x/my.db"));
    expect(defaultDbPath({ BONSAI_DB: "  " }, "linux", "/home/ann")).toBe("/home/ann/.config/Bonsai/bonsai.db");
  });

  it("scans the agents' folders, then BONSAI_SESSIONS_DIRS, then the settings, without duplicates", () => {
    const dirs = defaultSessionDirs(["/extra/b", "~/notes", "/extra/a"], { BONSAI_SESSIONS_DIRS: ["/extra/a", "", "/env/c"].join(path.delimiter) }, "/home/ann");
    expect(dirs).toEqual([
      "/home/ann/.pi/agent/sessions",
      "/home/ann/.omp/agent/sessions",
      "/home/ann/.claude/projects",
      "/home/ann/.codex/sessions",
      "/extra/a",
      "/env/c",
      "/extra/b",
      "/home/ann/notes",
    ]);
  });

  it("finds Claude Code and Codex where their own variables put them", () => {
    expect(claudeCodeProjectsDir({}, "/home/ann")).toBe("/home/ann/.claude/projects");
    expect(claudeCodeProjectsDir({ CLAUDE_CONFIG_DIR: "/cfg/claude" }, "/home/ann")).toBe("/cfg/claude/projects");
    expect(codexSessionsDir({}, "/home/ann")).toBe("/home/ann/.codex/sessions");
    expect(codexSessionsDir({ CODEX_HOME: "~/codex-home" }, "/home/ann")).toBe("/home/ann/codex-home/sessions");
    const env = { CLAUDE_CONFIG_DIR: "/cfg/claude", CODEX_HOME: "/cfg/codex" };
    expect(defaultSessionDirs([], env, "/home/ann")).toContain("/cfg/codex/sessions");
    // each default folder names its agent (a first-run screen can say whose sessions it holds)
    expect(defaultSessionDirs(["/extra"], env, "/home/ann").map((d) => agentOfSessionDir(d, env, "/home/ann"))).toEqual(["pi", "omp", "claude-code", "codex", null]);
  });

  it("names a pi copy as pi names a new session of that folder", () => {
    expect(piSessionFile("/home/ann/proj", "0190-abc", "2026-05-01T10:11:12.345Z", {}, "/home/ann")).toBe(
      "/home/ann/.pi/agent/sessions/--home-ann-proj--/2026-05-01T10-11-12-345Z_0190-abc.jsonl",
    );
    expect(piSessionFile("/p", "id", "2026-05-01T10:11:12.345Z", { PI_CODING_AGENT_DIR: "/agent" }, "/home/ann")).toBe("/agent/sessions/--p--/2026-05-01T10-11-12-345Z_id.jsonl");
    expect(piSessionFile("/p", "id", "2026-05-01T10:11:12.345Z", { PI_CODING_AGENT_SESSION_DIR: "/flat" }, "/home/ann")).toBe("/flat/2026-05-01T10-11-12-345Z_id.jsonl");
  });
});
