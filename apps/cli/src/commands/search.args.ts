/** The `bonsai search` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION, DATA_DIR_OPTION, ARCHIVE_OPTION, ARCHIVE_PROJECT_OPTION } from "./command";

export const searchSpec: CommandSpec = {
  name: "search",
  summary:
    'Search message text, tool names and file paths of every stored session, or of one session file of any agent (--file). Words must all match; word* matches a prefix; "a phrase" matches in order.',
  positionals: [{ name: "QUERY", description: "what to look for" }],
  options: [
    { name: "session", type: "string", valueName: "ID", description: "only this stored session (id or unique prefix)" },
    { name: "file", type: "string", valueName: "FILE", description: "search this session file (pi, oh-my-pi, Claude Code, Codex) instead of the database" },
    { name: "limit", type: "integer", valueName: "N", description: "at most N hits (default 50, at most 500)" },
    JSON_OPTION,
    DATA_DIR_OPTION,
    ARCHIVE_OPTION,
    ARCHIVE_PROJECT_OPTION,
  ],
};
