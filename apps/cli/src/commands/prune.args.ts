/** The `bonsai prune` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import { DEFAULT_PRUNE_CONFIG } from "@bonsai/core/defaults";
import type { CommandSpec } from "../args";
import { JSON_OPTION, DATA_DIR_OPTION } from "./command";

export const pruneSpec: CommandSpec = {
  name: "prune",
  summary: "Show which old tool outputs pruning would replace by a notice on the branch at a leaf, and the tokens saved (--dry-run: nothing is written).",
  positionals: [{ name: "SESSION", description: "a session JSONL file (read only: always a dry run), or a stored session id (pruned unless --dry-run)" }],
  options: [
    { name: "dry-run", type: "boolean", description: "only show the plan (always the case for a session file, which is never modified)" },
    { name: "leaf", type: "string", valueName: "ID", description: "entry id of the leaf whose branch is pruned" },
    {
      name: "protect",
      type: "string",
      valueName: "TOOLS",
      description: `comma-separated tool names never pruned (default ${DEFAULT_PRUNE_CONFIG.protectedTools.join(",")}; the reference checkout used "skill")`,
    },
    DATA_DIR_OPTION,
    JSON_OPTION,
  ],
};
