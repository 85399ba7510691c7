/** The `bonsai branch` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import { DEFAULT_BRANCH_BUDGET } from "@bonsai/core/defaults";
import type { CommandSpec } from "../args";
import { FILE_POSITIONAL, JSON_OPTION, DATA_DIR_OPTION } from "./command";

export const branchSpec: CommandSpec = {
  name: "branch",
  summary: "Show which abandoned entries a branch summary would cover when moving from one leaf to another entry, within a token budget.",
  positionals: [FILE_POSITIONAL],
  options: [
    { name: "from", type: "string", valueName: "OLD_LEAF", description: "the leaf being left (default: the session's leaf, for a file its last entry)" },
    { name: "to", type: "string", valueName: "TARGET", description: "the entry navigated to (required)" },
    { name: "budget", type: "integer", valueName: "N", description: `token budget of the summarized messages (default ${DEFAULT_BRANCH_BUDGET}; 0 = unlimited)` },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
};
