/** The `bonsai compact` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION, MODEL_OPTIONS, SESSION_POSITIONAL } from "./command";

export const compactSpec: CommandSpec = {
  name: "compact",
  summary: "Compact a session: summarize the older part of the current branch into a compaction entry (the summary can be previewed with --dry-run).",
  positionals: [SESSION_POSITIONAL],
  options: [
    { name: "instructions", type: "string", valueName: "TEXT", description: "what the summary should focus on" },
    { name: "dry-run", type: "boolean", description: "print the summary without adding it to the session" },
    ...MODEL_OPTIONS,
    JSON_OPTION,
  ],
};
