/** The `bonsai whatif` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION, DATA_DIR_OPTION } from "./command";

export const whatifSpec: CommandSpec = {
  name: "whatif",
  summary:
    "Replay a session's active path under other compaction and pruning settings (no model call): where compactions would fire, the context along the path, its peak, tokens summarized and pruned, beside what the file records. Unset values are Bonsai's saved settings (or the defaults).",
  positionals: [{ name: "SESSION", optional: true, description: "a session JSONL file (read only) or a stored session id (not with --all)" }],
  options: [
    { name: "reserve", type: "integer", valueName: "N", description: "compaction.reserveTokens: threshold margin (window - N) and summary budgets" },
    { name: "keep-recent", type: "integer", valueName: "N", description: "compaction.keepRecentTokens: recent history kept verbatim" },
    { name: "threshold", type: "integer", valueName: "N", description: "compact when the context exceeds N tokens (instead of window - reserve)" },
    { name: "threshold-percent", type: "integer", valueName: "P", description: "compact when the context exceeds P % of the window" },
    { name: "prune", type: "string", valueName: "on|off", description: "prune old tool outputs before each check" },
    { name: "prune-protect", type: "integer", valueName: "N", description: "pruning: newest tool-output tokens never pruned" },
    { name: "prune-minimum", type: "integer", valueName: "N", description: "pruning: prune only when at least N tokens are saved" },
    { name: "context-window", type: "integer", valueName: "N", description: "the model's context window in tokens" },
    { name: "no-compaction", type: "boolean", description: "automatic compaction (and pruning) off" },
    { name: "all", type: "boolean", description: "every stored session, with totals (per-session runs without their series)" },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
};
