/** The `bonsai migrate` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import { CURRENT_SESSION_VERSION } from "@bonsai/core/defaults";
import type { CommandSpec } from "../args";
import { JSON_OPTION, DATA_DIR_OPTION } from "./command";

export const migrateSpec: CommandSpec = {
  name: "migrate",
  summary: `Write a session in the current format version (${CURRENT_SESSION_VERSION}). Legacy v1 entries get ids and parents, v2 hookMessage roles become custom.`,
  positionals: [{ name: "SESSION", description: "a session JSONL file (any format version)" }],
  options: [
    { name: "output", short: "o", type: "string", valueName: "OUT", description: "write to this file (atomically) instead of stdout" },
    { ...JSON_OPTION, description: "with -o, print a JSON summary of what was written" },
    DATA_DIR_OPTION,
  ],
};
