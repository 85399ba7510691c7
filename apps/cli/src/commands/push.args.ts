/** The `bonsai push` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";
import { DATA_DIR_OPTION, JSON_OPTION } from "./command";

export const pushSpec: CommandSpec = {
  name: "push",
  summary:
    "Push stored sessions to a team archive (token from BONSAI_TOKEN): only the entries it lacks, secrets redacted first. A push never changes a session; --watch keeps pushing as sessions grow.",
  positionals: [{ name: "SESSION", description: "stored session ids (or unique prefixes); or --all", optional: true, variadic: true }],
  options: [
    { name: "to", type: "string", valueName: "URL", description: "the team archive, e.g. https://bonsai.example.com" },
    { name: "project", type: "string", valueName: "NAME", description: "the archive project to push into" },
    { name: "all", type: "boolean", description: "every stored session" },
    { name: "dry-run", type: "boolean", description: "show what would be sent and what would be redacted; send nothing" },
    { name: "watch", type: "boolean", description: "keep pushing: take in what agents appended to their files and push it, every few seconds" },
    { name: "interval", type: "integer", valueName: "SECONDS", description: "--watch: seconds between rounds (default 5)" },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
};
