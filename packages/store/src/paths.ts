/**
 * Where Bonsai keeps its database and where agents keep their sessions.
 * The data dir matches Electron's app.getPath("userData") for the app name "Bonsai".
 */
import os from "node:os";
import path from "node:path";

export const APP_NAME = "Bonsai";
export const DB_FILE_NAME = "bonsai.db";

type Env = Readonly<Record<string, string | undefined>>;

/** Electron's userData for "Bonsai": Linux $XDG_CONFIG_HOME|~/.config, macOS Application Support, Windows %APPDATA%. */
export function defaultDataDir(env: Env = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  if (platform === "win32") return path.win32.join(env.APPDATA || path.win32.join(home, "AppData", "Roaming"), APP_NAME);
  if (platform === "darwin") return path.posix.join(home, "Library", "Application Support", APP_NAME);
  return path.posix.join(env.XDG_CONFIG_HOME || path.posix.join(home, ".config"), APP_NAME);
}

/** BONSAI_DB if set, else <data dir>/bonsai.db. */
export function defaultDbPath(env: Env = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  const override = env.BONSAI_DB;
  if (override && override.trim() !== "") return path.resolve(override);
  return (platform === "win32" ? path.win32 : path.posix).join(defaultDataDir(env, platform, home), DB_FILE_NAME);
}

/** Claude Code's transcripts: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects (sub-agents in the session folders below). */
export function claudeCodeProjectsDir(env: Env = process.env, home: string = os.homedir()): string {
  const config = env.CLAUDE_CONFIG_DIR;
  return path.join(config && config.trim() !== "" ? expandHome(config, home) : path.join(home, ".claude"), "projects");
}

/** Codex's rollouts: $CODEX_HOME/sessions, else ~/.codex/sessions. */
export function codexSessionsDir(env: Env = process.env, home: string = os.homedir()): string {
  const codexHome = env.CODEX_HOME;
  return path.join(codexHome && codexHome.trim() !== "" ? expandHome(codexHome, home) : path.join(home, ".codex"), "sessions");
}

/** pi's agent folder: $PI_CODING_AGENT_DIR, else ~/.pi/agent (pi's own rule). */
export function piAgentDir(env: Env = process.env, home: string = os.homedir()): string {
  const dir = env.PI_CODING_AGENT_DIR;
  return dir && dir.trim() !== "" ? expandHome(dir, home) : path.join(home, ".pi", "agent");
}

/**
 * The file pi itself would create for a new session in `cwd` (pi's SessionManager rule):
 * $PI_CODING_AGENT_SESSION_DIR, else <pi agent dir>/sessions/--<cwd with separators as ->--/,
 * named <timestamp with : and . as ->_<session id>.jsonl. pi lists and resumes sessions there.
 */
export function piSessionFile(cwd: string, sessionId: string, timestamp: string, env: Env = process.env, home: string = os.homedir()): string {
  const flat = env.PI_CODING_AGENT_SESSION_DIR;
  const dir =
    flat && flat.trim() !== "" ? expandHome(flat, home) : path.join(piAgentDir(env, home), "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
  return path.join(dir, `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`);
}

/** The agent whose default session folder `dir` is (null for other folders: BONSAI_SESSIONS_DIRS, settings). */
export function agentOfSessionDir(dir: string, env: Env = process.env, home: string = os.homedir()): "pi" | "omp" | "claude-code" | "codex" | null {
  const abs = path.resolve(dir);
  if (abs === path.join(home, ".pi", "agent", "sessions")) return "pi";
  if (abs === path.join(home, ".omp", "agent", "sessions")) return "omp";
  if (abs === claudeCodeProjectsDir(env, home)) return "claude-code";
  if (abs === codexSessionsDir(env, home)) return "codex";
  return null;
}

function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  return p.startsWith("~/") ? path.join(home, p.slice(2)) : p;
}

/**
 * The folders imported and watched by default: ~/.pi/agent/sessions, ~/.omp/agent/sessions, Claude
 * Code's projects folder and Codex's sessions folder (see above), then BONSAI_SESSIONS_DIRS
 * (path.delimiter-separated), then settings.sessionDirs; duplicates removed.
 */
export function defaultSessionDirs(settingsDirs: readonly string[] = [], env: Env = process.env, home: string = os.homedir()): string[] {
  const dirs = [path.join(home, ".pi", "agent", "sessions"), path.join(home, ".omp", "agent", "sessions"), claudeCodeProjectsDir(env, home), codexSessionsDir(env, home)];
  const extra = env.BONSAI_SESSIONS_DIRS;
  if (extra) dirs.push(...extra.split(path.delimiter).filter((d) => d.trim() !== ""));
  dirs.push(...settingsDirs.filter((d) => typeof d === "string" && d.trim() !== ""));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const d of dirs) {
    const abs = path.resolve(d.startsWith("~/") ? path.join(home, d.slice(2)) : d);
    if (!seen.has(abs)) {
      seen.add(abs);
      out.push(abs);
    }
  }
  return out;
}
