/** The shape of one `bonsai <name>` command module. */
import type { CommandSpec, ParsedArgs } from "../args";
import type { Io } from "../output";

export interface Command {
  spec: CommandSpec;
  /** returns the exit status (0 when omitted); throws UserError for user mistakes */
  run(args: ParsedArgs, io: Io): Promise<number | void> | number | void;
}

/** The `--json` option every read command offers. */
export const JSON_OPTION = { name: "json", type: "boolean", description: "print JSON instead of text" } as const;
