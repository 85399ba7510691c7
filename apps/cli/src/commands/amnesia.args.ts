/** The `bonsai amnesia` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { FILE_POSITIONAL, JSON_OPTION, DATA_DIR_OPTION } from "./command";

export const amnesiaSpec: CommandSpec = {
  name: "amnesia",
  summary:
    "For each compaction and pruning of a session, the signs that the agent lost something it needed (files read again, calls repeated, errors back, instructions restated, identifiers dropped from the summary), each with the entries on both sides, and a score. No model call.",
  positionals: [FILE_POSITIONAL],
  options: [DATA_DIR_OPTION, JSON_OPTION],
};
