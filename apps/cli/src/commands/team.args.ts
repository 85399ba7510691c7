/** The `bonsai team` command's spec (name, summary, arguments): cheap to load, see index.ts. */
import type { CommandSpec } from "../args";

export const teamSpec: CommandSpec = {
  name: "team",
  summary:
    "Run and administer a team archive on PostgreSQL. serve; user add NAME [--role admin|member]; project add NAME; grant NAME PROJECT; token add NAME; token revoke TOKEN_ID (or --user NAME); ls. The database URL comes from --database or BONSAI_TEAM_DATABASE.",
  positionals: [
    { name: "ACTION", description: "serve, user, project, grant, token or ls" },
    { name: "ARGS", description: "what the action takes (see above)", optional: true, variadic: true },
  ],
  options: [
    { name: "database", type: "string", valueName: "URL", description: "postgres://… of the archive's database (default: BONSAI_TEAM_DATABASE)" },
    { name: "listen", type: "string", valueName: "HOST:PORT", description: "serve: where to listen (default 127.0.0.1:8470)" },
    { name: "cache-mb", type: "string", valueName: "MB", description: "serve: memory for answers kept to be given again until the data they came from changes (default 64; 0: none kept)" },
    { name: "trusted-proxy-header", type: "string", valueName: "HEADER", description: "serve: the header your reverse proxy writes the client's address in (e.g. x-forwarded-for): failed sign-ins are then also limited per client address (default: per token id only)" },
    { name: "list-page", type: "integer", valueName: "N", description: "serve: how many sessions the page's session list loads at a time (default 200, 1-1000)" },
    { name: "role", type: "string", valueName: "ROLE", description: "user add: admin or member (default member)" },
    { name: "user", type: "string", valueName: "NAME", description: "token revoke: every token of this person" },
    { name: "json", type: "boolean", description: "print JSON instead of text" },
  ],
};
