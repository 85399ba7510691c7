/** The `bonsai context` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { FILE_POSITIONAL, JSON_OPTION, DATA_DIR_OPTION, ARCHIVE_OPTION, ARCHIVE_PROJECT_OPTION } from "./command";

export const contextSpec: CommandSpec = {
  name: "context",
  summary: "Show the messages the model sees from a leaf (default: the last entry of the file), with their producing entries, roles and token estimates.",
  positionals: [FILE_POSITIONAL],
  options: [
    { name: "leaf", type: "string", valueName: "ID", description: "entry id to build the context from" },
    { name: "all", type: "boolean", description: "list every message (a context of more than 500 lists its first 50 and newest 450)" },
    JSON_OPTION,
    DATA_DIR_OPTION,
    ARCHIVE_OPTION,
    ARCHIVE_PROJECT_OPTION,
  ],
};
