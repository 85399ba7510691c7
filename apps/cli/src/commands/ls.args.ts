/** The `bonsai ls` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION, DATA_DIR_OPTION, ARCHIVE_OPTION, ARCHIVE_PROJECT_OPTION } from "./command";

export const lsSpec: CommandSpec = {
  name: "ls",
  summary:
    "List the sessions in the Bonsai database (most recently updated first): id, agent (pi, omp, claude-code, codex), last update, entries, compactions, title or first message, folder.",
  positionals: [],
  options: [DATA_DIR_OPTION, JSON_OPTION, ARCHIVE_OPTION, ARCHIVE_PROJECT_OPTION, { name: "limit", type: "integer", valueName: "N", description: "with --archive: at most N sessions (default: every session the token may read, read a page at a time)" }],
};
