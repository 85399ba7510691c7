/** The `bonsai navigate` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION, MODEL_OPTIONS, SESSION_POSITIONAL } from "./command";

export const navigateSpec: CommandSpec = {
  name: "navigate",
  summary: "Move a session's leaf to another entry; with --summarize, summarize the branch being left and attach the summary at the destination.",
  positionals: [
    SESSION_POSITIONAL,
    { name: "TARGET", description: "id of the entry to move to (a user message: the leaf goes to its parent and its text is printed for re-editing)" },
  ],
  options: [
    { name: "summarize", type: "boolean", description: "summarize the abandoned branch" },
    { name: "instructions", type: "string", valueName: "TEXT", description: "custom summary instructions (replace the default prompt)" },
    ...MODEL_OPTIONS,
    JSON_OPTION,
  ],
};
