/**
 * The agents' default session folders on this machine (~/.pi/agent/sessions, ~/.omp/agent/sessions,
 * BONSAI_SESSIONS_DIRS, the settings' sessionDirs), as the first-run screen offers them: found on
 * the host, with how many session files each holds. They are the folders importSessions accepts
 * paths in (import-roots.ts), so the page imports one by its path.
 */
import * as os from "node:os";
import * as path from "node:path";
import type { SessionFolder } from "@bonsai/ipc";
import { defaultSessionDirs, scanPaths } from "@bonsai/store";

export interface SessionFolders {
  /** the folders that exist and hold at least one session file */
  found(): SessionFolder[];
}

function agentOf(dir: string, home: string): string {
  if (dir === path.join(home, ".pi", "agent", "sessions")) return "pi";
  if (dir === path.join(home, ".omp", "agent", "sessions")) return "oh-my-pi";
  return "a folder from Bonsai's settings";
}

export function sessionFolders(settingsDirs: () => readonly string[], env: NodeJS.ProcessEnv): SessionFolders {
  const home = env.HOME && env.HOME.trim() !== "" ? env.HOME : os.homedir();
  return {
    found: () =>
      defaultSessionDirs(settingsDirs(), env, home)
        .map((dir, i) => ({ key: `folder-${i}`, agent: agentOf(dir, home), path: dir, sessionFiles: scanPaths([dir]).files.length }))
        .filter((f) => f.sessionFiles > 0),
  };
}
