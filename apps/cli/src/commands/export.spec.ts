/** The `bonsai export` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";

export const exportSpec: CommandSpec = {
  name: "export",
  summary: "Write a session as JSONL in the current format (resumable by pi / oh-my-pi) or as Markdown of the active path.",
  positionals: [{ name: "SESSION", description: "a stored session id (or unique prefix) or a session file" }],
  options: [
    { name: "output", short: "o", type: "string", valueName: "FILE", description: "write to FILE (atomically) instead of stdout" },
    { name: "format", type: "string", valueName: "jsonl|md", description: "jsonl (default) or md" },
    { name: "leaf", type: "string", valueName: "ID", description: "Markdown: the path to this entry (default: the current leaf)" },
  ],
};
