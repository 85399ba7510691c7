/** The `bonsai import` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION, DATA_DIR_OPTION } from "./command";

export const importSpec: CommandSpec = {
  name: "import",
  summary:
    "Import session files or folders (recursively) into the Bonsai database: pi / oh-my-pi, Claude Code and Codex, recognised by their content. Without PATH: the agents' session folders. Source files are never modified by an import; Claude Code and Codex files are never written at all.",
  positionals: [
    { name: "PATH...", description: "session files or folders (default: ~/.pi/agent/sessions, ~/.omp/agent/sessions, ~/.claude/projects or $CLAUDE_CONFIG_DIR/projects, ~/.codex/sessions or $CODEX_HOME/sessions, BONSAI_SESSIONS_DIRS)", optional: true, variadic: true },
  ],
  options: [
    { name: "git", type: "string", valueName: "REPO", description: "import the sessions of a local git repository's Entire checkpoints (the entire/checkpoints/v1 branch, or refs/entire/checkpoints/… refs), linked to the commits that name them; read through git without changing the repository; again: only checkpoints added since" },
    DATA_DIR_OPTION,
    JSON_OPTION,
  ],
};
