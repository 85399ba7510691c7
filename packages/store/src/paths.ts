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

/**
 * The folders imported and watched by default: ~/.pi/agent/sessions, ~/.omp/agent/sessions,
 * then BONSAI_SESSIONS_DIRS (path.delimiter-separated), then settings.sessionDirs; duplicates removed.
 */
export function defaultSessionDirs(settingsDirs: readonly string[] = [], env: Env = process.env, home: string = os.homedir()): string[] {
  const dirs = [path.join(home, ".pi", "agent", "sessions"), path.join(home, ".omp", "agent", "sessions")];
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
