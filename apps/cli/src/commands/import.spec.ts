/** The `bonsai import` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION } from "./command";

export const importSpec: CommandSpec = {
  name: "import",
  summary:
    "Import pi / oh-my-pi session files or folders (recursively) into the Bonsai database. Without PATH: the agents' session folders. Source files are never modified.",
  positionals: [
    { name: "PATH...", description: "session files or folders (default: ~/.pi/agent/sessions, ~/.omp/agent/sessions, BONSAI_SESSIONS_DIRS)", optional: true, variadic: true },
  ],
  options: [JSON_OPTION],
};
