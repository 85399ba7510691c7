/** The `bonsai amnesia` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION, DATA_DIR_OPTION, ARCHIVE_OPTION } from "./command";

export const amnesiaSpec: CommandSpec = {
  name: "amnesia",
  summary:
    "For each compaction and pruning of a session, the signs that the agent lost something it needed (files read again, calls repeated, errors back, instructions restated, identifiers dropped from the summary), each with the entries on both sides, and a score. No model call. With --all: every session with a compaction or pruning (of the local store, or of a team archive with --archive), worst first, with totals by kind and the worst compactions of all.",
  positionals: [{ name: "SESSION", optional: true, description: "a session JSONL file (read only) or a stored session id (not with --all)" }],
  options: [
    { name: "all", type: "boolean", description: "every session with a compaction or pruning, worst first, with totals" },
    ARCHIVE_OPTION,
    { name: "project", type: "string", valueName: "NAME", description: "with --archive --all: only this project's sessions" },
    DATA_DIR_OPTION,
    JSON_OPTION,
  ],
};
