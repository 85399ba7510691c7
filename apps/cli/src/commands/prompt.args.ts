/** The `bonsai prompt` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { JSON_OPTION, MODEL_OPTIONS, SESSION_POSITIONAL } from "./command";

export const promptSpec: CommandSpec = {
  name: "prompt",
  summary: "Continue a session: send a message to the configured model, stream the reply, append both, and compact automatically when the context is full.",
  positionals: [
    SESSION_POSITIONAL,
    { name: "TEXT", description: "the message to send" },
  ],
  options: MODEL_OPTIONS.filter((o) => o.name !== "offline").concat(JSON_OPTION),
};
