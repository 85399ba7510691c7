/** The `bonsai config` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { DATA_DIR_OPTION, JSON_OPTION } from "./command";

export const configSpec: CommandSpec = {
  name: "config",
  summary:
    "Show or change Bonsai's settings (kept in the database of the data folder). The only way to change the host settings the browser page cannot: hooksDir, sessionDirs, model.apiKeyEnv, model.baseUrl, compaction.remoteEndpoint.",
  positionals: [
    { name: "ACTION", description: "get (every setting, or KEY), set KEY VALUE..., or unset KEY (back to its default)" },
    { name: "KEY", description: "a dotted setting name, e.g. model.baseUrl, compaction.reserveTokens, hooksDir", optional: true },
    { name: "VALUE...", description: "the new value; a list (sessionDirs, model.fallbackModels) takes any number, folders are made absolute", optional: true, variadic: true },
  ],
  options: [DATA_DIR_OPTION, JSON_OPTION],
};
