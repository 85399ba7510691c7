/**
 * The read commands on a stored session id, as a chunk of their own (the command line loads it
 * lazily, cli.ts): `context`, `plan`, `prune --dry-run` and `branch` on a pi session in a database
 * that needs nothing but reading, answered through the store's reader without loading the file
 * side, the importer or the write path. The answers are the commands' own (commands/<name>.ts, on
 * the session stored-session.ts opens), with the command line's error policy; anything else (a
 * Claude Code or Codex session, a database to migrate or recover) is given back to the command's
 * usual path.
 */
import type { ParsedArgs } from "./args";
import type { SessionCommand } from "./commands/command";
import { reportError } from "./errors";
import type { Io } from "./output";
import type { StoredReadCommand } from "./session-argument";
import type { LoadedSession } from "./session-source";
import { openStoredPiSession } from "./stored-session";
import { loadSettings, type BonsaiSettings } from "@bonsai/core";
import { warn } from "./output";

/** the model settings saved in the stored session's database, read through its reader (invalid fields: the defaults, with a warning) */
function savedModelSettings(session: LoadedSession, io: Io): BonsaiSettings["model"] {
  const { settings, errors } = loadSettings(session.savedSettings?.());
  for (const e of errors) warn(io, `saved setting ignored: ${e.message}`);
  return settings.model;
}

/** each command's answer on the session, and what it checks of the arguments before the store is opened; loaded for the command that runs only (a chunk each) */
type StoredRead = { check?: (args: ParsedArgs) => unknown; on: SessionCommand };

const COMMANDS: Record<StoredReadCommand, () => Promise<StoredRead>> = {
  // the window of the session's model under the settings saved in the same database (overrides from `bonsai config`)
  context: async () => {
    const { contextOn } = await import("./commands/context");
    return { on: (session, args, io) => contextOn(session, args, io, savedModelSettings(session, io)) };
  },
  plan: async () => ({ on: (await import("./commands/plan")).planOn }),
  prune: async () => ({ on: (await import("./commands/prune")).pruneDryRunOn }),
  branch: async () => {
    const { branchOn, requireTarget } = await import("./commands/branch");
    return { check: requireTarget, on: branchOn };
  },
};

/**
 * Runs the read command `name` on the stored session its SESSION argument names: the exit status,
 * or undefined when this is not a session it answers (run the command as usual then).
 */
export async function runStoredRead(name: StoredReadCommand, args: ParsedArgs, io: Io): Promise<number | undefined> {
  try {
    const command = await COMMANDS[name]();
    command.check?.(args);
    const session = openStoredPiSession(args.positionals[0] as string, args.options["data-dir"] as string | undefined);
    if (!session) return undefined;
    try {
      command.on(session, args, io);
    } finally {
      session.close();
    }
    return 0;
  } catch (err) {
    return reportError(err, io);
  }
}
