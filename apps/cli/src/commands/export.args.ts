/** The `bonsai export` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { DATA_DIR_OPTION, ARCHIVE_OPTION, ARCHIVE_PROJECT_OPTION } from "./command";

export const exportSpec: CommandSpec = {
  name: "export",
  summary:
    "Write a session as JSONL (pi / oh-my-pi: the current pi format; Claude Code and Codex files: the agent's own file, byte for byte), as Markdown of the active path, as a pi session of one path that pi resumes (--format pi: \"Continue in pi\"), or as one self-contained HTML page (--format html).",
  positionals: [{ name: "SESSION", description: "a stored session id (or unique prefix) or a session file of pi, oh-my-pi, Claude Code or Codex" }],
  options: [
    { name: "output", short: "o", type: "string", valueName: "FILE", description: "write to FILE (atomically) instead of stdout" },
    { name: "format", type: "string", valueName: "jsonl|md|pi|html", description: "jsonl (default), md, pi or html" },
    { name: "leaf", type: "string", valueName: "ID", description: "md, pi, html: the path to this entry (default: the current leaf)" },
    DATA_DIR_OPTION,
    ARCHIVE_OPTION,
    ARCHIVE_PROJECT_OPTION,
  ],
};
