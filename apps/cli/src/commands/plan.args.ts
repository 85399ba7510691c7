/** The `bonsai plan` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import { DEFAULT_SETTINGS } from "@bonsai/core/defaults";
import type { CommandSpec } from "../args";
import { FILE_POSITIONAL, JSON_OPTION, DATA_DIR_OPTION } from "./command";

export const planSpec: CommandSpec = {
  name: "plan",
  summary: "Show what compacting the branch at a leaf (default: the last entry) would summarize and keep, without calling a model. JSON null = nothing to compact.",
  positionals: [FILE_POSITIONAL],
  options: [
    { name: "leaf", type: "string", valueName: "ID", description: "entry id of the leaf whose branch is planned" },
    { name: "reserve", type: "integer", valueName: "N", description: `compaction.reserveTokens (default ${DEFAULT_SETTINGS.compaction.reserveTokens})` },
    { name: "keep-recent", type: "integer", valueName: "N", description: `compaction.keepRecentTokens (default ${DEFAULT_SETTINGS.compaction.keepRecentTokens})` },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
};
