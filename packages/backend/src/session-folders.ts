/**
 * The agents' default session folders on this machine (~/.pi/agent/sessions,
 * ~/.omp/agent/sessions, Claude Code's projects folder, Codex's sessions folder,
 * BONSAI_SESSIONS_DIRS, the settings' sessionDirs: the store's defaultSessionDirs, the folders
 * `bonsai import` reads without a path), as the first-run screen offers them: found on the host,
 * with how many session files each holds. They are the folders importSessions accepts paths in
 * (import-roots.ts), so the page imports one by its path.
 */
import * as os from "node:os";
import type { SessionFolder } from "@bonsai/ipc";
import { agentOfSessionDir, defaultSessionDirs, scanPaths } from "@bonsai/store";

export interface SessionFolders {
  /** the folders that exist and hold at least one session file */
  found(): SessionFolder[];
}

const AGENT_NAMES = { pi: "pi", omp: "oh-my-pi", "claude-code": "Claude Code", codex: "Codex" } as const;

export function sessionFolders(settingsDirs: () => readonly string[], env: NodeJS.ProcessEnv): SessionFolders {
  const home = env.HOME && env.HOME.trim() !== "" ? env.HOME : os.homedir();
  return {
    found: () =>
      defaultSessionDirs(settingsDirs(), env, home)
        .map((dir, i) => {
          const agent = agentOfSessionDir(dir, env, home);
          return { key: `folder-${i}`, agent: agent === null ? "a folder from Bonsai's settings" : AGENT_NAMES[agent], path: dir, sessionFiles: scanPaths([dir]).files.length };
        })
        .filter((f) => f.sessionFiles > 0),
  };
}
