/** The `bonsai search` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION } from "./command";

export const searchSpec: CommandSpec = {
  name: "search",
  summary:
    'Search message text, tool names and file paths of every stored session. Words must all match; word* matches a prefix; "a phrase" matches in order.',
  positionals: [{ name: "QUERY", description: "what to look for" }],
  options: [
    { name: "session", type: "string", valueName: "ID", description: "only this stored session (id or unique prefix)" },
    { name: "limit", type: "integer", valueName: "N", description: "at most N hits (default 50, at most 500)" },
    JSON_OPTION,
  ],
};
